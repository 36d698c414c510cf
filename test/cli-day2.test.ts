/**
 * The day-2 commands (status, wait, logs, scale, flux) as real processes of both command names,
 * against a local server answering the Kubernetes API paths they use (test/support/kube-api-server),
 * through a kubeconfig written here: every path, including each error and its exit code.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { KubeApiServer, tempDir } from './support/kube-api-server';
import { jobCondition, node, podOf, podWarning, runningJob, terminated, waiting } from './support/kube-objects';

const BUILD = path.resolve(__dirname, '..', 'build', 'lib');
const PLUGIN = path.join(BUILD, 'cli', 'kubectl-minicluster.js');
const MAIN = path.join(BUILD, 'cli', 'main.js');
const NS = 'hpc';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

/** Runs a command line (the plugin unless `main`) with KUBECONFIG pointing at the server. */
function start(args: string[], o: { main?: boolean; env?: NodeJS.ProcessEnv; input?: string; onStdout?: (text: string) => void } = {}): Promise<Run> & { kill: () => void } {
  const child = spawn(process.execPath, [o.main ? MAIN : PLUGIN, ...args], {
    env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, ...o.env },
    stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (o.input !== undefined) child.stdin!.end(o.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => {
    stdout += d;
    o.onStdout?.(stdout);
  });
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return Object.assign(done, { kill: () => child.kill('SIGTERM') });
}

function run(args: string[], o: { main?: boolean; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Run> {
  return start(args, o);
}

beforeEach(async () => {
  if (!fs.existsSync(PLUGIN)) throw new Error(`${PLUGIN} is missing: run 'npm run build' first`);
  server = new KubeApiServer();
  await server.start();
  dir = tempDir('cli-day2-');
  kubeconfig = server.kubeconfig(dir, NS, ['other']);
  // The nodes podOf binds pods to, Ready: status reads the node of a pod that is not Ready.
  for (const name of ['node-0', 'node-1']) server.put('nodes', node(name));
});

afterEach(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The elastic example running: 2 of 8 brokers, both connected. */
function elasticUp(): Record<string, any> {
  const job = server.put('jobs', runningJob('elastic', NS));
  server.put('pods', podOf(job, 0, { ready: true }));
  server.put('pods', podOf(job, 1, { ready: true }));
  return job;
}

describe('status', () => {
  test('without a name: one line per MiniCluster of the namespace; -o json: a list with every field', async () => {
    // GIVEN an elastic cluster up and a hello-world cluster whose worker is not connected yet
    elasticUp();
    const hello = server.put('jobs', runningJob('hello-world', NS));
    server.put('pods', podOf(hello, 0, { ready: false }));
    // and a Job of another namespace, which is not listed
    server.put('jobs', runningJob('batch', 'elsewhere'));
    // WHEN status runs without a name
    const text = await run(['status']);
    // THEN each cluster has its state, brokers up / expected and size
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    const lines = text.stdout.trim().split('\n').map((l) => l.split(/\s{2,}/));
    expect(lines).toEqual([
      ['NAME', 'JOB', 'STATE', 'BROKERS', 'SIZE'],
      ['flux-elastic', 'flux-elastic', 'Up', '2/2', 'elastic 2..8'],
      [expect.any(String), hello.metadata.name, 'Starting', '0/4', '4'],
    ]);
    const json = JSON.parse((await run(['status', '-o', 'json'])).stdout);
    expect(json).toMatchObject({ apiVersion: 'cdk8s-minicluster/v1', kind: 'MiniClusterStatusList', namespace: NS });
    expect(json.items.map((s: any) => [s.job, s.state, s.brokers])).toEqual([
      ['flux-elastic', 'Up', { up: 2, expected: 2 }],
      [hello.metadata.name, 'Starting', { up: 0, expected: 4 }],
    ]);
  });

  test('one cluster: Job state and conditions, brokers up, and per rank pod, phase, readiness, restarts, IP and node', async () => {
    const job = elasticUp();
    server.update('pods', NS, podOf(job, 1).metadata.name, (p) => {
      p.status.containerStatuses[0].restartCount = 2;
      p.status.conditions.find((c: any) => c.type === 'Ready').status = 'False';
    });
    const r = await run(['status', 'flux-elastic', '-o', 'json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toEqual({
      apiVersion: 'cdk8s-minicluster/v1',
      kind: 'MiniClusterStatus',
      name: 'flux-elastic',
      job: 'flux-elastic',
      namespace: NS,
      state: 'Up',
      elastic: true,
      size: { current: 2, min: 2, max: 8, synthesized: 2 },
      brokers: { up: 1, expected: 2 },
      conditions: [],
      ranks: [
        { rank: 0, pod: 'flux-elastic-0-abcde', phase: 'Running', ready: true, restarts: 0, ip: '10.244.1.10', node: 'node-0', flux: 'running' },
        { rank: 1, pod: 'flux-elastic-1-bcdef', phase: 'Running', ready: false, restarts: 2, ip: '10.244.1.11', node: 'node-1', flux: 'running' },
      ],
      problems: [],
    });
    // The text form of the same, from the other command name
    const text = await run(['status', 'flux-elastic'], { main: true });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('MiniCluster flux-elastic (Job flux-elastic, namespace hpc): Up\nBrokers up: 1/2   Size: elastic 2..8\n');
    expect(text.stdout).toMatch(/^1 +flux-elastic-1-bcdef +Running +no +2 +10\.244\.1\.11 +node-1 +running$/m);
  });

  test("an autoscaled cluster: the autoscaler's last decision and why, from the Job's annotation", async () => {
    // GIVEN the elastic cluster, on which the autoscaler recorded a grow
    const job = elasticUp();
    const decision = { time: '2026-11-26T15:43:08Z', action: 'grow', from: 2, to: 3, reason: '1 job(s) wait for 3 node(s) (largest 3), 0 node(s) busy, 2 up: growing 2 -> 3' };
    server.update('jobs', NS, job.metadata.name, (j) => {
      j.metadata.annotations['flux-framework.org/autoscaler'] = JSON.stringify(decision);
    });
    // WHEN status runs
    const text = await run(['status', 'flux-elastic']);
    // THEN it says what the autoscaler did, when and why
    expect(text.stdout).toContain(`\nAutoscaler: grow 2 -> 3 at 2026-11-26T15:43:08Z: ${decision.reason}\n`);
    expect(JSON.parse((await run(['status', 'flux-elastic', '-o', 'json'])).stdout).autoscaler).toEqual(decision);
    // AND an annotation that is not a decision is shown as it is, not a crash
    server.update('jobs', NS, job.metadata.name, (j) => {
      j.metadata.annotations['flux-framework.org/autoscaler'] = 'not json';
    });
    expect((await run(['status', 'flux-elastic'])).stdout).toContain('Autoscaler: unknown: unreadable annotation flux-framework.org/autoscaler: not json');
  });

  test('a failed handshake: the exit code in words, the peers the termination message names, the podFailurePolicy rule that fired', async () => {
    // GIVEN rank 1 whose handshake passed its deadline (exit 81), and the Job failed by rule 1
    const job = server.put('jobs', runningJob('elastic', NS));
    const peers = 'exit 81: handshake deadline of 300s passed on flux-elastic-1 (rank 1): rank 0\'s handshake server (flux-elastic-rendezvous:8060) never answered: ECONNREFUSED';
    server.put('pods', podOf(job, 0, { ready: false }));
    const failed = server.put('pods', podOf(job, 1, { phase: 'Failed', handshake: terminated(81, peers), flux: terminated(81) }));
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.status.conditions = [
        jobCondition('FailureTarget', 'PodFailurePolicy', `Container flux-elastic for pod ${NS}/${failed.metadata.name} failed with exit code 81 matching FailJob rule at index 2`),
        jobCondition('Failed', 'PodFailurePolicy', `Container flux-elastic for pod ${NS}/${failed.metadata.name} failed with exit code 81 matching FailJob rule at index 2`),
      ];
    });
    const s = JSON.parse((await run(['status', 'flux-elastic', '-o', 'json'])).stdout);
    expect(s.state).toBe('Failed');
    expect(s.ranks[1]).toMatchObject({ rank: 1, phase: 'Failed', flux: 'terminated: exit 81' });
    expect(s.problems).toEqual([
      'the Job failed (PodFailurePolicy): podFailurePolicy rule 2 fired (FailJob when container flux-elastic exits with 64, 70, 81, 82, 83, 84, 85, 86: a hosts handshake failure): '
        + `Container flux-elastic for pod ${NS}/${failed.metadata.name} failed with exit code 81 matching FailJob rule at index 2 - hosts handshake failure: the handshake deadline passed before every peer answered`,
      `rank 1: container flux-handshake exited with code 81 (hosts handshake failure: the handshake deadline passed before every peer answered): ${peers}`,
      'rank 1: container flux-elastic exited with the hosts handshake\'s exit code, 81',
    ]);
    const text = await run(['status', 'flux-elastic']);
    expect(text.stdout).toContain('Conditions: FailureTarget (PodFailurePolicy), Failed (PodFailurePolicy)');
    expect(text.stdout).toContain(`Problems:\n  the Job failed (PodFailurePolicy): podFailurePolicy rule 2 fired`);
  });

  test('image pull errors, volume mount failures (events), unschedulable pods and other Job failures in words', async () => {
    const job = server.put('jobs', runningJob('elastic', NS));
    server.put('pods', podOf(job, 0, { phase: 'Pending', flux: waiting('ImagePullBackOff', 'Back-off pulling image "ubuntu:noble"') }));
    const stuck = server.put('pods', podOf(job, 1, { phase: 'Pending', flux: waiting('ContainerCreating'), handshake: waiting('ContainerCreating') }));
    server.put('events', podWarning(stuck, 'FailedMount', 'MountVolume.SetUp failed for volume "flux-curve-cert" : secret "flux-elastic-curve" not found'));
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.spec.parallelism = 3;
    });
    server.put('pods', podOf(job, 2, { phase: 'Pending', unscheduled: '0/2 nodes are available: 2 Insufficient cpu.' }));
    const s = JSON.parse((await run(['status', 'flux-elastic', '-o', 'json'])).stdout);
    expect(s.state).toBe('Starting');
    expect(s.problems).toEqual([
      'rank 0: image ubuntu:noble of container flux-elastic cannot be pulled (ImagePullBackOff): Back-off pulling image "ubuntu:noble"',
      'rank 1: volume cannot be mounted (FailedMount): MountVolume.SetUp failed for volume "flux-curve-cert" : secret "flux-elastic-curve" not found',
      'rank 2: not scheduled (Unschedulable): 0/2 nodes are available: 2 Insufficient cpu.',
    ]);
    expect(s.ranks[2]).toMatchObject({ ip: null, node: null, flux: 'absent' });
    // A restarting handshake sidecar's last exit is explained too
    server.update('pods', NS, stuck.metadata.name, (p) => {
      p.status.phase = 'Running';
      p.status.initContainerStatuses[0].state = waiting('CrashLoopBackOff', 'back-off 10s');
      p.status.initContainerStatuses[0].lastState = terminated(82, 'exit 82: flux-elastic-0 presented a different certificate');
    });
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.status.conditions = [jobCondition('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit')];
    });
    const again = JSON.parse((await run(['status', 'flux-elastic', '-o', 'json'])).stdout);
    expect(again.problems).toContain('the Job failed (BackoffLimitExceeded): more pods failed than backoffLimit allows: Job has reached the specified backoff limit');
    expect(again.problems).toContain('rank 1: container flux-handshake exited with code 82 (hosts handshake failure: a peer holds a different CURVE certificate): exit 82: flux-elastic-0 presented a different certificate');
  });

  test('--watch prints again after each change (-o json: one document per line) until stopped', async () => {
    const job = server.put('jobs', runningJob('elastic', NS));
    server.put('pods', podOf(job, 0, { ready: false }));
    let lines: string[] = [];
    const saw: Array<() => void> = [];
    const one = new Promise<void>((resolve) => saw.push(resolve));
    const two = new Promise<void>((resolve) => saw.push(resolve));
    const watching = start(['status', 'flux-elastic', '--watch', '-o', 'json'], { onStdout: (text) => {
      lines = text.split('\n').filter(Boolean);
      saw.slice(0, lines.length).forEach((f) => f());
    } });
    // WHEN the lead turns Ready after the first status was printed and both watches are open
    await one;
    await server.seen((r) => r.verb === 'watch' && r.resource === 'pods');
    await server.seen((r) => r.verb === 'watch' && r.resource === 'jobs');
    server.update('pods', NS, podOf(job, 0).metadata.name, (p) => {
      p.status.conditions.find((c: any) => c.type === 'Ready').status = 'True';
    });
    await two;
    watching.kill();
    await watching;
    expect(lines.slice(0, 2).map((l) => JSON.parse(l).state)).toEqual(['Starting', 'Up']);
    const unnamed = await run(['status', '--watch']);
    expect([unnamed.code, unnamed.stderr]).toEqual([1, 'kubectl-minicluster: error: --watch needs a MiniCluster name\n']);
    expect(server.requests.find((r) => r.verb === 'watch' && r.resource === 'pods')!.query.get('labelSelector')).toBe('flux-framework.org/minicluster=flux-elastic');
  });

  test('no such cluster: exit 3, naming the clusters that exist (or none)', async () => {
    const none = await run(['status', 'flux-sample']);
    expect(none.code).toBe(3);
    expect(none.stderr).toBe("kubectl-minicluster: error: no MiniCluster 'flux-sample' in namespace 'hpc'; the namespace has none (no Job labelled app.kubernetes.io/managed-by=cdk8s-minicluster)\n");
    elasticUp();
    const some = await run(['status', 'flux-sample'], { main: true });
    expect(some.code).toBe(3);
    expect(some.stderr).toBe("cdk8s-minicluster: error: no MiniCluster 'flux-sample' in namespace 'hpc'; the namespace has: flux-elastic\n");
    expect((await run(['status'])).stdout).toContain('flux-elastic');
  });

  test('the API server unreachable: exit 4', async () => {
    const port = new URL(server.url).port;
    await server.stop();
    server = new KubeApiServer();
    const r = await run(['status']);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe(`kubectl-minicluster: error: cannot reach the Kubernetes API server at http://127.0.0.1:${port}: ECONNREFUSED\n`);
    await server.start();
  });

  test('forbidden: exit 5, naming the verb and the resource the account lacks; unauthorized: exit 5', async () => {
    elasticUp();
    server.forbidden.add('list jobs');
    const jobs = await run(['status', 'flux-elastic']);
    expect(jobs.code).toBe(5);
    expect(jobs.stderr).toBe("kubectl-minicluster: error: forbidden: your account may not list jobs in namespace 'hpc' (needs RBAC verb 'list' on 'jobs'): "
      + 'jobs is forbidden: User "alice" cannot list resource "jobs" in API group "batch" in the namespace "hpc"\n');
    server.forbidden.clear();
    server.forbidden.add('list pods');
    const pods = await run(['status']);
    expect(pods.code).toBe(5);
    expect(pods.stderr).toContain("may not list pods in namespace 'hpc' (needs RBAC verb 'list' on 'pods')");
    server.forbidden.clear();
    fs.writeFileSync(kubeconfig, fs.readFileSync(kubeconfig, 'utf8').replace('not-a-secret', 'wrong'));
    const unauthorized = await run(['status']);
    expect(unauthorized.code).toBe(5);
    expect(unauthorized.stderr).toBe(`kubectl-minicluster: error: unauthorized: the API server at ${server.url} did not accept the kubeconfig's credentials (list jobs)\n`);
  });

  test('kubeconfig, context and namespace as kubectl takes them: --kubeconfig, --context, -n; errors exit 1', async () => {
    const job = server.put('jobs', runningJob('elastic', 'other'));
    server.put('pods', podOf(job, 0, { ready: true }));
    // The context 'other' has namespace 'other'; -n overrides the context's namespace
    expect((await run(['status', '--context', 'other'])).stdout).toContain('flux-elastic');
    expect((await run(['status', '-n', 'other'])).stdout).toContain('flux-elastic');
    expect((await run(['status'])).stdout).toBe("no MiniCluster in namespace 'hpc'\n");
    const moved = path.join(dir, 'elsewhere.yaml');
    fs.renameSync(kubeconfig, moved);
    expect((await run(['status', '-n', 'other', '--kubeconfig', moved], { env: { KUBECONFIG: '' } })).stdout).toContain('flux-elastic');
    const context = await run(['status', '--kubeconfig', moved, '--context', 'nope']);
    expect(context.code).toBe(1);
    expect(context.stderr).toBe("kubectl-minicluster: error: no context 'nope' in the kubeconfig (it has: test, other)\n");
    const none = await run(['status'], { env: { KUBECONFIG: '' } });
    expect(none.code).toBe(1);
    expect(none.stderr).toBe('kubectl-minicluster: error: no kubeconfig: set KUBECONFIG, pass --kubeconfig, write ~/.kube/config, or run in a pod\n');
    const missing = await run(['status', '--kubeconfig', path.join(dir, 'absent')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot load the kubeconfig ${path.join(dir, 'absent')}`);
  });
});

describe('wait', () => {
  test('--for up: exits 0 once the lead is Ready (the instance is up)', async () => {
    const job = server.put('jobs', runningJob('elastic', NS));
    server.put('pods', podOf(job, 0, { ready: false }));
    const waiting_ = start(['wait', 'flux-elastic', '--for', 'up', '--timeout', '10m']);
    await server.seen((r) => r.verb === 'watch' && r.resource === 'pods');
    server.update('pods', NS, podOf(job, 0).metadata.name, (p) => {
      p.status.conditions.find((c: any) => c.type === 'Ready').status = 'True';
    });
    const r = await waiting_;
    expect(r).toEqual({ code: 0, stdout: 'MiniCluster flux-elastic is up\n', stderr: '' });
  });

  test('--for complete: exits 0 when the Job completes, 8 with the reason when it fails', async () => {
    const job = server.put('jobs', runningJob('elastic', NS));
    server.put('pods', podOf(job, 0, { ready: true }));
    const ok = start(['wait', 'flux-elastic', '--for', 'complete']);
    await server.seen((r) => r.verb === 'watch' && r.resource === 'jobs');
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.status.conditions = [jobCondition('SuccessCriteriaMet', 'SuccessPolicy', 'Matched rules at index 0'), jobCondition('Complete', 'SuccessPolicy', 'Matched rules at index 0')];
    });
    expect(await ok).toEqual({ code: 0, stdout: 'MiniCluster flux-elastic is complete\n', stderr: '' });
    // An up that comes too late: the Job already ended
    const late = await run(['wait', 'flux-elastic', '--for', 'up']);
    expect(late.code).toBe(8);
    expect(late.stderr).toContain('completed before it was seen up');
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.status.conditions = [jobCondition('Failed', 'DeadlineExceeded', 'Job was active longer than specified deadline')];
    });
    const failed = await run(['wait', 'flux-elastic', '--for', 'complete']);
    expect(failed.code).toBe(8);
    expect(failed.stderr).toBe('kubectl-minicluster: error: MiniCluster flux-elastic failed: the Job failed (DeadlineExceeded): activeDeadlineSeconds passed: Job was active longer than specified deadline\n');
  });

  test('--timeout: exits 9 saying where the cluster stands; bad options exit 1', async () => {
    const job = server.put('jobs', runningJob('elastic', NS));
    server.put('pods', podOf(job, 0, { phase: 'Pending', flux: waiting('ErrImagePull', 'not found') }));
    const r = await run(['wait', 'flux-elastic', '--for', 'up', '--timeout', '1s']);
    expect(r.code).toBe(9);
    expect(r.stderr).toBe('kubectl-minicluster: error: timed out after 1s waiting for MiniCluster flux-elastic to be up (now: Starting, 0/2 brokers up; '
      + 'rank 0: image ubuntu:noble of container flux-elastic cannot be pulled (ErrImagePull): not found)\n');
    expect((await run(['wait', 'flux-elastic', '--for', 'up', '--timeout', 'soon'])).code).toBe(1);
    const noFor = await run(['wait', 'flux-elastic']);
    expect(noFor.code).toBe(1);
    expect(noFor.stderr).toContain("required option '--for <condition>' not specified");
    expect((await run(['wait', 'nope', '--for', 'up'])).code).toBe(3);
  });
});

describe('a node that stopped answering', () => {
  const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
  /** node-1 as the node lifecycle controller leaves a node whose kubelet went silent `seconds` ago. */
  function loseNode1(seconds: number, taints: any[] = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: ago(seconds) }]) {
    server.update('nodes', '', 'node-1', (n) => {
      n.spec.taints = taints;
      n.status.conditions = [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastHeartbeatTime: ago(seconds + 40), lastTransitionTime: ago(seconds) }];
    });
  }
  /** Rank 1's pod as the taint manager leaves it: not Ready, evicted, Terminating. */
  function evictRank1(job: any) {
    return server.update('pods', NS, podOf(job, 1).metadata.name, (p) => {
      p.metadata.deletionTimestamp = ago(20);
      p.metadata.deletionGracePeriodSeconds = 30;
      p.status.conditions.find((c: any) => c.type === 'Ready').status = 'False';
      p.status.conditions.push({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: ago(20) });
    });
  }
  function upWithRank1(): any {
    const job = server.put('jobs', runningJob('elastic', NS));
    server.put('pods', podOf(job, 0, { ready: true }));
    server.put('pods', podOf(job, 1, { ready: true }));
    return job;
  }

  test('GIVEN a worker\'s node unreachable and its pod stuck Terminating WHEN status THEN it names the node, the rank, the pod and the commands that free it', async () => {
    const job = upWithRank1();
    loseNode1(95);
    const pod = evictRank1(job);
    const r = await run(['status', 'flux-elastic', '-o', 'json']);
    expect(r.code).toBe(0);
    const problem = JSON.parse(r.stdout).problems.find((p: string) => p.startsWith('rank 1: node node-1'));
    expect(problem).toMatch(/^rank 1: node node-1 stopped answering 9[5-9] s ago \(Kubelet stopped posting node status\.\); pod flux-elastic-1-bcdef is stuck Terminating there: the Job replaces it only once it is gone\. If node-1 is down for good: kubectl taint nodes node-1 node\.kubernetes\.io\/out-of-service=nodeshutdown:NoExecute .*, or kubectl delete node node-1$/);
    expect(pod.metadata.name).toBe('flux-elastic-1-bcdef');
    // AND the lead's node, Ready, is not named
    expect(r.stdout).not.toContain('node-0 stopped');
  });

  test('GIVEN the pod not yet evicted THEN status says it will be, after its toleration', async () => {
    const job = upWithRank1();
    loseNode1(10);
    server.update('pods', NS, podOf(job, 1).metadata.name, (p) => { p.status.conditions.find((c: any) => c.type === 'Ready').status = 'False'; });
    const r = await run(['status', 'flux-elastic']);
    expect(r.stdout).toMatch(/rank 1: node node-1 stopped answering 1\d s ago .*; pod flux-elastic-1-bcdef is evicted once its toleration of the node's taint ends \(pod.nodeLossSeconds\)/);
  });

  test('GIVEN the node tainted out-of-service or deleted THEN status says the rank is being freed, and wait does not give up on it', async () => {
    const job = upWithRank1();
    loseNode1(95, [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }]);
    evictRank1(job);
    expect((await run(['status', 'flux-elastic'])).stdout).toContain('and is tainted out-of-service: Kubernetes deletes pod flux-elastic-1-bcdef and the Job replaces it on another node');
    const waitOos = await run(['wait', 'flux-elastic', '--for', 'complete', '--timeout', '3s', '--unschedulable-grace', '0s']);
    expect(waitOos.code).toBe(9);
    server.delete('nodes', '', 'node-1');
    expect((await run(['status', 'flux-elastic'])).stdout).toContain('rank 1: node node-1 was deleted; pod flux-elastic-1-bcdef is failed by Kubernetes\' pod garbage collector within about a minute');
  });

  test('GIVEN an account that may not read nodes THEN the pod\'s own eviction tells it', async () => {
    const job = upWithRank1();
    loseNode1(95);
    evictRank1(job);
    server.forbidden.add('get nodes');
    const r = await run(['status', 'flux-elastic']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('rank 1: pod flux-elastic-1-bcdef was evicted from node node-1, which stopped answering, and is stuck Terminating there: the Job replaces it only once it is gone. If node-1 is down for good: kubectl taint nodes node-1');
  });

  test('GIVEN the node lost for longer than --unschedulable-grace WHEN wait THEN it fails fast (11) naming the node and the action; within the grace it waits', async () => {
    const job = upWithRank1();
    loseNode1(95);
    evictRank1(job);
    const r = await run(['wait', 'flux-elastic', '--for', 'complete', '--timeout', '5m']);
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/cannot be complete: rank 1: node node-1 stopped answering .* kubectl delete node node-1 \(--no-fail-fast waits for the timeout instead\)/);
    const patient = await run(['wait', 'flux-elastic', '--for', 'complete', '--timeout', '3s', '--unschedulable-grace', '10m']);
    expect(patient.code).toBe(9);
  });
});

describe('logs', () => {
  test("the lead's Flux container by default, another rank with --rank, --tail and --previous", async () => {
    const job = elasticUp();
    const [lead, worker] = [0, 1].map((i) => podOf(job, i).metadata.name);
    server.appendLog(`${lead}/flux-elastic`, 'entrypoint: starting the lead broker\nbroker.info: online\n', true);
    server.appendLog(`${worker}/flux-elastic`, 'entrypoint: starting a worker broker (restart 0)\n', true);
    server.appendLog(`${worker}/flux-elastic/previous`, 'entrypoint: the worker broker exited with code 1\n', true);
    expect(await run(['logs', 'flux-elastic'])).toEqual({ code: 0, stdout: 'entrypoint: starting the lead broker\nbroker.info: online\n', stderr: '' });
    expect((await run(['logs', 'flux-elastic', '--tail', '1'])).stdout).toBe('broker.info: online\n');
    expect((await run(['logs', 'flux-elastic', '--rank', '1'])).stdout).toBe('entrypoint: starting a worker broker (restart 0)\n');
    expect((await run(['logs', 'flux-elastic', '-r', '1', '--previous'])).stdout).toBe('entrypoint: the worker broker exited with code 1\n');
    expect(server.requests.filter((r) => r.resource === 'pods/log').map((r) => r.query.get('container'))).toEqual(Array(4).fill('flux-elastic'));
  });

  test('-f follows the log until the container ends', async () => {
    const job = elasticUp();
    const lead = podOf(job, 0).metadata.name;
    server.appendLog(`${lead}/flux-elastic`, 'line 1\n');
    let sawFirst: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (sawFirst = resolve));
    const following = start(['logs', 'flux-elastic', '-f'], { onStdout: (t) => t.includes('line 1') && sawFirst() });
    await first;
    server.appendLog(`${lead}/flux-elastic`, 'line 2\n', true);
    expect(await following).toEqual({ code: 0, stdout: 'line 1\nline 2\n', stderr: '' });
    expect(server.requests.find((r) => r.resource === 'pods/log')!.query.get('follow')).toBe('true');
  });

  test('errors: no pod of that rank (3), no previous container (10), forbidden (5), a bad rank (1)', async () => {
    const job = elasticUp();
    const absent = await run(['logs', 'flux-elastic', '--rank', '5']);
    expect(absent.code).toBe(3);
    expect(absent.stderr).toBe("kubectl-minicluster: error: MiniCluster 'flux-elastic' has no pod of rank 5 (pods exist for ranks: 0, 1)\n");
    const previous = await run(['logs', 'flux-elastic', '--previous']);
    expect(previous.code).toBe(10);
    expect(previous.stderr).toContain(`the API server answered 400 to get pods/log '${podOf(job, 0).metadata.name}'`);
    server.forbidden.add('get pods/log');
    const forbidden = await run(['logs', 'flux-elastic']);
    expect(forbidden.code).toBe(5);
    expect(forbidden.stderr).toContain("forbidden: your account may not get pods/log");
    expect((await run(['logs', 'flux-elastic', '--rank', 'lead'])).code).toBe(1);
  });
});

describe('scale', () => {
  /** Plays the Job controller: new indexes get pods, which turn Ready (connected) one event later. */
  function jobController(): void {
    server.onJobPatched = (job) => {
      const existing = new Set([...Array(job.spec.parallelism).keys()].filter((i) => server.get('pods', NS, podOf(job, i).metadata.name)));
      for (let i = 0; i < job.spec.parallelism; i++) {
        if (existing.has(i)) continue;
        server.put('pods', podOf(job, i, { ready: false }));
        setImmediate(() => server.update('pods', NS, podOf(job, i).metadata.name, (p) => {
          p.status.conditions.find((c: any) => c.type === 'Ready').status = 'True';
        }));
      }
      for (let i = job.spec.parallelism; i < 8; i++) {
        const name = podOf(job, i).metadata.name;
        if (server.get('pods', NS, name)) setImmediate(() => server.update('pods', NS, name, (p) => (p.status.phase = 'Succeeded')));
      }
    };
  }

  /**
   * The lead's Flux, as exec runs it here: a `flux` that logs its arguments, says ranks are still
   * allocated for `busy` calls of `resource status -s draining`, lists the ranks asked for as online,
   * and runs `exec -r R CMD` as CMD. The view script sits in `dir`, so the marker is dir/config/released.
   */
  function leadFlux(busy = 0): { calls: () => string[]; marker: string } {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.mkdirSync(path.join(dir, 'config'), { recursive: true });
    const log = path.join(dir, 'flux-calls');
    fs.writeFileSync(path.join(dir, 'busy'), String(busy));
    fs.writeFileSync(path.join(bin, 'flux'), `#!/bin/sh
echo "$*" >> '${log}'
case "$1 $2 $4" in
  'resource status draining') n=$(cat '${dir}/busy'); if [ "$n" -gt 0 ]; then echo $((n - 1)) > '${dir}/busy'; echo "$6"; fi ;;
  'resource status online') echo "$6" ;;
esac
if [ "$1" = exec ]; then shift 3; "$@"; fi
`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'flux-view.sh'), `export PATH="$PATH:${bin}"\nfluxsocket='local:///mnt/flux/config/run/flux/local'\n`);
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.metadata.annotations['flux-framework.org/flux-view'] = path.join(dir, 'flux-view.sh');
    });
    return { calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []), marker: path.join(dir, 'config', 'released') };
  }

  test('grows an elastic cluster by a merge patch of parallelism and completions, and waits until the new brokers are up', async () => {
    elasticUp();
    jobController();
    const flux = leadFlux();
    const r = await run(['scale', 'flux-elastic', '--size', '4']);
    expect(r).toEqual({ code: 0, stdout: 'MiniCluster flux-elastic: parallelism and completions 2 -> 4\nMiniCluster flux-elastic: 4 brokers up\n', stderr: '' });
    const job = server.get('jobs', NS, 'flux-elastic')!;
    expect([job.spec.parallelism, job.spec.completions]).toEqual([4, 4]);
    const status = JSON.parse((await run(['status', 'flux-elastic', '-o', 'json'])).stdout);
    expect(status.brokers).toEqual({ up: 4, expected: 4 });
    // AND the ranks it brought back were undrained in Flux first (an earlier shrink may have drained them)
    expect(flux.calls()).toEqual(['resource undrain -u 2-3']);
    // WHEN it shrinks back
    expect((await run(['scale', 'flux-elastic', '--size', '2'])).code).toBe(0);
    // THEN Flux drained ranks 2-3, found them idle, and the released marker was left on those online, before the patch
    expect(flux.calls().slice(1)).toEqual([
      "resource drain -u 2-3 released by kubectl minicluster scale",
      'resource status -s draining -i 2-3 -no {ranks}',
      'resource status -s online -i 2-3 -no {ranks}',
      `exec -r 2-3 touch ${flux.marker}`,
    ]);
    expect(fs.existsSync(flux.marker)).toBe(true);
    expect(server.get('pods', NS, podOf(job, 3).metadata.name)!.status.phase).toBe('Succeeded');
  });

  test('a shrink waits for the jobs on the ranks it gives up, and leaves the Job alone when they outlast --timeout', async () => {
    // GIVEN 4 brokers up, ranks 2-3 running a job for the next 2 checks
    elasticUp();
    jobController();
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.spec.parallelism = 4;
      j.spec.completions = 4;
    });
    const job = server.get('jobs', NS, 'flux-elastic')!;
    for (const i of [2, 3]) server.put('pods', podOf(job, i, { ready: true }));
    const flux = leadFlux(2);
    // WHEN it shrinks to 2 with time enough
    expect((await run(['scale', 'flux-elastic', '--size', '2'])).code).toBe(0);
    // THEN it asked until they were idle, then marked them
    expect(flux.calls().filter((c) => c.includes('draining'))).toHaveLength(3);
    expect(fs.existsSync(flux.marker)).toBe(true);
    // AND with ranks that stay busy past --timeout: exit 9, the ranks stay drained, the Job is not patched
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.spec.parallelism = 4;
      j.spec.completions = 4;
    });
    fs.rmSync(flux.marker);
    fs.writeFileSync(path.join(dir, 'busy'), '100');
    const busy = await run(['scale', 'flux-elastic', '--size', '2', '--timeout', '1s']);
    expect(busy.code).toBe(9);
    expect(busy.stderr).toBe('kubectl-minicluster: error: cannot shrink flux-elastic: ranks 2-3 still run jobs after 1s (drained: they take no new job; run scale again once they are done)\n');
    expect(server.get('jobs', NS, 'flux-elastic')!.spec.parallelism).toBe(4);
    expect(fs.existsSync(flux.marker)).toBe(false);
  });

  test('growing goes on when Flux cannot undrain the ranks it brings back, with a warning', async () => {
    // GIVEN a lead whose view script is not where the annotation says (the exec'd command fails)
    elasticUp();
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.metadata.annotations['flux-framework.org/flux-view'] = path.join(dir, 'missing', 'flux-view.sh');
    });
    const r = await run(['scale', 'flux-elastic', '--size', '3', '--no-wait']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^kubectl-minicluster: warning: flux resource undrain 2 failed \(exit \d+\): .*new ranks that an earlier shrink drained stay drained\n$/s);
    expect(server.get('jobs', NS, 'flux-elastic')!.spec.parallelism).toBe(3);
  });

  test('--no-wait returns once the Job is changed', async () => {
    elasticUp();
    leadFlux();
    const r = await run(['scale', 'flux-elastic', '--size', '8', '--no-wait'], { main: true });
    expect(r).toEqual({ code: 0, stdout: 'MiniCluster flux-elastic: parallelism and completions 2 -> 8\n', stderr: '' });
    expect(server.requests.some((q) => q.verb === 'watch')).toBe(false);
  });

  test('refuses: not elastic (6), above maxSize or below minSize (7), an ended Job (8), forbidden patch (5), a timeout (9)', async () => {
    elasticUp();
    leadFlux();
    const hello = server.put('jobs', runningJob('hello-world', NS));
    const notElastic = await run(['scale', hello.metadata.name, '--size', '5']);
    expect(notElastic.code).toBe(6);
    expect(notElastic.stderr).toBe(`kubectl-minicluster: error: MiniCluster ${hello.metadata.name} is not elastic: its maxSize (4) is not above its minSize (4); synthesize it with maxSize above size to scale it\n`);
    const above = await run(['scale', 'flux-elastic', '--size', '9']);
    expect(above.code).toBe(7);
    expect(above.stderr).toBe('kubectl-minicluster: error: cannot scale MiniCluster flux-elastic to 9: above its maxSize, 8 (the hosts in its Flux hosts list)\n');
    const below = await run(['scale', 'flux-elastic', '--size', '1']);
    expect(below.code).toBe(7);
    expect(below.stderr).toContain('below its minSize, 2 (the brokers the instance needs to be up)');
    server.update('jobs', NS, hello.metadata.name, (j) => {
      delete j.metadata.annotations;
    });
    expect((await run(['scale', hello.metadata.name, '--size', '5'])).stderr).toContain('does not record minSize and maxSize');
    server.forbidden.add('patch jobs');
    const forbidden = await run(['scale', 'flux-elastic', '--size', '3']);
    expect(forbidden.code).toBe(5);
    expect(forbidden.stderr).toContain("may not patch jobs 'flux-elastic' in namespace 'hpc' (needs RBAC verb 'patch' on 'jobs')");
    server.forbidden.clear();
    // No Job controller: the new pod never comes
    const timeout = await run(['scale', 'flux-elastic', '--size', '3', '--timeout', '1s']);
    expect(timeout.code).toBe(9);
    // (on a loaded machine the 1 s may pass before the first count of the brokers: then 0)
    expect(timeout.stderr).toMatch(/^kubectl-minicluster: error: timed out after 1s waiting for 3 brokers of flux-elastic \(now [02] up\)\n$/);
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.status.conditions = [jobCondition('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods')];
    });
    const ended = await run(['scale', 'flux-elastic', '--size', '3']);
    expect(ended.code).toBe(8);
    expect(ended.stderr).toContain('its Job has ended (Complete)');
    expect((await run(['scale', 'flux-elastic'])).code).toBe(1);
  });
});

describe('flux', () => {
  /** A flux view and a `flux` that prints what it got, as local files the exec'd command uses. */
  function fluxView(): void {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'flux'), '#!/bin/sh\necho "flux $* (FLUX_URI=$FLUX_URI)"\necho "to stderr" >&2\nif [ "$1" = fail ]; then exit 3; fi\nif [ "$1" = cat ]; then cat; fi\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'flux-view.sh'), `export PATH="$PATH:${bin}"\nfluxsocket='local:///mnt/flux/config/run/flux/local'\n`);
    server.update('jobs', NS, 'flux-elastic', (j) => {
      j.metadata.annotations['flux-framework.org/flux-view'] = path.join(dir, 'flux-view.sh');
    });
  }

  test("runs flux ARGS in the lead's Flux container with the view's environment, over exec (websocket)", async () => {
    elasticUp();
    fluxView();
    const r = await run(['flux', 'flux-elastic', '--', 'resource', 'list', '--states=up', '-no', '{nnodes}']);
    expect(r).toEqual({ code: 0, stdout: 'flux resource list --states=up -no {nnodes} (FLUX_URI=local:///mnt/flux/config/run/flux/local)\n', stderr: 'to stderr\n' });
    const exec = server.requests.find((q) => q.resource === 'pods/exec')!;
    expect([exec.name, exec.query.get('container'), exec.query.get('stdin')]).toEqual(['flux-elastic-0-abcde', 'flux-elastic', 'false']);
    // another rank, stdin passed with -i, and the command's exit code passed through
    expect((await run(['flux', 'flux-elastic', '--rank', '1', '--', 'jobs'])).stdout).toContain('flux jobs ');
    expect(server.requests.filter((q) => q.resource === 'pods/exec')[1].name).toBe('flux-elastic-1-bcdef');
    const failing = await run(['flux', 'flux-elastic', '--', 'fail']);
    expect(failing.code).toBe(3);
    const piped = await run(['flux', 'flux-elastic', '-i', '--', 'cat'], { input: 'from stdin\n' });
    expect(piped.stdout).toBe('flux cat (FLUX_URI=local:///mnt/flux/config/run/flux/local)\nfrom stdin\n');
    expect(server.requests.filter((q) => q.resource === 'pods/exec')[3].query.get('stdin')).toBe('true');
  });

  test('errors: forbidden exec (5), no such cluster (3), no arguments (1)', async () => {
    elasticUp();
    server.forbidden.add('create pods/exec');
    const r = await run(['flux', 'flux-elastic', '--', 'resource', 'list']);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe("kubectl-minicluster: error: forbidden: your account may not create pods/exec 'flux-elastic-0-abcde' in namespace 'hpc' (needs RBAC verb 'create' on 'pods/exec')\n");
    expect((await run(['flux', 'nope', '--', 'jobs'])).code).toBe(3);
    expect((await run(['flux', 'flux-elastic'])).code).toBe(1);
  });
});

describe('packaging', () => {
  test('both command names list the five commands in --help; each has its own --help', async () => {
    for (const main of [false, true]) {
      const help = await run(['--help'], { main });
      for (const c of ['status', 'wait', 'logs', 'scale', 'flux']) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    }
    for (const c of ['status', 'wait', 'logs', 'scale', 'flux']) {
      const help = await run([c, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('--kubeconfig <file>');
      expect(help.stdout).toContain('Examples:');
    }
  });

  test('importing the constructs does not load the Kubernetes client library; the build bundles it into one file', () => {
    const loaded = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(BUILD, 'index.js'))}); require(${JSON.stringify(path.join(BUILD, 'cli', 'main.js'))});
      console.log(Object.keys(require.cache).filter((f) => f.includes('@kubernetes') || f.includes('kubernetes-client')).length)`], { encoding: 'utf8' });
    expect(loaded.stdout).toBe('0\n');
    // The bundle needs nothing from node_modules: it loads from a directory with none
    const alone = fs.mkdtempSync(path.join(dir, 'alone-'));
    fs.copyFileSync(path.join(BUILD, 'cli', 'day2', 'kubernetes-client.js'), path.join(alone, 'client.js'));
    const client = spawnSync(process.execPath, ['-e', `const k = require(${JSON.stringify(path.join(alone, 'client.js'))}); console.log(Object.keys(k).sort().join(' '))`], { encoding: 'utf8', cwd: alone });
    expect(client.stdout).toBe('BatchV1Api CoreV1Api CustomObjectsApi Exec KubeConfig Log PatchStrategy VersionApi Watch setHeaderOptions\n');
  });
});

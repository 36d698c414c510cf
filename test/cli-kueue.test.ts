/**
 * `status` and `wait` on a cluster queued by Kueue: they read the Workload Kueue made for the Job
 * and say, in Kueue's words, why it is not running (queued, inadmissible, preempted), as real
 * processes against the local API server with Workload objects shaped as Kueue v0.17 writes them.
 */
import * as fs from 'fs';
import { KubeApiServer, tempDir } from './support/kube-api-server';
import { node, podOf, runningJob } from './support/kube-objects';
import { CliRun, runCli } from './support/run-cli';

const NS = 'team-a';
const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:05:00Z';
const QUOTA = "couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, 280m more needed";
const PREEMPTED = 'Preempted to accommodate a workload (UID: 1234, JobUID: 5678) due to prioritization in the ClusterQueue';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

function cli(args: string[]): Promise<CliRun> {
  return runCli(args, { kubeconfig, home: dir });
}

beforeEach(async () => {
  server = new KubeApiServer();
  await server.start();
  dir = tempDir('cli-kueue-');
  kubeconfig = server.kubeconfig(dir, NS);
  server.put('nodes', node('node-0'));
});

afterEach(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The kueue example's Job (LocalQueue team-a-queue), suspended as Kueue holds it, or admitted. */
function queuedJob(suspended = true): Record<string, any> {
  const job = runningJob('kueue', NS);
  job.spec.suspend = suspended;
  if (suspended) {
    job.status = { active: 0, ready: 0, terminating: 0, uncountedTerminatedPods: {} };
    job.status.conditions = [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended', lastProbeTime: T0, lastTransitionTime: T0 }];
  }
  return server.put('jobs', job);
}

function condition(type: string, status: string, reason: string, message: string, at = T0): Record<string, any> {
  return { type, status, reason, message, lastTransitionTime: at, observedGeneration: 1 };
}

/** A Workload owned by `job`, with these conditions (and Kueue's admission once admitted). */
function workload(job: Record<string, any>, name: string, conditions: Record<string, any>[], extra: Record<string, any> = {}): Record<string, any> {
  return server.put('workloads', {
    apiVersion: 'kueue.x-k8s.io/v1beta2',
    kind: 'Workload',
    metadata: {
      name,
      namespace: NS,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid: job.metadata.uid, controller: true }],
      ...extra.metadata,
    },
    spec: { queueName: 'team-a-queue', podSets: [{ name: 'main', count: 4 }] },
    status: { conditions, ...extra.status },
  });
}

describe('status of a cluster Kueue holds', () => {
  test('GIVEN a Workload waiting for quota THEN status names Kueue, the queue and Kueue\'s own message', async () => {
    // GIVEN the Job suspended and its Workload pending for quota
    const job = queuedJob();
    workload(job, 'job-flux-queued-1a2b3', [condition('QuotaReserved', 'False', 'Pending', QUOTA)]);
    // WHEN status runs
    const text = await cli(['status', 'flux-queued']);
    const json = JSON.parse((await cli(['status', 'flux-queued', '-o', 'json'])).stdout);
    // THEN the state is Suspended and Kueue's reason is said in words and in the JSON
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('MiniCluster flux-queued (Job flux-queued, namespace team-a): Suspended');
    expect(text.stdout).toContain('Kueue: Queued (Pending), LocalQueue team-a-queue, Workload job-flux-queued-1a2b3');
    expect(text.stdout).toContain(`queued by Kueue in LocalQueue 'team-a-queue', not admitted yet: ${QUOTA}`);
    expect(json.queue).toEqual({
      localQueue: 'team-a-queue', clusterQueue: null, workload: 'job-flux-queued-1a2b3', state: 'Queued', reason: 'Pending',
      message: QUOTA, since: T0, waiting: null, evictions: 0, resize: false,
    });
  });

  test('GIVEN a preempted Workload waiting for readmission THEN status says preempted, when, why it waits, and that the work starts again', async () => {
    const job = queuedJob();
    workload(job, 'job-flux-queued-1a2b3', [
      condition('QuotaReserved', 'False', 'Pending', QUOTA, T1),
      condition('Evicted', 'True', 'Preempted', PREEMPTED, T1),
      condition('Preempted', 'True', 'InClusterQueue', PREEMPTED, T1),
      condition('Admitted', 'False', 'NoReservation', 'The workload has no reservation', T1),
    ], { status: { schedulingStats: { evictions: [{ reason: 'Preempted', underlyingCause: 'InClusterQueue', count: 2 }] } } });
    const r = await cli(['status', 'flux-queued']);
    expect(r.stdout).toContain('Kueue: Preempted (Preempted), LocalQueue team-a-queue, Workload job-flux-queued-1a2b3, 2 evictions so far');
    expect(r.stdout).toContain(`preempted by Kueue at ${T1}: ${PREEMPTED}; its pods are stopped and it waits to be admitted again (${QUOTA}), then starts a new Flux instance and runs its work from the beginning`);
  });

  test('GIVEN an admitted Workload THEN status shows it without a problem', async () => {
    const job = queuedJob(false);
    server.put('pods', podOf(job, 0, { ready: true }));
    workload(job, 'job-flux-queued-1a2b3', [condition('QuotaReserved', 'True', 'QuotaReserved', 'Quota reserved in ClusterQueue cq'), condition('Admitted', 'True', 'Admitted', 'The workload is admitted')],
      { status: { admission: { clusterQueue: 'cq', podSetAssignments: [] } } });
    const json = JSON.parse((await cli(['status', 'flux-queued', '-o', 'json'])).stdout);
    expect(json.queue).toMatchObject({ state: 'Admitted', clusterQueue: 'cq' });
    expect(json.problems.filter((p: string) => /Kueue/.test(p))).toEqual([]);
  });

  test('GIVEN an elastic Job grown beyond quota THEN the newest slice is the one shown: the resize waits, the brokers go on', async () => {
    const job = queuedJob(false);
    workload(job, 'job-flux-queued-old', [condition('Finished', 'True', 'WorkloadSliceReplaced', 'Replaced to accommodate a workload slice')], { metadata: { creationTimestamp: T0 } });
    workload(job, 'job-flux-queued-new', [condition('QuotaReserved', 'False', 'Pending', QUOTA)],
      { metadata: { creationTimestamp: T1, annotations: { 'kueue.x-k8s.io/workload-slice-replacement-for': `${NS}/job-flux-queued-old` } } });
    const r = await cli(['status', 'flux-queued']);
    expect(r.stdout).toContain(`Kueue has not admitted the resize yet in LocalQueue 'team-a-queue': ${QUOTA}; the running brokers go on, and the new pods wait (SchedulingGated)`);
  });

  test.each([
    ['no Workload for the Job (Kueue not running)', () => undefined, "the Job names LocalQueue 'team-a-queue' but Kueue made no Workload for it: Kueue is not running, or does not manage this namespace; the Job stays suspended"],
    ['no Kueue API on the server', () => (server.kueue = false), 'the Job waits for Kueue (LocalQueue \'team-a-queue\'), whose Workloads cannot be read: the API server serves no Kueue Workloads (Kueue is not installed)'],
    ['an account that may not list Workloads', () => server.forbidden.add('list workloads'), 'whose Workloads cannot be read: forbidden: your account may not list workloads.kueue.x-k8s.io in this namespace'],
  ])('GIVEN %s THEN status still answers and says why the Job waits', async (_, setup, problem) => {
    queuedJob();
    setup();
    const r = await cli(['status', 'flux-queued']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(problem);
  });
});

describe('wait on a cluster Kueue holds', () => {
  test('GIVEN a cluster queued for quota WHEN the timeout passes THEN wait exits 12 with Kueue\'s reason, not a bare timeout', async () => {
    const job = queuedJob();
    workload(job, 'job-flux-queued-1a2b3', [condition('QuotaReserved', 'False', 'Pending', QUOTA)]);
    const r = await cli(['wait', 'flux-queued', '--for', 'up', '--timeout', '2s']);
    expect(r.code).toBe(12);
    expect(r.stderr).toContain('timed out after 2s waiting for MiniCluster flux-queued to be up: Kueue holds it (Queued)');
    expect(r.stderr).toContain(QUOTA);
  });

  test('GIVEN a queue that does not exist WHEN it lasted --unschedulable-grace THEN wait fails fast (11) with Kueue\'s message', async () => {
    const job = queuedJob();
    workload(job, 'job-flux-queued-1a2b3', [condition('QuotaReserved', 'False', 'Inadmissible', "LocalQueue team-a-queue doesn't exist")]);
    const r = await cli(['wait', 'flux-queued', '--for', 'up', '--timeout', '1m', '--unschedulable-grace', '0s']);
    expect(r.code).toBe(11);
    expect(r.stderr).toContain("Kueue cannot admit it from LocalQueue 'team-a-queue' (Inadmissible): LocalQueue team-a-queue doesn't exist");
  });

  test('GIVEN a preempted cluster WHEN Kueue admits it again and the lead turns Ready THEN wait exits 0', async () => {
    const job = queuedJob();
    workload(job, 'job-flux-queued-1a2b3', [condition('QuotaReserved', 'False', 'Pending', QUOTA), condition('Evicted', 'True', 'Preempted', PREEMPTED)]);
    const waiting = cli(['wait', 'flux-queued', '--for', 'up', '--timeout', '1m', '--unschedulable-grace', '0s']);
    await server.seen((r) => r.verb === 'watch' && r.resource === 'jobs');
    // WHEN Kueue readmits it: the Job is resumed and its lead comes up
    server.update('jobs', NS, job.metadata.name, (j) => {
      j.spec.suspend = false;
    });
    server.put('pods', podOf(job, 0, { ready: true }));
    expect(await waiting).toEqual({ code: 0, stdout: 'MiniCluster flux-queued is up\n', stderr: '' });
  });
});

describe('check -f on a queued cluster', () => {
  const DIST = require('path').resolve(__dirname, '..', 'dist', 'kueue.k8s.yaml');
  const check = (): Promise<CliRun> => cli(['check', '-f', DIST]);
  beforeEach(() => {
    server.put('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  const clusterQueue = (pods: string, cohort?: string): void => {
    server.put('clusterqueues', { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ClusterQueue', metadata: { name: 'cq' }, spec: {
      ...(cohort ? { cohortName: cohort } : {}),
      resourceGroups: [{ coveredResources: ['cpu', 'memory', 'pods'], flavors: [{ name: 'default', resources: [{ name: 'cpu', nominalQuota: '16' }, { name: 'memory', nominalQuota: '64Gi' }, { name: 'pods', nominalQuota: pods }] }] }],
    } });
  };
  const localQueue = (): void => {
    server.put('localqueues', { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'LocalQueue', metadata: { name: 'team-a-queue', namespace: NS }, spec: { clusterQueue: 'cq' } });
  };

  test('GIVEN no such LocalQueue THEN check names it as an error: the Job would stay suspended', async () => {
    const r = await check();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ERROR \[kueue-queue\] team-a\/Job\/flux-queued: names Kueue LocalQueue 'team-a-queue' \(label kueue.x-k8s.io\/queue-name\), which does not exist in namespace team-a, or the cluster has no Kueue/);
  });

  test('GIVEN a ClusterQueue whose pods quota is smaller than the cluster THEN check says Kueue never admits it; with room, no kueue finding', async () => {
    localQueue();
    clusterQueue('2');
    const small = await check();
    expect(small.stdout).toContain("its 4 pods request 4 of pods at once, more than ClusterQueue 'cq' can ever hold (2)");
    clusterQueue('8');
    expect((await check()).stdout).not.toContain('[kueue-queue]');
    // A cohort may lend without a limit: not judged
    clusterQueue('2', 'shared');
    expect((await check()).stdout).not.toContain('[kueue-queue]');
  });

  test('GIVEN an account that may not read LocalQueues THEN check cannot tell', async () => {
    server.forbidden.add('get localqueues');
    expect((await check()).stdout).toContain("CANNOT TELL [kueue-queue] team-a/Job/flux-queued: cannot tell whether Kueue LocalQueue team-a-queue exists: forbidden (needs RBAC verb 'get' on 'localqueues')");
  });
});

/**
 * The e2e runner's real-cluster mode (e2e/kube/*) without a cluster: how a case's objects move into
 * its own namespace, how polled pods become podemu's summary (so one set of checks judges both),
 * the faults' parsing and the crash command (run for real against a process named as a broker),
 * the volumes a case needs, the images it lists, the command line and the two-run report.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as k8s from '@kubernetes/client-node';
import { App, Chart } from 'cdk8s';
import { Expectation } from '../e2e/case';
import { allCases } from '../e2e/cases';
import { checkRun } from '../e2e/checks';
import { faultOutcome } from '../e2e/faults';
import { cpuMillis, fitCpuRequests } from '../e2e/kube/fit';
import { podRequests } from '../lib/cli/check/scheduling';
import { imagesIn } from '../e2e/kube/images';
import { caseNamespace, moveToNamespace, podSecurityLabels } from '../e2e/kube/namespace';
import { makesOwnCertificate } from '../e2e/kube/objects';
import { PodSeen, jobVerdict, observePod, podRecord } from '../e2e/kube/record';
import { crashCommand, instanceUp, parseFaults } from '../e2e/kube/run';
import { execExitCode } from '../e2e/kube/target';
import { volumePlan } from '../e2e/kube/volumes';
import { jobFacts, readDocs } from '../e2e/manifests';
import { e2eReport } from '../e2e/report';
import { parseArgs } from '../e2e/run';
import { brokerNodes } from '../e2e/broker-nodes';
import { doubleBrokers, faultedPod, keepOffProtectedNodes, nodeControlFrom, nodeFaultSkip, schedulableReadyNodes } from '../e2e/kube/node-faults';
import { expectationFor, versionSkip } from '../e2e/run-case';
import { RunRecord, withRerun } from '../e2e/run-record';
import { CertificateSource, FluxViewSource, MiniCluster, MiniClusterProps, PodSecurityLevel } from '../lib';
import { VIEW_CHECK_EXIT_CODE } from '../lib/scripts/render';
import { describeWithOperatorData } from './operator/support/operator-data';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-kube-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function synth(props: Partial<MiniClusterProps> = {}, namespace = 'default'): any[] {
  const app = new App({ outdir: dir });
  new MiniCluster(new Chart(app, 'c', { namespace }), 'flux-sample', { size: 2, containers: [{ image: 'ubuntu:noble', command: 'hostname' }], ...props });
  app.synth();
  return readDocs([path.join(dir, 'c.k8s.yaml')]);
}

describe('the case namespace', () => {
  test('GIVEN every case id THEN each gets its own valid DNS label, and a second run another', () => {
    const ids = allCases().cases.map((c) => c.id);
    const names = ids.map((id) => caseNamespace(id));
    for (const n of names) expect(n).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    expect(new Set(names).size).toBe(ids.length);
    expect(caseNamespace(ids[0], 2)).not.toBe(names[0]);
  });

  test('GIVEN a MiniCluster synthesized for namespace hpc WHEN moved THEN no object and no broker host name is left in hpc', () => {
    const docs = synth({}, 'hpc');
    expect(JSON.stringify(docs)).toContain('.hpc.svc.cluster.local');
    const moved = moveToNamespace(docs, 'e2e-x');
    expect(moved.filter((d) => d.metadata?.namespace !== undefined).every((d) => d.metadata.namespace === 'e2e-x')).toBe(true);
    const binding = moved.find((d) => d.kind === 'RoleBinding');
    expect(binding.subjects.every((s: any) => s.namespace === 'e2e-x')).toBe(true);
    const broker = moved.find((d) => d.kind === 'ConfigMap' && Object.keys(d.data ?? {}).some((k) => k.endsWith('.toml')));
    expect(JSON.stringify(broker.data)).toContain('.e2e-x.svc.cluster.local');
    expect(JSON.stringify(moved)).not.toMatch(/\bhpc\.svc\b/);
    // The input is left as it was.
    expect(docs.find((d) => d.kind === 'Job').metadata.namespace).toBe('hpc');
  });

  test('GIVEN objects of two namespaces THEN the move is refused, naming both', () => {
    const docs = [{ kind: 'ConfigMap', metadata: { name: 'a', namespace: 'x' } }, { kind: 'ConfigMap', metadata: { name: 'b', namespace: 'y' } }];
    expect(() => moveToNamespace(docs, 'z')).toThrow(/several namespaces \(x, y\)/);
  });

  test('GIVEN a restricted MiniCluster THEN its namespace enforces restricted; GIVEN the default THEN nothing is enforced', () => {
    expect(podSecurityLabels(synth({ podSecurity: PodSecurityLevel.RESTRICTED }))).toEqual({ 'pod-security.kubernetes.io/enforce': 'restricted' });
    expect(podSecurityLabels(synth())).toEqual({});
  });
});

describe('the certificate', () => {
  test('GIVEN the default output THEN it makes its own certificate; GIVEN a user-made Secret THEN it does not', () => {
    const own = synth();
    expect(makesOwnCertificate(own, jobFacts(own))).toBe(true);
    const user = synth({ certificate: CertificateSource.fromExistingSecret('my-curve') });
    expect(makesOwnCertificate(user, jobFacts(user))).toBe(false);
  });
});

/** A pod as the API returns it, of index `index`, at a moment of its life. */
function pod(name: string, index: number, o: { phase?: string; ready?: boolean; runner?: k8s.V1ContainerState; last?: k8s.V1ContainerState; restarts?: number; disruption?: boolean } = {}, runnerName = 'flux-sample'): k8s.V1Pod {
  return {
    metadata: { name, labels: { 'batch.kubernetes.io/job-completion-index': String(index) } },
    spec: { containers: [{ name: runnerName }], initContainers: [{ name: 'flux-handshake', restartPolicy: 'Always' }, { name: 'flux-view' }] },
    status: {
      phase: o.phase ?? 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: o.ready ? 'True' : 'False' },
        ...(o.disruption ? [{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' }] : []),
      ],
      containerStatuses: o.runner ? [{ name: runnerName, containerID: `containerd://${name}-${o.restarts ?? 0}`, restartCount: o.restarts ?? 0, state: o.runner, lastState: o.last, image: '', imageID: '', ready: !!o.ready }] : [],
    },
  } as k8s.V1Pod;
}

const T0 = Date.parse('2026-11-26T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

/**
 * A one-pod run, judged by the shared checks: the runner `runner` ran once and exited `code` at
 * once, with `message` as its termination message and log, and the Job failed by its
 * podFailurePolicy on that exit (as after the view check of a dropped image volume).
 */
function failedAtOnce(logs: string, expected: Expectation, runner: string, code: number, message: string) {
  const seen = new Map<string, PodSeen>();
  observePod(seen, pod('c-0-aaaaa', 0, { phase: 'Failed', runner: { terminated: { exitCode: code, message, startedAt: at(2), finishedAt: at(2), containerID: 'containerd://c-0-aaaaa-0' } } }, runner), 3, T0);
  fs.mkdirSync(path.join(logs, 'c-0-aaaaa'), { recursive: true });
  fs.writeFileSync(path.join(logs, 'c-0-aaaaa', `${runner}.0.log`), `${message}\n`);
  const record = podRecord(seen.get('c-0-aaaaa')!, (n, r) => `c-0-aaaaa/${n}.${r}.log`, undefined, runner);
  const reason = `PodFailurePolicy: Container ${runner} for pod ns/${runner}-0-aaaaa failed with exit code ${code} matching FailJob rule at index 3`;
  const summary = { result: 'Failed' as const, reason, wall_time_s: null, flux_instance_up_s: null, pods: [record] };
  return { record, problems: checkRun({ expect: expected, summary, logs, runner, pods: 1 }) };
}

describe('a polled run as podemu records it', () => {
  test('GIVEN a worker that starts, turns Ready and completes THEN its record has the times, the broker up at Ready and the exit', () => {
    const seen = new Map<string, PodSeen>();
    const lines = [
      ...observePod(seen, pod('c-1-aaaaa', 1, { phase: 'Pending' }), 0.5, T0),
      ...observePod(seen, pod('c-1-aaaaa', 1, { runner: { running: { startedAt: at(2) } } }), 2.5, T0),
      ...observePod(seen, pod('c-1-aaaaa', 1, { ready: true, runner: { running: { startedAt: at(2) } } }), 4, T0),
      ...observePod(seen, pod('c-1-aaaaa', 1, { phase: 'Succeeded', runner: { terminated: { exitCode: 0, startedAt: at(2), finishedAt: at(9), containerID: 'containerd://c-1-aaaaa-0' } } }), 9.5, T0),
    ];
    expect(lines).toEqual(['c-1-aaaaa: created', 'c-1-aaaaa: phase Running', 'c-1-aaaaa: flux-sample started', 'c-1-aaaaa: ready', 'c-1-aaaaa: flux-broker (rank 1) connected to its parent',
      'c-1-aaaaa: not ready', 'c-1-aaaaa: phase Succeeded', 'c-1-aaaaa: flux-sample exited 0']);
    const record = podRecord(seen.get('c-1-aaaaa')!, (c, run) => `c-1-aaaaa/${c}.${run}.log`);
    expect(record.broker).toMatchObject({ connected_to_parent: 4, listen: null, connects: [4] });
    expect(record.times).toMatchObject({ created: 0.5, ready: 4, end: 9.5 });
    expect(record.containers[0]).toEqual({ name: 'flux-sample', type: 'main', restarts: 0, runs: [{ start: 2, end: 9, exit_code: 0, termination_message: null, log: 'c-1-aaaaa/flux-sample.0.log' }] });
  });

  test('GIVEN a container restarted in place THEN both runs are kept, the first with its exit code', () => {
    const seen = new Map<string, PodSeen>();
    observePod(seen, pod('c-0-aaaaa', 0, { runner: { running: { startedAt: at(1) } } }), 1, T0);
    observePod(seen, pod('c-0-aaaaa', 0, { restarts: 1, runner: { running: { startedAt: at(6) } }, last: { terminated: { exitCode: 137, startedAt: at(1), finishedAt: at(5), containerID: 'containerd://c-0-aaaaa-0' } } }), 6, T0);
    const runs = podRecord(seen.get('c-0-aaaaa')!, () => undefined).containers[0];
    expect(runs.restarts).toBe(1);
    expect(runs.runs.map((r) => [r.exit_code, r.start])).toEqual([[137, 1], [null, 6]]);
  });

  test('GIVEN a runner that ended with the view check\'s 78 THEN no broker is seen, and one that ended otherwise is', () => {
    // What an API server before 1.35 leads to: the image volume dropped, the runner's first step fails.
    const checked = (code: number) => {
      const { record, problems } = failedAtOnce(dir, { result: 'Failed', noBrokers: true }, 'flux-sample', code, 'flux-view-check: the pod has no flux view image volume');
      return { firstSeen: record.broker?.first_seen, problems };
    };
    expect(checked(VIEW_CHECK_EXIT_CODE)).toEqual({ firstSeen: null, problems: [] });
    expect(checked(1)).toEqual({ firstSeen: 2, problems: [expect.stringMatching(/^pod c-0-aaaaa started a broker at \+2s, although none should start$/)] });
  });

  test('GIVEN an evicted pod THEN its reason is the DisruptionTarget reason, and a replaced lead listens when Ready', () => {
    const seen = new Map<string, PodSeen>();
    observePod(seen, pod('c-0-aaaaa', 0, { phase: 'Failed', disruption: true }), 3, T0);
    observePod(seen, pod('c-0-bbbbb', 0, { ready: true, runner: { running: { startedAt: at(12) } } }), 13, T0);
    expect(podRecord(seen.get('c-0-aaaaa')!, () => undefined).reason).toBe('EvictionByEvictionAPI');
    expect(podRecord(seen.get('c-0-bbbbb')!, () => undefined).broker).toMatchObject({ listen: 13, connected_to_parent: null });
  });

  test('GIVEN Job conditions THEN the verdict carries reason and message, which the checks match as podemu\'s', () => {
    expect(jobVerdict({ status: { conditions: [{ type: 'Failed', status: 'True', reason: 'PodFailurePolicy', message: 'Container c for pod ns/c-0-abcde failed with exit code 1 matching FailJob rule at index 0' }] } })).toEqual({
      result: 'Failed', reason: 'PodFailurePolicy: Container c for pod ns/c-0-abcde failed with exit code 1 matching FailJob rule at index 0',
    });
    expect(jobVerdict({ status: { conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }, { type: 'Complete', status: 'True', reason: 'SuccessCriteriaMet' }] } })?.result).toBe('Succeeded');
    expect(jobVerdict({ status: { conditions: [{ type: 'Failed', status: 'False' }] } })).toBeUndefined();
    // A failure decided while a pod stays Terminating on a lost node: the Job has FailureTarget only
    const decided = { type: 'FailureTarget', status: 'True', reason: 'PodFailurePolicy', message: 'Container c for pod ns/c-0-abcde failed with exit code 143 matching FailJob rule at index 1' };
    expect(jobVerdict({ status: { conditions: [decided] } })).toEqual({ result: 'Failed', reason: `FailureTarget: PodFailurePolicy: ${decided.message}` });
    expect(jobVerdict({ status: { conditions: [decided, { type: 'Failed', status: 'True', reason: 'PodFailurePolicy', message: decided.message }] } })?.reason).toBe(`PodFailurePolicy: ${decided.message}`);
  });

  test('GIVEN a recorded run whose lead printed the wrong text THEN the shared checks fail it', () => {
    const seen = new Map<string, PodSeen>();
    observePod(seen, pod('c-0-aaaaa', 0, { ready: true, phase: 'Succeeded', runner: { terminated: { exitCode: 0, startedAt: at(1), finishedAt: at(3), containerID: 'containerd://c-0-aaaaa-0' } } }), 3, T0);
    fs.mkdirSync(path.join(dir, 'c-0-aaaaa'));
    fs.writeFileSync(path.join(dir, 'c-0-aaaaa', 'flux-sample.0.log'), 'hello wrld\n');
    const summary = { result: 'Succeeded' as const, reason: 'SuccessCriteriaMet', wall_time_s: 3, flux_instance_up_s: 3, pods: [podRecord(seen.get('c-0-aaaaa')!, (c, r) => `c-0-aaaaa/${c}.${r}.log`)] };
    const problems = checkRun({ expect: { result: 'Succeeded', leadOutputExactly: 'hello world' }, summary, logs: dir, runner: 'flux-sample', pods: 1 });
    expect(problems).toEqual([expect.stringContaining('lead output differs')]);
    fs.writeFileSync(path.join(dir, 'c-0-aaaaa', 'flux-sample.0.log'), 'hello world\n');
    expect(checkRun({ expect: { result: 'Succeeded', leadOutputExactly: 'hello world' }, summary, logs: dir, runner: 'flux-sample', pods: 1 })).toEqual([]);
  });
});

describe('when the instance was up', () => {
  const broker = (up: number | null) => ({ broker: { up } });
  test('GIVEN the lead\'s log dated every broker THEN the last broker up counts, not the pods\' Ready times', () => {
    expect(instanceUp([broker(2.1), broker(3.4), broker(2.9)], true, 8.0)).toBe(3.4);
  });
  test('GIVEN the log missed a broker THEN there is no time, rather than an early one', () => {
    expect(instanceUp([broker(2.1), broker(null)], true, 8.0)).toBeNull();
    expect(instanceUp([], true, 8.0)).toBeNull();
  });
  test('GIVEN no log followed THEN the last first-Ready time counts', () => {
    expect(instanceUp([broker(null)], false, 8.0)).toBe(8.0);
    expect(instanceUp([], false, null)).toBeNull();
  });
});

describe('faults on a cluster', () => {
  test('GIVEN --evict and --crash specs THEN they are planned in time order; a bad one is refused with its form', () => {
    expect(parseFaults(['2@15'], ['1@6:flux-handshake'])).toEqual([
      { fault: 'crash', index: 1, at: 6, container: 'flux-handshake' },
      { fault: 'evict', index: 2, at: 15, container: undefined },
    ]);
    expect(() => parseFaults(['2@15:flux-sample'])).toThrow("bad --evict '2@15:flux-sample': INDEX@SECONDS");
    expect(() => parseFaults([], ['x@1'])).toThrow('INDEX@SECONDS[:CONTAINER]');
  });

  test('GIVEN a process table with a broker WHEN the runner crash command runs THEN only the broker is SIGKILLed', async () => {
    // A process table of the test's own: the machine's /proc holds every real pod's brokers.
    const victim = spawn('/bin/sleep', ['30']);
    const bystander = spawn('/bin/sleep', ['30']);
    const proc = path.join(dir, 'proc');
    for (const [p, comm] of [[victim, 'flux-broker-2'], [bystander, 'sleep']] as const) {
      fs.mkdirSync(path.join(proc, String(p.pid)), { recursive: true });
      fs.writeFileSync(path.join(proc, String(p.pid), 'comm'), `${comm}\n`);
    }
    const [cmd, ...args] = crashCommand(true, proc);
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    const signal = await new Promise((resolve) => victim.on('exit', (_c, s) => resolve(s)));
    expect(signal).toBe('SIGKILL');
    expect(r.stdout.trim()).toBe('killed 1 broker(s)');
    expect(bystander.exitCode).toBeNull();
    bystander.kill();
    // With no broker in the table it says so and fails.
    expect(spawnSync(cmd, args, { encoding: 'utf8' }).status).toBe(1);
  });

  test('GIVEN exec Status bodies THEN the exit code is read as kubectl reads it', () => {
    expect(execExitCode({ status: 'Success' })).toBe(0);
    expect(execExitCode({ status: 'Failure', details: { causes: [{ reason: 'ExitCode', message: '3' }] } })).toBe(3);
    expect(execExitCode(undefined)).toBeNull();
  });
});

describe('volumes and images', () => {
  test('GIVEN a Job that mounts a claim the output does not make, and a hostPath directory THEN a bound PV and a seeding pod write the files', () => {
    const docs = [{ kind: 'Job', metadata: { name: 'j' }, spec: { completionMode: 'Indexed', template: { spec: { volumes: [
      { name: 'data', persistentVolumeClaim: { claimName: 'data' } }, { name: 'scratch', hostPath: { path: '/var/tmp/scratch', type: 'Directory' } }] } } } }];
    const plan = volumePlan(docs, 'e2e-v', [{ podemuKey: 'pvc-data', files: { 'pancakes.txt': 'pancakes\n' } }]);
    expect(plan.claims.map((c) => [c.metadata.name, c.spec.volumeName])).toEqual([['data', 'e2e-v-data']]);
    expect(plan.volumes[0].spec.claimRef).toEqual({ namespace: 'e2e-v', name: 'data' });
    const spec = plan.seedPod.spec;
    expect(spec.volumes).toEqual([{ name: 'v0', persistentVolumeClaim: { claimName: 'data' } }, { name: 'v1', hostPath: { path: '/var/tmp/scratch', type: 'DirectoryOrCreate' } }]);
    // The script really writes the file (run here with the mount paths as local directories).
    const script = spec.containers[0].command[2].replace(/\/seed\//g, `${dir}/`);
    fs.mkdirSync(path.join(dir, 'v0'));
    fs.mkdirSync(path.join(dir, 'v1'));
    expect(spawnSync('sh', ['-c', script]).status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'v0', 'pancakes.txt'), 'utf8')).toBe('pancakes\n');
  });

  test('GIVEN a Job with nothing to mount or seed THEN no seeding pod', () => {
    expect(volumePlan(synth(), 'e2e-x').seedPod).toBeUndefined();
  });

  test('GIVEN the image-volume output THEN its images include the view reference and the handshake image', () => {
    const images = imagesIn(synth({ kubernetesVersion: '1.35', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } } }));
    expect(images).toEqual(expect.arrayContaining(['ubuntu:noble', 'docker.io/library/node:22.11.0-alpine3.20', 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble']));
  });
});

describe('the command line and the report', () => {
  test('GIVEN the real-cluster options THEN they are parsed; --context alone and unknown options are refused', () => {
    expect(parseArgs(['--kubeconfig', '/k', '--context', 'c', '--only', 'hello', '--cluster-note', 'runc 1.1.5'])).toEqual({
      only: ['hello'], keep: false, kubeconfig: '/k', context: 'c', clusterNotes: ['runc 1.1.5'], listImages: false,
    });
    expect(() => parseArgs(['--context', 'c'])).toThrow('--context needs --kubeconfig');
    expect(() => parseArgs(['--kubecfg', 'x'])).toThrow(/unknown option\(s\) --kubecfg/);
  });

  test('GIVEN a case with a real-cluster expectation THEN it applies there only', () => {
    const c = allCases().cases[0];
    const changed = { ...c, kube: { expect: { leadOutput: [/x/] } } };
    expect(expectationFor(changed, 'kube').leadOutput).toEqual([/x/]);
    expect(expectationFor(changed, 'podemu')).toBe(c.expect);
  });

  test('GIVEN the image-volume cases WHEN the API server is older than 1.35 THEN the expected outcome is the fail-fast with 78, from 1.35 the success', () => {
    // (the runner checks a flux-views image itself: the container the reason names is the runner)
    for (const [id, runner] of [['example image-volume', 'flux-image-view'], ['example hello-world with the view as a read-only image volume', 'flux-sample']]) {
      const c = allCases().cases.find((x) => x.id === id)!;
      const before = expectationFor(c, 'kube', 34);
      expect(before).toMatchObject({ result: 'Failed', noBrokers: true, leadOutputExactly: undefined, terminationMessages: [{ index: 0, container: runner }] });
      expect(before.reason!.test(`PodFailurePolicy: Container ${runner} for pod ${runner}-0-2qt46 failed with exit code 78 matching FailJob rule at index 3`)).toBe(true);
      expect(before.reason!.test('PodFailurePolicy: Container flux-view for pod flux-image-view-0-2qt46 failed with exit code 78 matching FailJob rule at index 3')).toBe(false);
      expect(before.terminationMessages![0].patterns[0].test('flux-view-check: the pod has no flux view image volume at /opt/views on node kn1: the API server dropped the image volume ghcr.io/x:y and its mounts, as ...')).toBe(true);
      for (const minor of [35, 37, undefined]) expect(expectationFor(c, 'kube', minor).result).toBe('Succeeded');
      expect(expectationFor(c, 'podemu').result).toBe('Succeeded');
    }
  });

  test('GIVEN every case with the view as an image volume and a fault WHEN the API server is older than 1.35 THEN it is skipped saying why, from 1.35 it runs', () => {
    const cases = allCases().cases.filter((c) => c.faults && /image volume|in the runner/.test(`${c.id} ${c.note}`));
    expect(cases.map((c) => c.id)).toEqual(['fault interactive, a worker evicted, the handshake in the runner', 'fault interactive, the lead evicted, the handshake in the runner']);
    for (const c of cases) {
      expect(versionSkip(c, 34)).toMatch(/^needs Kubernetes 1\.35 or newer, this API server is 1\.34: the handshake runs in the runner only with the view as an image volume/);
      for (const minor of [35, 36, undefined]) expect(versionSkip(c, minor)).toBeUndefined();
    }
    expect(allCases().cases.filter((c) => versionSkip(c, 34)).map((c) => c.id)).toEqual(cases.map((c) => c.id));
    // The report says so in the case's note, whatever version ran it.
    const rows = e2eReport(cases, [], undefined, undefined).split('\n').filter((l) => l.includes('real cluster: from Kubernetes'));
    expect(rows.map((l) => l.split(' | ')[0])).toEqual(cases.map((c) => `| ${c.id}`));
    for (const row of rows) expect(row).toContain('real cluster: from Kubernetes 1.35 on: the handshake runs in the runner only');
  });

  test('GIVEN the production example with the view as an image volume (a hashed runner name) WHEN the API server is older than 1.35 THEN a run that failed fast with 78 passes, whatever the runner is called', () => {
    const c = allCases().cases.find((x) => x.id === 'example production with the view as an image volume')!;
    const before = expectationFor(c, 'kube', 34);
    expect(before).toMatchObject({ result: 'Failed', noBrokers: true, leadExit: undefined, leadOutput: undefined });
    const message = 'flux-view-check: the pod has no flux view image volume at /mnt/flux-view-image: the API server dropped the image volume ghcr.io/x:y and its mounts, as Kubernetes before 1.35 does. Ways out: run on Kubernetes 1.35 or newer';
    const run = (code: number) => failedAtOnce(dir, before, 'flux-prod-bcd93a53', code, message).problems;
    expect(run(VIEW_CHECK_EXIT_CODE)).toEqual([]);
    expect(run(1).join('\n')).toMatch(/does not match .*exit code 78/);
    expect(expectationFor(c, 'kube', 35)).toMatchObject({ result: 'Failed', leadExit: 1 });
  });

  test('GIVEN both runs THEN the report shows each case\'s two results side by side, with the cluster\'s versions', () => {
    const { cases, rejected } = allCases();
    const first = cases.slice(0, 2);
    const podemu: RunRecord = { target: 'podemu', date: '2026-11-25', seconds: 10, environment: 'flux-core 0.88.0', results: [{ id: first[0].id, status: 'pass', problems: [], brokers: '4/4', wallSeconds: 3.6 }] };
    const kube: RunRecord = { target: 'kube', date: '2026-11-26', seconds: 20, environment: 'API server v1.36.3', results: [{ id: first[0].id, status: 'fail', problems: ['namespace e2e-x still Terminating'], brokers: '3/4' }, { id: first[1].id, status: 'skip', problems: ['slow DNS'] }] };
    const text = e2eReport(first, rejected, podemu, kube);
    expect(text).toContain(`| ${first[0].id} |`);
    expect(text).toMatch(new RegExp(`\\| ${first[0].id} \\|[^\n]*\\| pass \\| 4/4 \\| 3\\.6 \\| fail \\| 3/4 \\| – \\|`));
    expect(text).toContain('real cluster: slow DNS');
    expect(text).toContain('- Real cluster: 2026-11-26, API server v1.36.3');
    expect(text).toContain('### example hello-world (real cluster)');
  });
});

describe('the namespace-deletion cases', () => {
  const summary = (up: number | null) => ({
    result: 'Interrupted' as const, reason: null, wall_time_s: null, flux_instance_up_s: null,
    pods: [{ index: 0, pod: 'c-0-aaaaa', phase: 'Pending', times: {}, broker: { rank: '0', first_seen: null, listen: up, connected_to_parent: null, up }, containers: [] }],
  });

  test('GIVEN pods that were never scheduled THEN noBrokers passes; GIVEN a broker that came up THEN it fails, naming the pod', () => {
    const expectation = { result: 'Interrupted' as const, noBrokers: true };
    expect(checkRun({ expect: expectation, summary: summary(null), logs: dir, runner: 'c', pods: 1 })).toEqual([]);
    expect(checkRun({ expect: expectation, summary: summary(3), logs: dir, runner: 'c', pods: 1 })).toEqual(['pod c-0-aaaaa started a broker at +3s, although none should start']);
  });

  test('GIVEN a fault whose outcome is not awaited THEN only that it acted is checked', () => {
    const s = { ...summary(null), faults: [{ at: 20, fault: 'evict' as const, index: 1, pod: 'c-1-aaaaa', outcome: 'evicted' }] };
    expect(faultOutcome({ evict: ['1@20'], outcome: 'acted', boundSeconds: 0, afterBringUp: false }, s)).toEqual({ seconds: null, problems: [] });
    expect(faultOutcome({ evict: ['1@20'], outcome: 'acted', boundSeconds: 0, afterBringUp: false }, { ...s, faults: [{ ...s.faults[0], pod: null }] }).problems)
      .toEqual([expect.stringContaining('carried out 0 of 1 faults')]);
  });

  test('GIVEN the namespace cases THEN podemu skips them with the reason, and a cluster runs them', () => {
    const cases = allCases().cases.filter((c) => c.id.startsWith('namespace deletion'));
    expect(cases).toHaveLength(2);
    for (const c of cases) {
      expect(c.podemu?.skip).toMatch(/no scheduler/);
      expect(c.kube?.skip).toBeUndefined();
    }
  });
});

describe('requests on a small node', () => {
  test('GIVEN CPU quantities THEN millicores', () => {
    expect([cpuMillis('2'), cpuMillis('500m'), cpuMillis('0.25'), cpuMillis(undefined)]).toEqual([2000, 500, 250, undefined]);
  });

  test('GIVEN 4 pods asking 2 CPUs each (and a 4-CPU limit without a request) on 2 CPUs THEN the requests fit 80% of the node, and it says what changed', () => {
    const docs = synth({ size: 4, containers: [{ image: 'ubuntu:noble', command: 'hostname', resources: { requests: { cpu: '2' }, limits: { cpu: '4' } } } as any] });
    const note = fitCpuRequests(docs, 2000);
    expect(note).toMatch(/^CPU requests scaled down for 4 pods on 2 allocatable CPUs: .*flux-sample 2000m → \d+m/);
    const spec = docs.find((d) => d.kind === 'Job' && d.spec.completionMode === 'Indexed').spec.template.spec;
    const running = [...spec.initContainers.filter((c: any) => c.restartPolicy === 'Always'), ...spec.containers];
    const total = 4 * running.reduce((s: number, c: any) => s + (cpuMillis(c.resources?.requests?.cpu) ?? 0), 0);
    expect(total).toBeLessThanOrEqual(1600);
    expect(spec.containers[0].resources.limits.cpu).toBe('4');
  });

  test('GIVEN 128 pods of the handshake\'s 10m alone (a flux-views image, checked by the runner, which runs the handshake too) on 2 CPUs THEN they fit as they are', () => {
    const docs = synth({ size: 128, kubernetesVersion: '1.35', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } } });
    const spec = docs.find((d) => d.kind === 'Job' && d.spec.completionMode === 'Indexed').spec.template.spec;
    expect(Number(podRequests(spec).get('cpu'))).toBe(10);
    expect(fitCpuRequests(docs, 2000)).toBeUndefined();
  });

  test('GIVEN 128 pods of small requests only (the handshake\'s 10m) on 2 CPUs THEN every request shares the room, 1m at the least', () => {
    // The view check of an image not from flux-views (an init container after the handshake sidecar)
    // makes each pod count 20m: 2.56 CPUs.
    const docs = synth({
      size: 128, kubernetesVersion: '1.35', handshake: { inRunner: false },
      flux: { container: { source: FluxViewSource.IMAGE_VOLUME, image: 'registry.example/hpc/flux-view:1' } },
    });
    const spec = docs.find((d) => d.kind === 'Job' && d.spec.completionMode === 'Indexed').spec.template.spec;
    const perPodCpu = () => Number(podRequests(spec).get('cpu'));
    expect(perPodCpu()).toBe(20);
    const note = fitCpuRequests(docs, 2000);
    expect(note).toMatch(/flux-handshake 10m → \d+m/);
    const perPod = perPodCpu();
    expect(perPod * 128).toBeLessThanOrEqual(1600);
    expect(perPod).toBeGreaterThan(0);
  });

  test('GIVEN 2 pods that fit, in a Job the run grows to 4 THEN the requests fit 4', () => {
    const docs = () => synth({ size: 2, containers: [{ image: 'ubuntu:noble', command: 'hostname', resources: { requests: { cpu: '500m' } } } as any] });
    expect(fitCpuRequests(docs(), 2000)).toBeUndefined();
    expect(fitCpuRequests(docs(), 2000, 4)).toMatch(/for 4 pods.*flux-sample 500m → 390m/);
  });

  test('GIVEN pods that fit THEN nothing changes', () => {
    const docs = synth();
    const before = JSON.stringify(docs);
    expect(fitCpuRequests(docs, 2000)).toBeUndefined();
    expect(JSON.stringify(docs)).toBe(before);
  });
});

describe('a re-run of some cases', () => {
  test('GIVEN a full run and an --only run THEN the re-run cases\' rows are replaced, the others kept, and the re-run is named', () => {
    const full: RunRecord = { target: 'kube', date: '2026-11-26', seconds: 900, results: [{ id: 'a', status: 'fail', problems: ['x'] }, { id: 'b', status: 'pass', problems: [] }] };
    const again: RunRecord = { target: 'kube', date: '2026-11-27', seconds: 30, results: [{ id: 'a', status: 'pass', problems: [] }] };
    const merged = withRerun(full, again);
    expect(merged.results).toEqual([{ id: 'a', status: 'pass', problems: [] }, { id: 'b', status: 'pass', problems: [] }]);
    expect(merged.seconds).toBe(900);
    expect(merged.reruns).toEqual([{ date: '2026-11-27', ids: ['a'] }]);
  });

  test('GIVEN cases re-run twice THEN the run names each once, at its last re-run, and drops re-runs left with none', () => {
    const full: RunRecord = { target: 'kube', date: '2026-11-26', seconds: 900, results: ['a', 'b', 'c'].map((id) => ({ id, status: 'pass', problems: [] })) };
    const rerun = (date: string, ...ids: string[]): RunRecord => ({ target: 'kube', date, seconds: 30, results: ids.map((id) => ({ id, status: 'pass', problems: [] })) });
    // WHEN a and b run again, then b alone, then a and b again, then c
    let merged = full;
    for (const r of [rerun('2026-11-27', 'a', 'b'), rerun('2026-11-28', 'b'), rerun('2026-11-29', 'a', 'b'), rerun('2026-11-30', 'c')]) merged = withRerun(merged, r);
    // THEN the list says when each case last ran, once
    expect(merged.reruns).toEqual([{ date: '2026-11-29', ids: ['a', 'b'] }, { date: '2026-11-30', ids: ['c'] }]);
  });
});

describe('node faults on a cluster', () => {
  const node = (name: string, ready = true, more: Partial<k8s.V1NodeSpec> = {}): k8s.V1Node => ({
    metadata: { name }, spec: more, status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'Unknown' }] },
  });
  const drainCase = allCases().cases.find((c) => c.id === 'node fault interactive, a worker\'s node drained')!;
  const loseCase = allCases().cases.find((c) => c.id === 'node fault interactive, a worker\'s node lost, then deleted')!;
  const control = { program: '/bin/nodectl', protectedNodes: ['kn0'] };

  test('GIVEN cordoned, tainted and not Ready nodes THEN only Ready schedulable ones count', () => {
    expect(schedulableReadyNodes([node('kn0'), node('kn1', false), node('kn2', true, { unschedulable: true }), node('kn3', true, { taints: [{ key: 'x', effect: 'NoSchedule' }] }), node('kn4')])).toEqual(['kn0', 'kn4']);
  });

  test('GIVEN a node fault case THEN it skips on podemu, on one node, and (losing a node) without --node-control or a second node besides the protected one', () => {
    expect(nodeFaultSkip(drainCase, { kube: false })).toBe('node faults need a real cluster of several nodes');
    expect(nodeFaultSkip(drainCase, { kube: true, nodes: ['kn0'] })).toBe('node faults need at least 2 Ready schedulable nodes; the cluster has 1');
    expect(nodeFaultSkip(drainCase, { kube: true, nodes: ['kn0', 'kn1'] })).toBeUndefined();
    expect(nodeFaultSkip(loseCase, { kube: true, nodes: ['kn0', 'kn1', 'kn2'], control: { protectedNodes: [] } })).toBe('losing a node needs --node-control PROGRAM (or E2E_NODE_CONTROL)');
    expect(nodeFaultSkip(loseCase, { kube: true, nodes: ['kn0', 'kn1'], control })).toMatch(/^losing a node needs 2 Ready schedulable nodes besides the protected ones \(kn0\)/);
    expect(nodeFaultSkip(loseCase, { kube: true, nodes: ['kn0', 'kn1', 'kn2'], control })).toBeUndefined();
    expect(nodeFaultSkip(allCases().cases[0], { kube: false })).toBeUndefined();
  });

  test('GIVEN a case that loses a node and a protected node THEN every pod is kept off it, within each node selector term; a drain case is left alone', () => {
    const job = { spec: { template: { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }] } } } } } } };
    expect(keepOffProtectedNodes(job, loseCase, ['kn0'])).toMatch(/kept off the protected node\(s\) kn0/);
    expect(job.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'a', operator: 'Exists' }], matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['kn0'] }] },
    ]);
    const bare: any = { spec: { template: { spec: {} } } };
    expect(keepOffProtectedNodes(bare, drainCase, ['kn0'])).toBeUndefined();
    expect(bare.spec.template.spec).toEqual({});
  });

  test('GIVEN two pods of one index with Flux running THEN it is two live brokers unless one is on a node not Ready or lost', () => {
    const p = (name: string, index: number, nodeName: string, running = true): k8s.V1Pod => ({
      metadata: { name, labels: { 'batch.kubernetes.io/job-completion-index': String(index) } },
      spec: { nodeName, containers: [] },
      status: { containerStatuses: [{ name: 'flux', ready: true, restartCount: 0, image: '', imageID: '', state: running ? { running: {} } : { terminated: { exitCode: 0 } } }] },
    });
    const pods = [p('c-2-a', 2, 'kn2'), p('c-2-b', 2, 'kn1'), p('c-1-a', 1, 'kn1'), p('c-3-a', 3, 'kn1'), p('c-3-b', 3, 'kn2', false)];
    const index = (x: k8s.V1Pod) => Number(x.metadata!.labels!['batch.kubernetes.io/job-completion-index']);
    expect(doubleBrokers(pods, 'flux', new Set(['kn1', 'kn2']), new Set(), index)).toEqual(['rank 2 had 2 live brokers at once: c-2-a on kn2, c-2-b on kn1']);
    expect(doubleBrokers(pods, 'flux', new Set(['kn1']), new Set(), index)).toEqual([]);
    expect(doubleBrokers(pods, 'flux', new Set(['kn1', 'kn2']), new Set(['kn2']), index)).toEqual([]);
  });

  test('GIVEN pods on nodes, a rank replaced on another THEN the report line names each node and its ranks; without nodes nothing', () => {
    expect(brokerNodes([{ index: 0, node: 'kn0' }, { index: 1, node: 'kn1' }, { index: 3, node: 'kn1' }, { index: 2, node: 'kn2' }])).toBe('nodes (3): kn0 (rank 0), kn1 (ranks 1, 3), kn2 (rank 2)');
    expect(brokerNodes([{ index: 2, node: 'kn2' }, { index: 2, node: 'kn1' }])).toBe('nodes (2): kn1 (rank 2), kn2 (rank 2)');
    expect(brokerNodes([{ index: 0 }])).toBeUndefined();
  });

  test('GIVEN --node-control or E2E_NODE_CONTROL, and E2E_PROTECTED_NODES THEN the program and the protected nodes; --node-control alone is refused', () => {
    expect(parseArgs(['--kubeconfig', '/k', '--node-control', '/bin/nodectl']).nodeControl).toBe('/bin/nodectl');
    expect(() => parseArgs(['--node-control', '/bin/nodectl'])).toThrow('--node-control needs --kubeconfig');
    expect(nodeControlFrom(undefined, { E2E_NODE_CONTROL: '/bin/n', E2E_PROTECTED_NODES: 'kn0, cp1' })).toEqual({ program: '/bin/n', protectedNodes: ['kn0', 'cp1'] });
    expect(nodeControlFrom('/bin/flag', { E2E_NODE_CONTROL: '/bin/n' })).toEqual({ program: '/bin/flag', protectedNodes: [] });
  });
});

describe('the pod whose node a node fault takes', () => {
  const pod = (index: number, node: string, phase = 'Running') => ({ name: `c-${index}-${node}`, index, phase, node });

  test('GIVEN the worker asked for shares the lead\'s node THEN another worker\'s node without the lead is taken', () => {
    const pods = [pod(0, 'kn1'), pod(1, 'kn2'), pod(2, 'kn1'), pod(3, 'kn2')];
    expect(faultedPod(2, pods)?.name).toBe('c-1-kn2');
    expect(faultedPod(3, pods)?.name).toBe('c-3-kn2');
  });

  test('GIVEN a lead fault THEN the lead\'s pod, wherever it is; GIVEN every worker beside the lead THEN none', () => {
    expect(faultedPod(0, [pod(0, 'kn1'), pod(1, 'kn1')])?.name).toBe('c-0-kn1');
    expect(faultedPod(1, [pod(0, 'kn1'), pod(1, 'kn1'), pod(2, 'kn2', 'Failed')])).toBeUndefined();
  });
});

describeWithOperatorData('an operator test synthesized with the view as an image volume', () => {
  test('GIVEN an API server older than 1.35 THEN the expected outcome is the fail-fast with 78 naming its runner, from 1.35 its own', () => {
    const c = allCases().cases.find((x) => x.id === 'operator flux-resource-list/minicluster.yaml --view-source image-volume --kubernetes-version 1.35')!;
    const before = expectationFor(c, 'kube', 34);
    expect(before).toMatchObject({ result: 'Failed', noBrokers: true, leadOutput: undefined, terminationMessages: [{ index: 0, container: 'flux-sample' }] });
    expect(before.reason!.test('PodFailurePolicy: Container flux-sample for pod ns/flux-sample-0-9q2cs failed with exit code 78 matching FailJob rule at index 3')).toBe(true);
    for (const minor of [35, 36]) expect(expectationFor(c, 'kube', minor)).toMatchObject({ result: 'Succeeded', leadOutput: [expect.any(RegExp)] });
    // the same test without the image volume expects its own outcome on every version
    expect(expectationFor(allCases().cases.find((x) => x.id === 'operator flux-resource-list/minicluster.yaml')!, 'kube', 34).result).toBe('Succeeded');
  });
});

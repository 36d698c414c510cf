/**
 * `wait` ends early, exit 11, when a pod is stuck in a state that does not resolve by itself, and
 * reports only current problems: a mount warning from before the pod's containers started is not one.
 */
import * as fs from 'fs';
import { KubeApiServer, tempDir } from './support/kube-api-server';
import { node, podEvent, podOf, runningJob, waiting } from './support/kube-objects';
import { CliRun, runCli } from './support/run-cli';

const NS = 'hpc';
/** Before the pods' containers started (T0 in kube-objects). */
const EARLIER = '2025-12-31T23:59:30Z';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

function wait(args: string[], main = false): Promise<CliRun> {
  return runCli(['wait', 'flux-elastic', '--for', 'up', ...args], { kubeconfig, home: dir, main });
}

beforeEach(async () => {
  server = new KubeApiServer();
  await server.start();
  dir = tempDir('cli-wait-');
  kubeconfig = server.kubeconfig(dir, NS);
  // The Ready nodes podOf binds pods to: wait reads the node of a pod that is not Ready.
  for (const name of ['node-0', 'node-1']) server.put('nodes', node(name));
});

afterEach(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The elastic example's two pods: the handshake sidecar running, the app container waiting `reason`. */
function pending(reason: string, message: string): Record<string, any> {
  const job = server.put('jobs', runningJob('elastic', NS));
  for (const rank of [0, 1]) {
    const pod = server.put('pods', podOf(job, rank, { phase: 'Pending', flux: waiting(reason, message) }));
    // The certificate Secret was missing until the certificate Job made it: resolved before the containers started
    server.put('events', podEvent(pod, 'FailedMount', 'MountVolume.SetUp failed for volume "flux-curve-cert" : secret "flux-elastic-curve" not found', { at: EARLIER }));
  }
  return job;
}

test('--for up on a cluster whose app image cannot be pulled: exit 11 with the pull error once the kubelet backs off, before --timeout; the resolved mount warning is not reported', async () => {
  // GIVEN pods whose image pull failed once (ErrImagePull: a retry may still succeed)
  const job = pending('ErrImagePull', 'failed to pull and unpack image "docker.io/library/ubuntu:noble": not found');
  // WHEN wait runs with a 10 minute timeout
  const running = wait(['--timeout', '10m']);
  await server.seen((r) => r.verb === 'watch' && r.resource === 'pods');
  // AND the kubelet backs off pulling it
  server.update('pods', NS, podOf(job, 0).metadata.name, (p) => {
    p.status.containerStatuses[0].state = waiting('ImagePullBackOff', 'Back-off pulling image "ubuntu:noble"');
  });
  // THEN it exits 11 naming the pull error, and not the certificate's mount warning
  const r = await running;
  expect(r).toEqual({
    code: 11,
    stdout: '',
    stderr: 'kubectl-minicluster: error: MiniCluster flux-elastic cannot be up: rank 0: image ubuntu:noble of container flux-elastic cannot be pulled (ImagePullBackOff): '
      + 'Back-off pulling image "ubuntu:noble" (--no-fail-fast waits for the timeout instead)\n',
  });
  // status does not report the resolved warning either (the pods are Pending on a node, so their events are read)
  const status = JSON.parse((await runCli(['status', 'flux-elastic', '-o', 'json'], { kubeconfig, home: dir })).stdout);
  expect(server.requests.some((q) => q.resource === 'events')).toBe(true);
  expect(status.problems.filter((p: string) => p.includes('FailedMount'))).toEqual([]);
});

test('a mount warning after the containers started is still current', async () => {
  const job = pending('ContainerCreating', '');
  server.put('events', podEvent(podOf(job, 1), 'FailedMount', 'MountVolume.SetUp failed for volume "data" : rpc error', { at: '2026-01-01T00:05:00Z' }));
  const status = JSON.parse((await runCli(['status', 'flux-elastic', '-o', 'json'], { kubeconfig, home: dir })).stdout);
  expect(status.problems).toEqual(['rank 1: volume cannot be mounted (FailedMount): MountVolume.SetUp failed for volume "data" : rpc error']);
});

test('--no-fail-fast waits for --timeout (exit 9); a state a retry may clear counts after --stuck-grace', async () => {
  pending('ImagePullBackOff', 'Back-off pulling image "ubuntu:noble"');
  const patient = await wait(['--timeout', '1s', '--no-fail-fast'], true);
  expect(patient.code).toBe(9);
  expect(patient.stderr).toMatch(/^cdk8s-minicluster: error: timed out after 1s waiting for MiniCluster flux-elastic to be up/);
  // CreateContainerConfigError: within its grace (default 30s) the timeout comes first; with no grace it is stuck
  server.update('pods', NS, podOf(server.get('jobs', NS, 'flux-elastic')!, 0).metadata.name, (p) => {
    p.status.containerStatuses[0].state = waiting('CreateContainerConfigError', 'secret "app-credentials" not found');
  });
  server.update('pods', NS, podOf(server.get('jobs', NS, 'flux-elastic')!, 1).metadata.name, (p) => {
    p.status.containerStatuses[0].state = waiting('ContainerCreating');
  });
  expect((await wait(['--timeout', '1s'])).code).toBe(9);
  const stuck = await wait(['--timeout', '10m', '--stuck-grace', '0s']);
  expect([stuck.code, stuck.stderr]).toEqual([11, 'kubectl-minicluster: error: MiniCluster flux-elastic cannot be up: rank 0: container flux-elastic cannot start '
    + '(CreateContainerConfigError): secret "app-credentials" not found (--no-fail-fast waits for the timeout instead)\n']);
});

test('an unschedulable pod: stuck past --unschedulable-grace, not while the cluster autoscaler adds a node, at once when it says it will not', async () => {
  // GIVEN a pod unschedulable since T0 (long past the default 2m grace)
  const job = server.put('jobs', runningJob('elastic', NS));
  const pod = server.put('pods', podOf(job, 0, { phase: 'Pending', unscheduled: '0/3 nodes are available: 3 Insufficient cpu.' }));
  const r = await wait(['--timeout', '10m']);
  expect([r.code, r.stderr]).toEqual([11, `kubectl-minicluster: error: MiniCluster flux-elastic cannot be up: rank 0: pod ${pod.metadata.name} cannot be scheduled: `
    + '0/3 nodes are available: 3 Insufficient cpu. (--no-fail-fast waits for the timeout instead)\n']);
  // WHEN the cluster autoscaler adds a node for it THEN wait keeps waiting (here until its timeout)
  server.put('events', podEvent(pod, 'TriggeredScaleUp', 'pod triggered scale-up: [{pool-a 1->2 (max: 5)}]', { type: 'Normal', component: 'cluster-autoscaler', at: '2026-01-01T00:01:00Z' }));
  expect((await wait(['--timeout', '1s'])).code).toBe(9);
  // WHEN it says no node group would help THEN at once
  server.put('events', podEvent(pod, 'NotTriggerScaleUp', "pod didn't trigger scale-up: 1 max node group size reached", { type: 'Normal', component: 'cluster-autoscaler', at: '2026-01-01T00:02:00Z' }));
  const no = await wait(['--timeout', '10m', '--unschedulable-grace', '1h']);
  expect(no.code).toBe(11);
  expect(no.stderr).toContain("(and the cluster autoscaler adds no node: pod didn't trigger scale-up: 1 max node group size reached)");
});

test('events as a real API server sends them, with null for the times an event does not have, are read (it crashed on the real node)', async () => {
  const job = pending('ContainerCreating', '');
  // An event made through events.k8s.io: eventTime set, lastTimestamp and firstTimestamp null.
  server.put('events', { ...podEvent(podOf(job, 1), 'FailedMount', 'MountVolume.SetUp failed for volume "data" : rpc error'), firstTimestamp: null, lastTimestamp: null, eventTime: '2026-01-01T00:05:00.000000Z' });
  const r = await runCli(['status', 'flux-elastic', '-o', 'json'], { kubeconfig, home: dir });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).problems).toEqual(['rank 1: volume cannot be mounted (FailedMount): MountVolume.SetUp failed for volume "data" : rpc error']);
});

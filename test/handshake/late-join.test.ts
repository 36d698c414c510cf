import { HANDSHAKE_FAILED_FILE, HANDSHAKE_HOSTS_FILE, HANDSHAKE_PARENT_FILE, HANDSHAKE_READY_FILE } from '../../lib/core/handshake-contract';
import { ClusterOptions, LogLine, Pod, TestCluster, programSuite } from './support/cluster';
import { FakeBrokerPort, connectAsBroker, dialAsBroker } from './support/flux-broker';
import { ServiceProxy } from './support/service-proxy';

function parentEnv(c: TestCluster, parent: number, ip: string): string {
  return [
    `FLUX_PARENT_RANK=${parent}`,
    `FLUX_PARENT_HOST=flux-${parent}`,
    `FLUX_PARENT_FQDN=${c.fqdn(parent)}`,
    `FLUX_PARENT_IP=${ip}`,
    `FLUX_PARENT_PORT=${c.fluxPort}`,
    `FLUX_PARENT_URI=tcp://${ip}:${c.fluxPort}`,
    '',
  ].join('\n');
}

function events(pod: Pod, event: string): Record<string, unknown>[] {
  return pod.lines.filter((l) => l.event === event);
}

/**
 * Dials again and again until `pod` logs a line that `match`es, as a prober or libzmq redials: a
 * dial that lands in the bind check's brief listen of the Flux port is closed unread. A pod that
 * exits ends the dialing too, and the wait then fails saying how it ended.
 */
async function redialUntil(pod: Pod, match: (l: LogLine) => boolean, dial: () => Promise<void>): Promise<void> {
  const logged = pod.waitFor(match);
  let settled = false;
  void logged.then(() => { settled = true; }, () => { settled = true; });
  while (!settled) await Promise.race([dial(), pod.exited]);
  await logged;
}

programSuite('init lifecycle: a pod that comes after the cluster is up joins without the exited handshakes', () => {
  let cluster: TestCluster | undefined;
  const brokers: FakeBrokerPort[] = [];
  let fluxService: ServiceProxy | undefined;

  afterEach(async () => {
    await Promise.all(brokers.splice(0).map((b) => b.close()));
    await fluxService?.close();
    fluxService = undefined;
    await cluster?.stop();
    cluster = undefined;
  });

  /** An init-lifecycle cluster that came up (every handshake exited 0), then its brokers started. */
  async function runningCluster(options: ClusterOptions, brokerRanks: number[]): Promise<TestCluster> {
    const c = await TestCluster.create({ lifecycle: 'init', ...options });
    cluster = c;
    const pods = await c.startAll();
    expect(await Promise.all(pods.map((p) => p.exited))).toEqual(pods.map(() => 0));
    for (const r of brokerRanks) brokers.push(await FakeBrokerPort.listen(c.ip(r), c.fluxPort));
    // The rendezvous Service's second port (init lifecycle) reaches rank 0's broker.
    fluxService = new ServiceProxy(c.proxy.vip, c.fluxPort);
    await fluxService.setEndpoint(c.ip(0));
    return c;
  }

  test('a replaced follower finds rank 0\'s broker through the rendezvous Service and writes its parent\'s address', async () => {
    // GIVEN a 3-pod cluster that came up, whose handshakes exited, and rank 0's broker runs
    const c = await runningCluster({ size: 3 }, [0]);
    // WHEN pod 2 is replaced by one with a new IP and a fresh emptyDir
    const replacement = await c.startPod(2, { generation: 1, freshVolume: true });
    // THEN it becomes ready and exits 0, with rank 0's current address in parent.env
    expect(await replacement.exited).toBe(0);
    expect(replacement.file(HANDSHAKE_READY_FILE)).toBe('rank=2\n');
    expect(replacement.file(HANDSHAKE_PARENT_FILE)).toBe(parentEnv(c, 0, c.ip(0)));
    expect(replacement.file(HANDSHAKE_HOSTS_FILE)).toBe([0, 2].map((i) => `${c.ip(i, i === 2 ? 1 : 0)} ${c.fqdn(i)} flux-${i}\n`).join(''));
    // AND it said once how it knew: through the Service's Flux port, then its parent's broker
    expect(events(replacement, 'cluster-running')).toEqual([
      expect.objectContaining({ via: `${c.rendezvousHost}:${c.fluxPort}`, ip: c.proxy.vip }),
    ]);
    expect(events(replacement, 'late-parent')).toEqual([
      expect.objectContaining({ outcome: 'ok', parent: 0, ip: c.ip(0), fluxPort: c.fluxPort }),
    ]);
    expect(events(replacement, 'ready')).toHaveLength(1);
  });

  test('kary:2: a replaced leaf finds its interior parent, and a replaced interior rank does not wait for its children', async () => {
    // GIVEN a 4-pod binary tree that came up (rank 1 is the parent of rank 3), brokers on ranks 0 and 1
    const c = await runningCluster({ size: 4, topology: 'kary:2' }, [0, 1]);
    // WHEN rank 3 is replaced
    const leaf = await c.startPod(3, { generation: 1, freshVolume: true });
    // THEN its parent file names rank 1's address
    expect(await leaf.exited).toBe(0);
    expect(leaf.file(HANDSHAKE_PARENT_FILE)).toBe(parentEnv(c, 1, c.ip(1)));
    // WHEN rank 1 is replaced too (its child's handshake is long gone, its child's broker still runs)
    await brokers[1].close();
    const interior = await c.startPod(1, { generation: 1, freshVolume: true });
    // THEN it is ready without any child verifying it, with rank 0 as its parent
    expect(await interior.exited).toBe(0);
    expect(interior.file(HANDSHAKE_PARENT_FILE)).toBe(parentEnv(c, 0, c.ip(0)));
    expect(events(interior, 'child-connected')).toEqual([]);
    expect(events(interior, 'bind-checked')).toEqual([expect.objectContaining({ portCheck: 'free' })]);
  });

  test('dns mode: the running cluster is found through rank 0\'s per-pod name', async () => {
    // GIVEN a dns-mode cluster (no rendezvous Service) that came up, rank 0's broker running
    const c = await runningCluster({ size: 3, mode: 'dns' }, [0]);
    // WHEN pod 1 is replaced
    const replacement = await c.startPod(1, { generation: 1, freshVolume: true });
    // THEN it joins through rank 0's per-pod name
    expect(await replacement.exited).toBe(0);
    expect(replacement.file(HANDSHAKE_PARENT_FILE)).toBe(parentEnv(c, 0, c.ip(0)));
    expect(events(replacement, 'cluster-running')).toEqual([expect.objectContaining({ via: `${c.fqdn(0)}:${c.fluxPort}`, ip: c.ip(0) })]);
  });

  test('a replaced rank 0 is ready once a follower\'s broker dials it, without any re-registration', async () => {
    // GIVEN a 3-pod cluster that came up; rank 0's pod is replaced by one with a new IP
    const c = await runningCluster({ size: 3 }, []);
    const rank0 = await c.startPod(0, { generation: 1, freshVolume: true });
    // WHEN rank 1's broker, which ran all along, re-resolved its parent and dials the new address,
    // redialing as libzmq does when a connection is closed
    await redialUntil(rank0, (l) => l.event === 'cluster-running', () => dialAsBroker(c.ip(1), c.ip(0, 1), c.fluxPort));
    // THEN the new rank 0 is ready and exits 0, though nobody registered with it
    expect(await rank0.exited).toBe(0);
    expect(rank0.file(HANDSHAKE_READY_FILE)).toBe('rank=0\n');
    expect(rank0.file(HANDSHAKE_HOSTS_FILE)).toBe(`${c.ip(0, 1)} ${c.fqdn(0)} flux-0\n`);
    expect(events(rank0, 'peers-registered')).toEqual([]);
    expect(events(rank0, 'cluster-running')).toEqual([expect.objectContaining({ via: `flux port ${c.fluxPort}`, from: c.ip(1) })]);
    // AND its Flux port is free again for the broker
    brokers.push(await FakeBrokerPort.listen(c.ip(0, 1), c.fluxPort));
  });

  test('a fresh start is never taken for a running cluster: the waiting rank 0 ignores what is not a stranger\'s broker', async () => {
    // GIVEN a fresh init-lifecycle cluster with the Service's Flux port, and only rank 0 started
    const c = await TestCluster.create({ size: 3, lifecycle: 'init' });
    cluster = c;
    fluxService = new ServiceProxy(c.proxy.vip, c.fluxPort);
    await fluxService.setEndpoint(c.ip(0));
    const rank0 = await c.startPod(0);
    // WHEN something that is not a broker connects to its Flux port (an HTTP health check, which probes again)
    await redialUntil(rank0, (l) => l.event === 'flux-port-ignored' && l.reason === 'no ZMTP greeting',
      () => dialAsBroker(c.ip(2), c.ip(0), c.fluxPort, Buffer.from('GET / HTTP/1.1\r\nHost: flux-0\r\n\r\n')));
    // AND a registered pod's broker dials it (a follower that joined before the others)
    const pod1 = await c.startPod(1);
    await pod1.waitFor((l) => l.event === 'directory' && l.outcome === 'ok');
    // (registered once rank 0 says so: pod 1's `directory ok` comes with rank 0's welcome, before
    // rank 0 has read the registration; a real broker starts only after rank 0's ready, later still)
    await rank0.waitFor((l) => l.event === 'peers-registered' && l.registered === 1);
    const early = await connectAsBroker(c.ip(1), c.ip(0), c.fluxPort);
    await rank0.waitFor((l) => l.event === 'flux-port-ignored' && l.reason === 'a registered pod\'s broker');
    // THEN that connection is held open, so the broker does not redial in a loop while rank 0 waits
    const held = await Promise.race([early.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 500))]);
    expect(held).toBe('open');
    // AND rank 0 still waits for pod 2, and everyone finishes the ordinary way once it comes
    const pod2 = await c.startPod(2);
    expect(await Promise.all([rank0, pod1, pod2].map((p) => p.exited))).toEqual([0, 0, 0]);
    // AND rank 0 closed the held connection when it finished, so the broker redials its real broker
    await early.closed;
    for (const p of [rank0, pod1, pod2]) expect(events(p, 'cluster-running')).toEqual([]);
    expect(events(rank0, 'flux-port-ignored')).toEqual([
      expect.objectContaining({ from: c.ip(2), reason: 'no ZMTP greeting' }),
      expect.objectContaining({ from: c.ip(1), reason: 'a registered pod\'s broker' }),
    ]);
    expect(events(rank0, 'peers-registered').at(-1)).toEqual(expect.objectContaining({ registered: 2, of: 2 }));
  });

  test('a parent whose broker never answers on the late path ends at the deadline with exit 81 and a clear message', async () => {
    // GIVEN a running kary:2 cluster where rank 0's broker answers but rank 1's (rank 3's parent) does not
    const c = await runningCluster({ size: 4, topology: 'kary:2' }, [0]);
    // WHEN rank 3 is replaced, with a 3 s deadline
    const replacement = await c.startPod(3, { generation: 1, freshVolume: true, extraArgs: ['--deadline-seconds=3'] });
    // THEN it exits 81 naming the parent, its address and why, in the log, the termination log and `failed`
    expect(await replacement.exited).toBe(81);
    const message = 'handshake deadline of 3s passed on flux-3 (rank 3): late join (rank 0\'s Flux broker answers: the cluster runs '
      + `and its handshakes have exited): TBON parent flux-1 (rank 1) never answered on its Flux port: ${c.ip(1)}:${c.fluxPort}: ECONNREFUSED`;
    expect(replacement.terminationMessage()).toBe(`exit 81: ${message}`);
    expect(events(replacement, 'failed')).toEqual([expect.objectContaining({ exitCode: 81, message })]);
    expect(replacement.file(HANDSHAKE_FAILED_FILE)).toContain('HANDSHAKE_EXIT_CODE=81\n');
    expect(replacement.file(HANDSHAKE_READY_FILE)).toBeUndefined();
    // AND the retries logged the reason once, not once per attempt
    expect(events(replacement, 'late-parent')).toEqual([
      expect.objectContaining({ outcome: 'retrying', parent: 1, reason: `${c.ip(1)}:${c.fluxPort}: ECONNREFUSED` }),
    ]);
  });
});

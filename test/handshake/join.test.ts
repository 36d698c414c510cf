import * as fs from 'fs';
import * as net from 'net';
import { HANDSHAKE_HOSTS_FILE, HANDSHAKE_PARENT_FILE, HANDSHAKE_READY_FILE } from '../../lib/core/handshake-contract';
import { authenticateToServer } from '../../lib/runtime/handshake/channel';
import { deriveKeys } from '../../lib/runtime/handshake/keys';
import { Pod, TestCluster, programSuite } from './support/cluster';

function hostsLine(c: TestCluster, i: number, generation = 0): string {
  return `${c.ip(i, generation)} ${c.fqdn(i)} ${c.name}-${i}\n`;
}

function parentIp(pod: Pod): string | undefined {
  return /^FLUX_PARENT_IP=(.*)$/m.exec(pod.file(HANDSHAKE_PARENT_FILE) ?? '')?.[1];
}

/** Waits until `pod` logged `event` at least `count` times. */
async function nth(pod: Pod, event: string, count: number): Promise<void> {
  let seen = 0;
  await pod.waitFor((l) => l.event === event && ++seen >= count);
}

programSuite('handshake joins a cluster', () => {
  let cluster: TestCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('all peers early: every rank writes its parent, hosts and ready', async () => {
    // GIVEN a 4-pod cluster with a 2-ary tree (rank 1 is interior: parent of rank 3)
    cluster = await TestCluster.create({ size: 4, topology: 'kary:2' });
    // WHEN every pod starts at once
    const pods = await cluster.startAll();
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    // THEN each rank's parent file names its TBON parent's current IP and the Flux port
    expect(pods[0].file(HANDSHAKE_PARENT_FILE)).toBeUndefined();
    for (const [child, parent] of [[1, 0], [2, 0], [3, 1]]) {
      expect(pods[child].file(HANDSHAKE_PARENT_FILE)).toBe([
        `FLUX_PARENT_RANK=${parent}`,
        `FLUX_PARENT_HOST=flux-${parent}`,
        `FLUX_PARENT_FQDN=${cluster.fqdn(parent)}`,
        `FLUX_PARENT_IP=${cluster.ip(parent)}`,
        `FLUX_PARENT_PORT=${cluster.fluxPort}`,
        `FLUX_PARENT_URI=tcp://${cluster.ip(parent)}:${cluster.fluxPort}`,
        '',
      ].join('\n'));
      expect(pods[child].file(HANDSHAKE_READY_FILE)).toBe(`rank=${child}\n`);
    }
    // AND rank 0's hosts file lists every pod as `IP FQDN short`, a leaf's itself, rank 0 and its parent
    expect(pods[0].file(HANDSHAKE_HOSTS_FILE)).toBe([0, 1, 2, 3].map((i) => hostsLine(cluster!, i)).join(''));
    expect(pods[3].file(HANDSHAKE_HOSTS_FILE)).toBe([0, 1, 3].map((i) => hostsLine(cluster!, i)).join(''));
    // AND the sidecars keep running after ready, and log one line per state change, not per poll
    expect(pods.every((p) => p.proc.exitCode === null)).toBe(true);
    expect(pods[0].lines.filter((l) => l.event === 'ready')).toHaveLength(1);
  });

  test('peers late: workers wait for rank 0 through the rendezvous Service despite 30 s negative caching', async () => {
    // GIVEN a resolver that caches NXDOMAIN for 30 s, and workers that start long before rank 0
    cluster = await TestCluster.create({ size: 3, cacheSeconds: 30 });
    const workers = [await cluster.startPod(1), await cluster.startPod(2)];
    // WHEN they have found the rendezvous Service closed (no endpoint yet) and rank 0 starts last
    await Promise.all(workers.map((w) => w.waitFor((l) => l.event === 'directory' && l.outcome === 'retrying')));
    const rank0 = await cluster.startPod(0);
    // THEN all become ready, and no lookup ever got NXDOMAIN (the Service name exists from t=0)
    await Promise.all([rank0, ...workers].map((p) => p.waitForEvent('ready')));
    expect(workers.map(parentIp)).toEqual([cluster.ip(0), cluster.ip(0)]);
    expect(cluster.dns.nxdomains).toBe(0);
    // AND a retrying worker logged each change of reason once, not once per attempt
    const retries = workers[0].lines.filter((l) => l.event === 'directory').map((l) => `${l.outcome} ${l.reason}`);
    expect(retries[0]).toMatch(/^retrying .*ECONNREFUSED$/);
    expect(retries.filter((r, i) => i > 0 && r === retries[i - 1])).toEqual([]);
    expect(retries[retries.length - 1]).toBe('ok undefined');
  });

  test('dns mode (Kubernetes 1.27 path): rank 0 found by its per-pod name after a cached NXDOMAIN expires', async () => {
    // GIVEN DNS mode and a resolver that caches NXDOMAIN for 2 s
    cluster = await TestCluster.create({ size: 3, mode: 'dns', cacheSeconds: 2 });
    const workers = [await cluster.startPod(1), await cluster.startPod(2)];
    // WHEN the workers query rank 0's name before it exists, and rank 0 starts afterwards
    await Promise.all(workers.map((w) => w.waitFor((l) => l.event === 'directory' && String(l.reason).includes('ENOTFOUND'))));
    const rank0 = await cluster.startPod(0);
    // THEN everyone becomes ready once the negative answer expires
    await Promise.all([rank0, ...workers].map((p) => p.waitForEvent('ready')));
    expect(workers.map(parentIp)).toEqual([cluster.ip(0), cluster.ip(0)]);
    expect(cluster.dns.nxdomains).toBeGreaterThan(0);
    expect(cluster.dns.queries.get(cluster.fqdn(0))).toBeGreaterThan(0);
  });

  test('a restarted interior rank with a new address: its child rewrites its parent file', async () => {
    // GIVEN a ready kary:2 cluster where rank 1 is the parent of rank 3
    cluster = await TestCluster.create({ size: 4, topology: 'kary:2' });
    const pods = await cluster.startAll();
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    expect(parentIp(pods[3])).toBe(cluster.ip(1));
    // WHEN rank 1's pod is replaced by one with a new IP (same hostname, as the Job controller does)
    await pods[1].kill();
    const replacement = await cluster.startPod(1, { generation: 1 });
    // THEN the replacement rejoins without manual action, and rank 3 rewrites parent.env and hosts
    await replacement.waitForEvent('ready');
    await nth(pods[3], 'parent-verified', 2);
    expect(parentIp(pods[3])).toBe(cluster.ip(1, 1));
    expect(pods[3].file(HANDSHAKE_HOSTS_FILE)).toContain(hostsLine(cluster, 1, 1));
    expect(pods[3].file(HANDSHAKE_HOSTS_FILE)).not.toContain(cluster.ip(1, 0) + ' ');
  });

  test('a restarted rank 0 with a new address: workers re-register and rewrite their parent file', async () => {
    // GIVEN a ready 3-pod cluster
    cluster = await TestCluster.create({ size: 3 });
    const pods = await cluster.startAll();
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    // WHEN rank 0 is replaced: the Service endpoint moves to the new pod's IP
    await pods[0].kill();
    await cluster.proxy.setEndpoint(undefined);
    const rank0 = await cluster.startPod(0, { generation: 1 });
    // THEN the new rank 0 becomes ready again because the workers rejoined on their own
    await rank0.waitForEvent('ready');
    await Promise.all([pods[1], pods[2]].map((p) => nth(p, 'parent-verified', 2)));
    expect([pods[1], pods[2]].map(parentIp)).toEqual([cluster.ip(0, 1), cluster.ip(0, 1)]);
    expect(rank0.file(HANDSHAKE_HOSTS_FILE)).toBe([[0, 1], [1, 0], [2, 0]].map(([i, g]) => hostsLine(cluster!, i, g)).join(''));
  });

  test('a frozen rank 0 (no FIN, no answers) is noticed by the heartbeat, and rejoined when it thaws', async () => {
    // GIVEN a ready pair
    cluster = await TestCluster.create({ size: 2 });
    const pods = await cluster.startAll();
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    // WHEN rank 0 stops answering without closing its connections (like a node that vanished)
    pods[0].proc.kill('SIGSTOP');
    try {
      // THEN the worker drops the silent directory session (35 s heartbeat timeout)
      await pods[1].waitForEvent('directory-lost');
    } finally {
      pods[0].proc.kill('SIGCONT');
    }
    // AND re-registers once rank 0 answers again
    let okSeen = 0;
    await pods[1].waitFor((l) => l.event === 'directory' && l.outcome === 'ok' && ++okSeen >= 2);
    expect(parentIp(pods[1])).toBe(cluster.ip(0));
  });

  test('init-container lifecycle: every pod exits 0 once it and its children are done', async () => {
    // GIVEN init-container mode on a kary:2 tree of 5
    cluster = await TestCluster.create({ size: 5, topology: 'kary:2', lifecycle: 'init' });
    // WHEN all pods start
    const pods = await cluster.startAll();
    // THEN all exit 0 with their files written
    expect(await Promise.all(pods.map((p) => p.exited))).toEqual([0, 0, 0, 0, 0]);
    expect(pods.map((p) => p.file(HANDSHAKE_READY_FILE))).toEqual([0, 1, 2, 3, 4].map((i) => `rank=${i}\n`));
    expect(parentIp(pods[4])).toBe(cluster.ip(1));
  });

  test('init lifecycle: a parent verified by its child while rank 0 is gone exits only after reporting that join to a rank 0', async () => {
    // GIVEN an init-lifecycle kary:2 cluster of 4 (rank 1 is rank 3's parent) where ranks 0-2 run
    cluster = await TestCluster.create({ size: 4, topology: 'kary:2', lifecycle: 'init' });
    const pods = [await cluster.startPod(0), await cluster.startPod(1), await cluster.startPod(2)];
    await pods[1].waitForEvent('parent-verified');
    // WHEN rank 0 goes away, and then rank 3 verifies rank 1 (with the key, as its handshake does)
    await pods[0].kill();
    await cluster.proxy.setEndpoint(undefined);
    await pods[1].waitForEvent('directory-lost');
    const socket = net.connect({ host: cluster.ip(1), port: cluster.port });
    await new Promise((r) => socket.once('connect', r));
    const { channel } = await authenticateToServer(socket, deriveKeys(fs.readFileSync(cluster.certPath)), 3, { t: 'child', rank: 3, epoch: 1 });
    expect((await channel.next(5000)).t).toBe('ack');
    channel.close();
    // THEN rank 1 is not ready and keeps running: the join it would report has reached no rank 0
    await pods[1].waitForEvent('child-connected');
    await new Promise((r) => setTimeout(r, 300));
    expect([pods[1].file(HANDSHAKE_READY_FILE), pods[1].proc.exitCode]).toEqual([undefined, null]);
    // AND once a new rank 0 is up, rank 1 re-registers, reports, and only then is ready and exits 0
    await cluster.startPod(0, { generation: 1 });
    expect(await pods[1].exited).toBe(0);
    const order = pods[1].lines.map((l) => (l.event === 'directory' ? `directory ${l.outcome}` : l.event));
    expect(order.lastIndexOf('directory ok')).toBeGreaterThan(order.indexOf('directory-lost'));
    expect(order.indexOf('ready')).toBeGreaterThan(order.lastIndexOf('directory ok'));
  });

  test('a flapping rendezvous name does not stop the handshake', async () => {
    // GIVEN the rendezvous Service name flaps in DNS every 300 ms (no cache)
    cluster = await TestCluster.create({ size: 3 });
    cluster.dns.unpublish(cluster.rendezvousHost);
    const stopFlap = cluster.dns.flap(cluster.rendezvousHost, cluster.proxy.vip, 300);
    try {
      // WHEN the pods start
      const pods = await cluster.startAll();
      // THEN they all complete
      await Promise.all(pods.map((p) => p.waitForEvent('ready')));
      expect(pods.slice(1).map(parentIp)).toEqual([cluster.ip(0), cluster.ip(0)]);
    } finally {
      stopFlap();
    }
  });

  test('quorum below size: rank 0 is ready without the ranks beyond the quorum', async () => {
    // GIVEN size 4 with quorum 2
    cluster = await TestCluster.create({ size: 4, quorum: 2 });
    // WHEN only ranks 0 and 1 start
    const pods = [await cluster.startPod(0), await cluster.startPod(1)];
    // THEN both are ready
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    expect(parentIp(pods[1])).toBe(cluster.ip(0));
  });
});

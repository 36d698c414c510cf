import { HANDSHAKE_HOSTS_FILE, HANDSHAKE_PARENT_FILE, HANDSHAKE_READY_FILE } from '../../lib/core/handshake-contract';
import { TestCluster, programBuilt } from './support/cluster';

const suite = programBuilt ? describe : describe.skip;
if (!programBuilt) console.warn('build/runtime/handshake.js is missing: run `npm run build` (npm test does)');

suite('handshake joins a cluster', () => {
  let cluster: TestCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('all peers early: every rank writes its parent, hosts and ready', async () => {
    // GIVEN a 4-pod cluster with a 2-ary tree (rank 1 is interior: parent of ranks 3)
    cluster = await TestCluster.create({ size: 4, topology: 'kary:2' });
    // WHEN every pod starts at once
    const pods = await cluster.startAll();
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    // THEN each rank's parent file names its TBON parent's current IP and the Flux port
    expect(pods[0].file(HANDSHAKE_PARENT_FILE)).toBeUndefined();
    const parents: [number, number][] = [[1, 0], [2, 0], [3, 1]];
    for (const [child, parent] of parents) {
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
    // AND rank 0's hosts file lists every pod as `IP FQDN short`
    expect(pods[0].file(HANDSHAKE_HOSTS_FILE)).toBe([0, 1, 2, 3].map((i) => `${cluster!.ip(i)} ${cluster!.fqdn(i)} flux-${i}\n`).join(''));
    // AND a leaf's hosts file holds itself, rank 0 and its parent
    expect(pods[3].file(HANDSHAKE_HOSTS_FILE)).toBe([0, 1, 3].map((i) => `${cluster!.ip(i)} ${cluster!.fqdn(i)} flux-${i}\n`).join(''));
    // AND sidecars keep running after ready
    expect(pods.every((p) => p.proc.exitCode === null)).toBe(true);
  });
});

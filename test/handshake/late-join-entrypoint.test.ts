import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'smol-toml';
import { HANDSHAKE_READY_FILE } from '../../lib/core/handshake-contract';
import { renderScripts } from '../../lib/scripts/render';
import { BLOCK_UNTIL_TERM, Sandbox, sampleModel } from '../scripts/harness';
import { TestCluster, programSuite } from './support/cluster';
import { FakeBrokerPort } from './support/flux-broker';

/** getent(1) for `getent ahostsv4 NAME`, answered by the test cluster's DNS server (the pod's resolver). */
function writeFakeGetent(bin: string, dnsServer: string): void {
  fs.writeFileSync(path.join(bin, 'getent.js'), `const r = new (require('dns').promises.Resolver)();
r.setServers([${JSON.stringify(dnsServer)}]);
r.resolve4(process.argv[2]).then((a) => console.log(a[0] + ' ' + process.argv[2]), () => process.exit(2));
`);
  fs.writeFileSync(path.join(bin, 'getent'), `#!/bin/bash\n[ "$1" = ahostsv4 ] || exit 1\nexec '${process.execPath}' '${bin}/getent.js' "$2"\n`, { mode: 0o755 });
}

/**
 * FAKE_FLUX_ON_START of a worker broker: the first one runs until stopped; a later one dials the
 * parent address of its broker.toml until it connects, writes the ZMTP signature as libzmq does,
 * and exits 0.
 */
const BROKER = `if [ "$s" = 1 ]; then ${BLOCK_UNTIL_TERM}; fi
uri=$(grep -o 'connect = "tcp://[0-9.]*:[0-9]*"' "$calls/$n.broker.toml"); uri=\${uri#*//}; uri=\${uri%\\"}
for _ in $(seq 600); do
  if (exec 3<>"/dev/tcp/\${uri%:*}/\${uri#*:}" && printf '\\377\\0\\0\\0\\0\\0\\0\\0\\045\\177' >&3 && sleep 0.2) 2>/dev/null; then break; fi
  sleep 0.1
done`;

programSuite('init lifecycle end to end: a replaced rank 0 and the workers\' entrypoints find each other', () => {
  let cluster: TestCluster | undefined;
  let sandbox: Sandbox | undefined;
  let worker: ReturnType<Sandbox['start']> | undefined;
  let oldBroker: FakeBrokerPort | undefined;
  afterEach(async () => {
    await oldBroker?.close();
    oldBroker = undefined;
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGKILL');
      await worker.done;
    }
    worker = undefined;
    await cluster?.stop();
    sandbox?.remove();
    cluster = sandbox = undefined;
  });

  test('rank 0 replaced with a new IP: the worker re-resolves it, restarts its broker there, and that dial makes rank 0 ready', async () => {
    // GIVEN a 2-pod init-lifecycle cluster that came up, and rank 1's entrypoint running its broker
    const c = await TestCluster.create({ size: 2, name: 'flux-sample', lifecycle: 'init' });
    cluster = c;
    const pods = await c.startAll();
    expect(await Promise.all(pods.map((p) => p.exited))).toEqual([0, 0]);
    oldBroker = await FakeBrokerPort.listen(c.ip(0), c.fluxPort);
    const sb = new Sandbox();
    sandbox = sb;
    writeFakeGetent(sb.bin, c.dns.address);
    const scripts = renderScripts(sampleModel(sb, { maxSize: 2, handshake: { dir: pods[1].outDir, resolveParent: true } }));
    expect(sb.runInit(scripts).status).toBe(0);
    const w = sb.start('entrypoint.sh', scripts['entrypoint.sh'], {
      hostname: 'flux-sample-1', onStart: BROKER, env: { HANDSHAKE_PARENT_WATCH_SECONDS: '1' },
    });
    worker = w;
    await sb.waitForCallFile('blocking', w.child);
    // WHEN rank 0's pod is replaced: the old one is gone, the new one has a new IP and a fresh volume
    await oldBroker.close();
    oldBroker = undefined;
    const rank0 = await c.startPod(0, { generation: 1, freshVolume: true });
    // THEN the new rank 0 becomes ready and exits 0, because the worker's restarted broker dialed it
    expect(await rank0.exited).toBe(0);
    expect(rank0.file(HANDSHAKE_READY_FILE)).toBe('rank=0\n');
    expect(rank0.lines.filter((l) => l.event === 'cluster-running')).toEqual([expect.objectContaining({ via: `flux port ${c.fluxPort}` })]);
    // AND the worker's second broker was given the new address
    const result = await w.done;
    expect(result.status).toBe(0);
    const connects = sb.brokerCalls().map((call) => {
      const hosts = (parse(call.brokerToml!) as { bootstrap: { hosts: { connect?: string }[] } }).bootstrap.hosts;
      return hosts.find((h) => h.connect !== undefined)!.connect;
    });
    expect(connects).toEqual([`tcp://${c.ip(0)}:${c.fluxPort}`, `tcp://${c.ip(0, 1)}:${c.fluxPort}`]);
    expect(result.stdout).toContain(`the TBON parent ${c.fqdn(0)} moved from ${c.ip(0)} to ${c.ip(0, 1)}`);
  });
});

/** The NetworkPolicy probe of the e2e suite (e2e/kube/isolation.ts), run with bash against real sockets on loopback. */
import { spawnSync } from 'child_process';
import * as net from 'net';
import { parseProbe, probeScript } from '../e2e/kube/isolation';

function listen(): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer((s) => s.end());
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

describe('the isolation probe', () => {
  test('GIVEN one port that listens and one that does not WHEN probed THEN open and refused', async () => {
    const open = await listen();
    const closed = await listen();
    const openPort = (open.address() as net.AddressInfo).port;
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    try {
      const targets = [`127.0.0.1:${openPort}`, `127.0.0.1:${closedPort}`];
      const r = spawnSync('bash', ['-c', probeScript(targets)], { encoding: 'utf8', timeout: 20000 });
      expect(r.status).toBe(0);
      expect(parseProbe(r.stdout)).toEqual(new Map([[targets[0], 'open'], [targets[1], 'refused']]));
    } finally {
      open.close();
    }
  });

  test('parseProbe keeps only verdict lines', () => {
    expect(parseProbe('noise\n10.0.0.1:8050 timeout\n10.0.0.1:8060 open\nbad line x\n')).toEqual(new Map([['10.0.0.1:8050', 'timeout'], ['10.0.0.1:8060', 'open']]));
  });
});

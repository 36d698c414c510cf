/** The NetworkPolicy probe of the e2e suite (e2e/kube/isolation.ts), run with bash against real sockets on loopback. */
import { spawnSync } from 'child_process';
import * as net from 'net';
import * as path from 'path';
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

describe('objects given to the client library (e2e/kube/target.ts forClientLibrary)', () => {
  const policy = {
    apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'p', namespace: 'hpc' },
    spec: { podSelector: { matchLabels: { a: 'b' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: { matchLabels: { a: 'b' } } }], ports: [{ port: 8050 }] }, {}] },
  };

  test('GIVEN a NetworkPolicy WHEN the real client library creates it THEN the API server receives its ingress peers (a plain `from` is dropped)', () => {
    // The library is an ES module: a child node process drives it against a local server that records the body.
    const script = `
      import * as http from 'http';
      import { createRequire } from 'module';
      import * as k8s from '@kubernetes/client-node';
      const { forClientLibrary } = createRequire(process.cwd() + '/')('./build/e2e/kube/target.js');
      const bodies = [];
      const server = http.createServer((req, res) => { let b = ''; req.on('data', (d) => (b += d)); req.on('end', () => { bodies.push(JSON.parse(b)); res.setHeader('content-type', 'application/json'); res.end(b); }); });
      server.listen(0, '127.0.0.1', async () => {
        const kc = new k8s.KubeConfig();
        kc.loadFromOptions({ clusters: [{ name: 'c', server: 'http://127.0.0.1:' + server.address().port, skipTLSVerify: true }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
        const api = k8s.KubernetesObjectApi.makeApiClient(kc);
        api.specUriPath = async () => '/apis/networking.k8s.io/v1/namespaces/hpc/networkpolicies';
        const policy = ${JSON.stringify(policy)};
        await api.create(policy);
        await api.create(forClientLibrary(policy));
        console.log(JSON.stringify(bodies.map((b) => b.spec.ingress)));
        server.close();
      });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(__dirname, '..'), encoding: 'utf8', timeout: 60000 });
    expect(r.stderr).toBe('');
    const [plain, mapped] = JSON.parse(r.stdout);
    expect(plain).toEqual([{ ports: [{ port: 8050 }] }, {}]);
    expect(mapped).toEqual(policy.spec.ingress);
  });
});

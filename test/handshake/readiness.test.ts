/**
 * The Flux runner's readiness, served by the handshake sidecar over HTTP (readiness.ts): the real
 * program as a process on loopback, probed with real HTTP requests, judged from this machine's real
 * /proc/net/tcp with real TCP connections, as the kubelet's httpGet probe does it in a pod.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as path from 'path';
import { HANDSHAKE_EXIT_BIND_PORT, HandshakeLifecycle, READY_PATH } from '../../lib/core/handshake-contract';
import { parseConfig } from '../../lib/runtime/handshake/config';
import { readiness } from '../../lib/runtime/handshake/readiness';
import { FakeBrokerPort } from './support/flux-broker';
import { TestCluster, programSuite } from './support/cluster';

function get(ip: string, port: number, urlPath = READY_PATH): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: ip, port, path: urlPath, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

async function connect(ip: string, port: number, from: string): Promise<net.Socket> {
  const s = net.connect({ host: ip, port, localAddress: from });
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  return s;
}

programSuite('the runner\'s readiness, answered by the handshake sidecar', () => {
  let cluster: TestCluster | undefined;
  const open: Array<{ destroy(): void }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) o.destroy();
    await cluster?.stop();
    cluster = undefined;
  });

  test('a worker is Ready only while it holds a connection to the Flux port; the lead with its socket and every child', async () => {
    // GIVEN a 3-pod cluster whose sidecars serve readiness (the lead needs its 2 children)
    cluster = await TestCluster.create({ size: 3 });
    const readyPort = cluster.port + 2;
    const socket = path.join(cluster.dir, 'run', 'local');
    const extra = [`--ready-port=${readyPort}`, '--ready-lead-children=2', `--ready-socket=${socket}`];
    const pods = await Promise.all([0, 1, 2].map((i) => cluster!.startPod(i, { extraArgs: extra })));
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    // WHEN no broker runs yet
    // THEN nobody is Ready, each saying why
    expect(await get(pods[1].ip, readyPort)).toEqual({ status: 503, body: 'not connected to the TBON parent\n' });
    expect(await get(pods[0].ip, readyPort)).toEqual({ status: 503, body: 'the broker is not up (no local socket)\n' });
    // WHEN the lead's broker is up (its Flux port and local socket) and worker 1 connects to it
    const broker = await FakeBrokerPort.listen(pods[0].ip, cluster.fluxPort);
    open.push({ destroy: () => void broker.close() });
    fs.mkdirSync(path.dirname(socket), { recursive: true });
    const local = net.createServer();
    await new Promise<void>((resolve) => local.listen(socket, resolve));
    open.push({ destroy: () => local.close() });
    const first = await connect(pods[0].ip, cluster.fluxPort, pods[1].ip);
    open.push(first);
    // THEN worker 1 is Ready and the lead counts one child of two (the pods here share one network
    // namespace, so each sees every connection: worker 2 would count worker 1's)
    expect((await get(pods[1].ip, readyPort)).status).toBe(200);
    expect(await get(pods[0].ip, readyPort)).toEqual({ status: 503, body: '1 of 2 TBON children connected\n' });
    // WHEN worker 1's connection closes THEN it is not Ready again
    first.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await get(pods[1].ip, readyPort)).status).toBe(503);
    // WHEN both workers connect THEN the lead is Ready
    open.push(await connect(pods[0].ip, cluster.fluxPort, pods[1].ip), await connect(pods[0].ip, cluster.fluxPort, pods[2].ip));
    expect(await get(pods[0].ip, readyPort)).toEqual({ status: 200, body: '2 TBON connection(s)\n' });
    // AND anything but GET of the path is not found
    expect((await get(pods[1].ip, readyPort, '/')).status).toBe(404);
  });

  test('a readiness port already taken fails the handshake with the bind exit code, naming the port', async () => {
    // GIVEN a pod whose readiness port something else holds
    cluster = await TestCluster.create({ size: 1 });
    const readyPort = cluster.port + 2;
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(readyPort, cluster!.ip(0), resolve));
    open.push({ destroy: () => holder.close() });
    // WHEN it starts
    const pod = await cluster.startPod(0, { extraArgs: [`--ready-port=${readyPort}`, '--ready-lead-children=0', `--ready-socket=${cluster.dir}/local`] });
    // THEN it fails at once with 85, as for its own port, and the message names the readiness port
    expect(await pod.exited).toBe(HANDSHAKE_EXIT_BIND_PORT);
    expect(fs.readFileSync(pod.terminationLog, 'utf8')).toContain(`cannot listen on the readiness port ${cluster.ip(0)}:${readyPort}: EADDRINUSE`);
  });
});

describe('the readiness rule', () => {
  const table = (...rows: Array<[string, string, string]>): string =>
    ['  sl  local_address rem_address   st', ...rows.map(([l, r, st], i) => `   ${i}: ${l} ${r} ${st} 00000000:00000000`)].join('\n');
  const sources = (socket: boolean, ...rows: Array<[string, string, string]>) => ({ tables: () => [() => table(...rows), () => ''], socketExists: () => socket });

  test('reads ports as /proc/net/tcp prints them (4 uppercase hex digits): 8050 is 1F72; only ESTABLISHED (01) counts', () => {
    const worker = { rank: 2, fluxPort: 8050, leadChildren: 0, localSocket: '/s' };
    expect(readiness(worker, sources(false, ['0100000A:9C40', '0200000A:1F72', '01'])).ready).toBe(true);
    expect(readiness(worker, sources(false, ['0100000A:9C40', '0200000A:1F72', '06'])).ready).toBe(false);
    expect(readiness(worker, sources(false, ['0100000A:9C40', '0200000A:1F73', '01'])).ready).toBe(false);
    expect(readiness({ ...worker, fluxPort: 80 }, sources(false, ['0100000A:9C40', '0200000A:0050', '01'])).ready).toBe(true);
  });

  test('tcp6 is read only when tcp was not enough', () => {
    const reads: string[] = [];
    const tables = (tcp: string) => () => [() => (reads.push('tcp'), tcp), () => (reads.push('tcp6'), table(['0100000A:1F72', '0200000A:C000', '01']))];
    const lead = { rank: 0, fluxPort: 8050, leadChildren: 1, localSocket: '/s' };
    expect(readiness(lead, { tables: tables(table(['0100000A:1F72', '0200000A:C001', '01'])), socketExists: () => true }).ready).toBe(true);
    expect(reads).toEqual(['tcp']);
    expect(readiness({ ...lead, leadChildren: 2 }, { tables: tables(table(['0100000A:1F72', '0200000A:C001', '01'])), socketExists: () => true }).ready).toBe(true);
    expect(reads).toEqual(['tcp', 'tcp', 'tcp6']);
  });

  test('the lead: a size-1 cluster is Ready on its socket alone; its listening socket is no child', () => {
    const lead = { rank: 0, fluxPort: 8050, leadChildren: 0, localSocket: '/s' };
    expect(readiness(lead, sources(true)).ready).toBe(true);
    expect(readiness(lead, sources(false)).ready).toBe(false);
    const withChild = { ...lead, leadChildren: 1 };
    expect(readiness(withChild, sources(true, ['00000000:1F72', '00000000:0000', '0A'])).reason).toBe('0 of 1 TBON children connected');
    expect(readiness(withChild, sources(true, ['0100000A:1F72', '0200000A:C000', '01'])).ready).toBe(true);
  });
});

describe('readiness options of the program', () => {
  const base = ['--name=flux', '--service=flux', '--namespace=ns', '--size=2', '--index=0', '--pod-ip=10.0.0.1'];

  test('parsed together; the init lifecycle, a clashing port or a lone option are refused, all at once', () => {
    expect(parseConfig([...base, '--ready-port=8061', '--ready-lead-children=1', '--ready-socket=/mnt/flux/local'], {}).config?.readiness)
      .toEqual({ port: 8061, leadChildren: 1, localSocket: '/mnt/flux/local' });
    expect(parseConfig(base, {}).config?.readiness).toBeUndefined();
    const { errors } = parseConfig([...base, `--lifecycle=${HandshakeLifecycle.INIT}`, '--ready-port=8060', '--ready-lead-children=1', '--ready-socket=local'], {});
    expect(errors).toEqual([
      '--ready-port (env HANDSHAKE_READY_PORT): 8060 must differ from --port and --flux-port',
      "--ready-socket (env HANDSHAKE_READY_SOCKET): 'local' must be an absolute path",
      '--ready-port (env HANDSHAKE_READY_PORT): needs --lifecycle=sidecar (an init container is gone before the broker starts)',
    ]);
    expect(parseConfig([...base, '--ready-lead-children=1'], {}).errors).toEqual(['--ready-lead-children (env HANDSHAKE_READY_LEAD_CHILDREN): needs --ready-port']);
  });
});

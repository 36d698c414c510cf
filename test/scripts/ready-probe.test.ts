/**
 * The readiness probe script (flux-ready.sh), run as a real `sh` process against real TCP sockets
 * of this machine's network namespace (/proc/net/tcp): a worker is Ready only while it holds an
 * established connection to the Flux port, the lead only with its local socket and every TBON child
 * the quorum needs connected.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { renderReadiness } from '../../lib/scripts/render';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ready-probe-'));
const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A listening "Flux port" on 127.0.0.1 (a free port, so no other test's sockets count). */
async function fluxPort(): Promise<{ port: number; accepted: net.Socket[] }> {
  const accepted: net.Socket[] = [];
  const server = net.createServer((s) => {
    accepted.push(s);
    sockets.push(s);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, accepted };
}

async function connectTo(port: number): Promise<net.Socket> {
  const s = net.connect(port, '127.0.0.1');
  sockets.push(s);
  await new Promise<void>((resolve) => s.on('connect', resolve));
  return s;
}

/** Renders the script for `port` and runs it as rank `rank` (by its hostname); returns the exit code. */
function probe(port: number, rank: number, leadChildren: number, mountPath: string): number | null {
  const script = path.join(dir, `flux-ready-${port}.sh`);
  fs.writeFileSync(script, renderReadiness({ clusterName: 'flux-sample', mountPath }, { fluxPort: port, leadChildren }));
  const hostname = path.join(dir, `hostname-${rank}`);
  fs.writeFileSync(hostname, `flux-sample-${rank}\n`);
  const r = spawnSync('/bin/sh', [script], { env: { PATH: process.env.PATH, FLUX_READY_HOSTNAME_FILE: hostname }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.status;
}

describe('flux-ready.sh', () => {
  test('renders the port as /proc/net/tcp prints it (4 uppercase hex digits) and the lead socket path', () => {
    const text = renderReadiness({ clusterName: 'flux-sample', mountPath: '/mnt/flux' }, { fluxPort: 8050, leadChildren: 3 });
    expect(text).toContain("port_hex='1F72'");
    expect(text).toContain("lead_children='3'");
    expect(text).toContain("local_socket='/mnt/flux/config/run/flux/local'");
    expect(renderReadiness({ clusterName: 'x', mountPath: '/m' }, { fluxPort: 80, leadChildren: 0 })).toContain("port_hex='0050'");
  });

  test('a worker: not Ready until it holds an established connection to the Flux port, and not after it closed', async () => {
    const { port } = await fluxPort();
    expect(probe(port, 3, 1, dir)).toBe(1);
    const connection = await connectTo(port);
    expect(probe(port, 3, 1, dir)).toBe(0);
    connection.destroy();
    await new Promise<void>((resolve) => connection.on('close', () => resolve()));
    // the local end is in TIME_WAIT or gone: not established
    expect(probe(port, 3, 1, dir)).toBe(1);
  });

  test('the lead: Ready once its local socket exists and every TBON child of the quorum has connected', async () => {
    const { port, accepted } = await fluxPort();
    const mountPath = path.join(dir, 'lead');
    const runDir = path.join(mountPath, 'config', 'run', 'flux');
    fs.mkdirSync(runDir, { recursive: true });
    // Two children connected, but no broker socket yet
    await connectTo(port);
    await connectTo(port);
    expect(probe(port, 0, 2, mountPath)).toBe(1);
    // The broker's local socket
    const local = net.createServer();
    servers.push(local);
    await new Promise<void>((resolve) => local.listen(path.join(runDir, 'local'), resolve));
    expect(probe(port, 0, 2, mountPath)).toBe(0);
    // A quorum that needs a third child
    expect(probe(port, 0, 3, mountPath)).toBe(1);
    await connectTo(port);
    expect(probe(port, 0, 3, mountPath)).toBe(0);
    expect(accepted.length).toBe(3);
    // A size-1 cluster: the socket alone
    expect(probe(port, 0, 0, mountPath)).toBe(0);
  });

  test('a hostname that names no rank falls back to JOB_COMPLETION_INDEX; neither: not Ready', async () => {
    const { port } = await fluxPort();
    await connectTo(port);
    const script = path.join(dir, 'flux-ready-fallback.sh');
    fs.writeFileSync(script, renderReadiness({ clusterName: 'flux-sample', mountPath: dir }, { fluxPort: port, leadChildren: 1 }));
    const hostname = path.join(dir, 'hostname-other');
    fs.writeFileSync(hostname, 'somewhere-else\n');
    const run = (env: Record<string, string>) => spawnSync('/bin/sh', [script], { env: { PATH: process.env.PATH, FLUX_READY_HOSTNAME_FILE: hostname, ...env } }).status;
    expect(run({ JOB_COMPLETION_INDEX: '2' })).toBe(0);
    expect(run({})).toBe(1);
  });
});

/**
 * Cost of the readiness probe script (flux-ready.sh, docs/day2.md): CPU time (user + system, of the
 * `sh` and everything it runs) per check, for a worker and for leads with 3 and 256 TBON children,
 * each connection a real TCP connection. Run in a network namespace of its own, as in a pod, so
 * the machine's other sockets do not count:
 *
 *   npm run bench:ready-probe
 *
 * What it leaves out: the container runtime's cost of starting an exec probe (kubelet -> CRI ->
 * runc exec), which does not depend on the script and is not measurable without a kubelet.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { renderReadiness } from '../lib/scripts/render';

const CHECKS = 1000;
const PERIOD_SECONDS = 5;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ready-'));
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const mountPath = path.join(dir, 'mnt');
  fs.mkdirSync(path.join(mountPath, 'config', 'run', 'flux'), { recursive: true });
  const local = net.createServer();
  await new Promise<void>((resolve) => local.listen(path.join(mountPath, 'config', 'run', 'flux', 'local'), resolve));
  const sockets: net.Socket[] = [];
  const connect = async (n: number): Promise<void> => {
    while (sockets.length < n) {
      const s = net.connect(port, '127.0.0.1');
      sockets.push(s);
      await new Promise<void>((resolve) => s.on('connect', resolve));
    }
  };
  console.log(`flux-ready.sh: CPU time per check, ${CHECKS} checks each (/bin/sh -> ${fs.realpathSync('/bin/sh')}), ${os.cpus()[0].model}`);
  console.log('| rank | established connections on the Flux port | exit | CPU ms per check | share of a core at a 5 s period |');
  console.log('|---|---|---|---|---|');
  for (const [what, rank, children] of [['worker', 1, 1], ['lead', 0, 3], ['lead', 0, 256]] as const) {
    await connect(children);
    const script = path.join(dir, `ready-${rank}-${children}.sh`);
    fs.writeFileSync(script, renderReadiness({ clusterName: 'bench', mountPath }, { fluxPort: port, leadChildren: children }));
    fs.writeFileSync(path.join(dir, 'hostname'), `bench-${rank}\n`);
    // bash's `times` prints the CPU time of its children: the checks only.
    const r = spawnSync('bash', ['-c', `for ((i = 0; i < ${CHECKS}; i++)); do /bin/sh "$1"; done; echo "exit $?"; times`, 'bench', script],
      { encoding: 'utf8', env: { PATH: process.env.PATH, FLUX_READY_HOSTNAME_FILE: path.join(dir, 'hostname') } });
    const [, exit] = /exit (\d+)/.exec(r.stdout) ?? [];
    const times = r.stdout.trim().split('\n').at(-1)!.split(/\s+/).map((t) => {
      const m = /(\d+)m([\d.]+)s/.exec(t)!;
      return Number(m[1]) * 60 + Number(m[2]);
    });
    const ms = ((times[0] + times[1]) * 1000) / CHECKS;
    // Each connection shows twice in this one namespace (both ends); a pod sees its own end only.
    console.log(`| ${what} | ${children} | ${exit} | ${ms.toFixed(2)} | ${((ms / (PERIOD_SECONDS * 1000)) * 100).toFixed(3)}% |`);
  }
  for (const s of sockets) s.destroy();
  server.close();
  local.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

void main();

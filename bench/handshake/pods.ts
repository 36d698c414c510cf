/**
 * Benchmark worker: hosts many simulated pods in one process (1024 processes would swamp 2 cores).
 * Each pod runs the real handshake code (lib/runtime/handshake) with its own sockets and address,
 * or the naive baseline: poll the parent's per-pod DNS name once a second.
 */
import * as dns from 'dns';
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as path from 'path';
import { parseConfig } from '../../lib/runtime/handshake/config';
import { HandshakeFailure } from '../../lib/runtime/handshake/failure';
import { Handshake } from '../../lib/runtime/handshake/handshake';
import { Logger } from '../../lib/runtime/handshake/log';

export interface PodPlan {
  readonly rank: number;
  readonly ip: string;
  /** Epoch ms at which the pod appears. */
  readonly startAt: number;
  /** Naive baseline: the parent's per-pod DNS name (undefined for rank 0). */
  readonly parentFqdn?: string;
}

export interface RunMessage {
  readonly type: 'run';
  readonly method: 'handshake' | 'naive';
  readonly baseArgs: string[];
  readonly dnsServer: string;
  readonly outRoot: string;
  readonly pods: PodPlan[];
  /** Epoch ms when rank 0 appears (profiling starts there when BENCH_PROFILE_DIR is set). */
  readonly rank0At: number;
}

export type WorkerReport =
  /** `items`: [rank, epoch ms when it was ready]; `listening`: [rank, epoch ms when its server listened]. */
  | { readonly type: 'ready'; readonly items: [number, number][]; readonly listening: [number, number][] }
  | { readonly type: 'failed'; readonly rank: number; readonly message: string };

const handshakes: Handshake[] = [];
const timers: NodeJS.Timeout[] = [];
let pendingReady: [number, number][] = [];
let pendingListening: [number, number][] = [];
let stopped = false;

function report(m: WorkerReport): void {
  process.send!(m);
}

function ready(rank: number): void {
  pendingReady.push([rank, Date.now()]);
}

function flush(): void {
  if (pendingReady.length === 0 && pendingListening.length === 0) return;
  report({ type: 'ready', items: pendingReady, listening: pendingListening });
  pendingReady = [];
  pendingListening = [];
}

setInterval(flush, 20).unref();

function startHandshake(run: RunMessage, pod: PodPlan): void {
  const dir = path.join(run.outRoot, `pod-${pod.rank}`);
  const { config, errors } = parseConfig([
    ...run.baseArgs, `--index=${pod.rank}`, `--hostname=flux-${pod.rank}`, `--pod-ip=${pod.ip}`, `--bind-address=${pod.ip}`,
    `--out-dir=${dir}`, `--termination-log=${dir}.termination`,
  ], {});
  if (!config) return report({ type: 'failed', rank: pod.rank, message: errors.join('; ') });
  // Logs are dropped (except samples when debugging); only the moment the server listens is kept:
  // like rank 0, a pod is reachable from then on.
  const logDir = process.env.BENCH_POD_LOG_DIR;
  const sink = (line: string): void => {
    if (line.includes('"event":"listening"')) pendingListening.push([pod.rank, Date.now()]);
    if (logDir && pod.rank % 50 === 0) fs.appendFileSync(path.join(logDir, `pod-${pod.rank}.log`), `${line}\n`);
  };
  const h = new Handshake(config, new Logger(sink));
  handshakes.push(h);
  h.start().then(() => ready(pod.rank), (e: HandshakeFailure) => report({ type: 'failed', rank: pod.rank, message: e.message }));
}

async function naive(run: RunMessage, pod: PodPlan): Promise<void> {
  if (pod.parentFqdn === undefined) return ready(pod.rank);
  const resolver = new dns.promises.Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([run.dnsServer]);
  // What a hand-written `until getent hosts $PARENT; do sleep 1; done` does.
  while (!stopped) {
    try {
      await resolver.resolve4(pod.parentFqdn);
      return ready(pod.rank);
    } catch {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Profiles the critical window only (rank 0 up → stop), for `BENCH_PROFILE_DIR=… npm run bench:handshake`. */
let profiler: inspector.Session | undefined;
function startProfile(at: number): void {
  if (!process.env.BENCH_PROFILE_DIR) return;
  setTimeout(() => {
    profiler = new inspector.Session();
    profiler.connect();
    profiler.post('Profiler.enable', () => profiler!.post('Profiler.start'));
  }, at - Date.now());
}

function stopProfile(then: () => void): void {
  if (!profiler) return then();
  profiler.post('Profiler.stop', (_e, r) => {
    fs.writeFileSync(path.join(process.env.BENCH_PROFILE_DIR!, `worker-${process.pid}.cpuprofile`), JSON.stringify(r.profile));
    then();
  });
}

process.on('message', (m: RunMessage | { type: 'stop' }) => {
  if (m.type === 'stop') {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    for (const h of handshakes) h.stop();
    flush();
    stopProfile(() => setTimeout(() => process.exit(0), 50));
    return;
  }
  fs.mkdirSync(m.outRoot, { recursive: true });
  startProfile(m.rank0At);
  for (const pod of m.pods) {
    timers.push(setTimeout(() => {
      if (m.method === 'handshake') startHandshake(m, pod);
      else void naive(m, pod);
    }, Math.max(0, pod.startAt - Date.now())));
  }
});

import { ChildProcess, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { HANDSHAKE_NODE_FLAGS, rendezvousServiceName } from '../../../lib/core/handshake-contract';
import { describeIf } from '../../support/requires';
import { TestDnsServer } from './dns-server';
import { onLines } from './lines';
import { ServiceProxy } from './service-proxy';

export const PROGRAM = path.resolve(__dirname, '../../../build/runtime/handshake.js');
const programBuilt = fs.existsSync(PROGRAM);

/** `describe` when the handshake program is built, else a visibly skipped block saying why. */
export function programSuite(name: string, body: () => void): void {
  describeIf({ met: programBuilt, why: 'build/runtime/handshake.js is missing: run `npm run build` (npm test does)' }, name, body);
}

/** A CURVE-certificate-like file with a random secret (the handshake only hashes its bytes). */
export function writeCertificate(file: string): string {
  const key = (): string => crypto.randomBytes(30).toString('base64').slice(0, 40);
  fs.writeFileSync(file, `#   ZeroMQ CURVE **Secret** Certificate\n\nmetadata\n    name = "test"\ncurve\n    public-key = "${key()}"\n    secret-key = "${key()}"\n`, { mode: 0o600 });
  return file;
}

/** A random /16 of 127.0.0.0/8 per cluster, so parallel test files never share addresses. */
function randomLoopbackPrefix(): string {
  return `127.${2 + crypto.randomInt(250)}`;
}

export function freePortBase(): number {
  return 20000 + crypto.randomInt(20000);
}

export interface LogLine {
  readonly event: string;
  readonly [key: string]: unknown;
}

/** One `node build/runtime/handshake.js` process playing one pod. */
export class Pod {
  readonly lines: LogLine[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;
  private waiters: { pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void; reject: (e: Error) => void }[] = [];
  /** Set once the process ended and its output was read: a wait for a line it never wrote fails. */
  private ended?: string;

  constructor(readonly index: number, readonly ip: string, readonly outDir: string, readonly terminationLog: string, readonly proc: ChildProcess) {
    onLines(proc.stdout!, (text) => {
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { event: 'non-json', text };
      }
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => (w.pred(line) ? (w.resolve(line), false) : true));
    });
    proc.stderr!.on('data', (d: Buffer) => this.stderr.push(d.toString()));
    this.exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
    // 'close' comes after the output streams ended, so every line written is in `lines` by then.
    proc.once('close', (code, signal) => {
      this.ended = `pod ${index} exited (${signal ?? `code ${code}`})`;
      for (const w of this.waiters.splice(0)) w.reject(this.neverLogged(w.pred));
    });
  }

  /**
   * Resolves with the first log line (past or future) matching `pred`; rejects once the process
   * ended without writing one, with what it did write, instead of leaving the test to time out.
   */
  waitFor(pred: (l: LogLine) => boolean): Promise<LogLine> {
    const found = this.lines.find(pred);
    if (found) return Promise.resolve(found);
    if (this.ended) return Promise.reject(this.neverLogged(pred));
    return new Promise((resolve, reject) => this.waiters.push({ pred, resolve, reject }));
  }

  private neverLogged(pred: (l: LogLine) => boolean): Error {
    const last = this.lines.slice(-12).map((l) => JSON.stringify(l)).join('\n');
    return new Error(`${this.ended} without logging a line that matches ${pred.toString()}; its last lines:\n${last}\nstderr: ${this.stderr.join('').slice(-2000)}`);
  }

  waitForEvent(event: string): Promise<LogLine> {
    return this.waitFor((l) => l.event === event);
  }

  file(name: string): string | undefined {
    try {
      return fs.readFileSync(path.join(this.outDir, name), 'utf8');
    } catch {
      return undefined;
    }
  }

  terminationMessage(): string | undefined {
    try {
      return fs.readFileSync(this.terminationLog, 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Peak resident set size (VmHWM) and current RSS in bytes. */
  memory(): { rss: number; peak: number } {
    const status = fs.readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
    const kb = (k: string): number => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  }

  async kill(): Promise<void> {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    await this.exited;
  }
}

export interface ClusterOptions {
  readonly size: number;
  readonly name?: string;
  readonly topology?: string;
  readonly mode?: 'rendezvous' | 'dns';
  readonly lifecycle?: 'sidecar' | 'init';
  readonly quorum?: number;
  readonly deadlineSeconds?: number;
  readonly dns?: TestDnsServer;
  readonly cacheSeconds?: number;
}

/**
 * A simulated MiniCluster on loopback: a DNS server, a rendezvous Service (DNS name published at
 * t=0 pointing at a ServiceProxy virtual IP) and one process per pod on its own 127.x.y.z address.
 */
export class TestCluster {
  readonly name: string;
  readonly namespace = 'ns';
  readonly service = 'hs';
  readonly port = freePortBase();
  readonly fluxPort = this.port + 1;
  readonly dir: string;
  readonly certPath: string;
  readonly pods = new Map<number, Pod>();
  readonly proxy: ServiceProxy;
  private readonly prefix = randomLoopbackPrefix();
  private restarts = 0;

  static async create(options: ClusterOptions): Promise<TestCluster> {
    const dns = options.dns ?? await TestDnsServer.start({ cacheSeconds: options.cacheSeconds ?? 0 });
    const c = new TestCluster(options, dns);
    dns.publish(c.rendezvousHost, c.proxy.vip);
    return c;
  }

  private constructor(readonly options: ClusterOptions, readonly dns: TestDnsServer) {
    this.name = options.name ?? 'flux';
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'handshake-test-'));
    this.certPath = writeCertificate(path.join(this.dir, 'curve.cert'));
    this.proxy = new ServiceProxy(`${this.prefix}.255.1`, this.port);
  }

  get rendezvousHost(): string {
    return `${rendezvousServiceName(this.name)}.${this.namespace}.svc.cluster.local`;
  }

  fqdn(index: number): string {
    return `${this.name}-${index}.${this.service}.${this.namespace}.svc.cluster.local`;
  }

  /** Address of pod `index` in its `generation` (a restarted pod gets a new one). */
  ip(index: number, generation = 0): string {
    return `${this.prefix}.${generation}.${index + 10}`;
  }

  args(index: number): string[] {
    const o = this.options;
    return [
      `--name=${this.name}`, `--service=${this.service}`, `--namespace=${this.namespace}`, `--size=${o.size}`,
      `--topology=${o.topology ?? 'kary:256'}`, `--mode=${o.mode ?? 'rendezvous'}`, `--lifecycle=${o.lifecycle ?? 'sidecar'}`,
      `--quorum=${o.quorum ?? o.size}`, `--deadline-seconds=${o.deadlineSeconds ?? 60}`, `--port=${this.port}`,
      `--flux-port=${this.fluxPort}`, '--bind-interface=lo', `--cert=${this.certPath}`, `--dns-server=${this.dns.address}`,
      `--rendezvous-host=${this.rendezvousHost}`, `--index=${index}`, `--hostname=${this.name}-${index}`,
    ];
  }

  /**
   * Starts pod `index` like the kubelet would: it gets an IP, its per-pod DNS record is published
   * (publishNotReadyAddresses), and for index 0 the rendezvous Service gets it as endpoint.
   */
  async startPod(index: number, opts: { generation?: number; extraArgs?: string[]; publish?: boolean; freshVolume?: boolean } = {}): Promise<Pod> {
    const ip = this.ip(index, opts.generation ?? 0);
    // The same out dir plays a restarted container (the emptyDir survives); a fresh one a new pod.
    const outDir = path.join(this.dir, opts.freshVolume ? `pod-${index}-${opts.generation ?? 0}` : `pod-${index}`);
    const terminationLog = path.join(this.dir, `termination-${index}-${this.restarts++}`);
    const args = [...this.args(index), `--pod-ip=${ip}`, `--bind-address=${ip}`, `--out-dir=${outDir}`,
      `--termination-log=${terminationLog}`, ...(opts.extraArgs ?? [])];
    const proc = spawn(process.execPath, [...HANDSHAKE_NODE_FLAGS, PROGRAM, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const pod = new Pod(index, ip, outDir, terminationLog, proc);
    this.pods.set(index, pod);
    if (opts.publish !== false) {
      this.dns.publish(this.fqdn(index), ip);
      if (index === 0) await this.proxy.setEndpoint(ip);
    }
    return pod;
  }

  async startAll(): Promise<Pod[]> {
    const pods: Pod[] = [];
    for (let i = 0; i < this.options.size; i++) pods.push(await this.startPod(i));
    return pods;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.pods.values()].map((p) => p.kill()));
    await this.proxy.close();
    await this.dns.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

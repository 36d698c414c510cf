/**
 * Runs a synthesized Job through the pod emulator (../shared/tools/podemu: pods as real processes
 * with real Flux) and reads back what it recorded: summary.json and each container's log.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { sharedCandidates } from './repo-root';
import type { LeadPhases } from './kube/lead-phases';

/** Where podemu and Flux are, or why the end-to-end tests cannot run here. */
export interface Engines {
  readonly podemu?: string;
  readonly fluxPrefix?: string;
  /** Empty when everything is there; otherwise each missing piece, for the skip lines. */
  readonly missing: string[];
}

const PODEMU_CANDIDATES = sharedCandidates('tools', 'podemu', 'podemu.py');
const DEFAULT_FLUX_PREFIX = '/opt/software/flux';

/** Finds podemu (PODEMU or ../shared/tools/podemu) and Flux (FLUX_PREFIX, else /opt/software/flux). */
export function findEngines(env: NodeJS.ProcessEnv = process.env): Engines {
  const missing: string[] = [];
  if (typeof process.getuid === 'function' && process.getuid() !== 0) missing.push('not root (podemu makes network namespaces)');
  const podemu = [env.PODEMU, ...PODEMU_CANDIDATES].find((p) => p && fs.existsSync(p));
  if (!podemu) missing.push(`no podemu (set PODEMU, or put it at ${PODEMU_CANDIDATES[0]})`);
  const prefix = env.FLUX_PREFIX ?? (fs.existsSync(path.join(DEFAULT_FLUX_PREFIX, 'bin', 'flux')) ? DEFAULT_FLUX_PREFIX : undefined);
  if (!prefix || !fs.existsSync(path.join(prefix, 'bin', 'flux'))) {
    missing.push(`no Flux (set FLUX_PREFIX to a Flux install, flux-core + flux-sched; default ${DEFAULT_FLUX_PREFIX})`);
  }
  return { podemu, fluxPrefix: prefix, missing };
}

/** podemu's command-line options this project uses (see its README). */
export interface PodemuOptions {
  readonly manifests: string[];
  readonly job: string;
  readonly extraSecrets?: string[];
  readonly logs: string;
  readonly workdir?: string;
  /** `--keep-workdir`: podemu leaves its scratch space (volumes, image content) in `workdir`. */
  readonly keepWorkdir?: boolean;
  /** `--image-root REF=DIR`: the content of the image volumes of reference REF. */
  readonly imageRoots?: Readonly<Record<string, string>>;
  readonly timeout: number;
  readonly stagger?: number;
  readonly dnsDelay?: number;
  readonly negTtl?: number;
  /** `--evict INDEX@S`: evict the pod of that index S s after the first pod started. */
  readonly evict?: string[];
  /** `--crash INDEX@S[:CONTAINER]`: SIGKILL that container's PID 1 (exit 137). */
  readonly crash?: string[];
}

/** One broker as podemu saw it. */
export interface BrokerRecord {
  /** The rank podemu read from the broker's process name. */
  readonly rank: string | null;
  /** When a flux-broker process was first seen in the pod. */
  readonly first_seen: number | null;
  readonly listen: number | null;
  readonly connected_to_parent: number | null;
  readonly up: number | null;
  /** Every time a broker process of the pod connected to its parent. */
  readonly connects?: number[];
}

/** One container run. */
export interface ContainerRun {
  readonly start: number | null;
  readonly end: number | null;
  readonly exit_code: number | null;
  readonly termination_message?: string | null;
  /** The log file, relative to the logs directory. */
  readonly log: string;
}

/** One pod of the run. */
export interface PodRecord {
  readonly index: number;
  readonly pod: string;
  readonly phase: string;
  readonly reason?: string | null;
  readonly pod_failure_policy?: string | null;
  readonly times: Record<string, number | null>;
  readonly broker?: BrokerRecord | null;
  readonly containers: Array<{ name: string; type: string; restarts: number; runs: ContainerRun[] }>;
  /** A real cluster only: the node the pod was bound to. */
  readonly node?: string | null;
}

/** One `--evict` or `--crash` as podemu carried it out. */
export interface FaultRecord {
  /** Seconds after the first pod started. */
  readonly at: number;
  /** `drain` and `lose` (a real cluster only): the node of that index's pod. */
  readonly fault: 'evict' | 'crash' | 'drain' | 'lose' | 'preempt';
  readonly index: number;
  readonly pod: string | null;
  /** A node fault: the node, the case's pods that were on it, and the actions that followed (seconds after the first pod). */
  readonly node?: string;
  readonly podsOnNode?: string[];
  readonly actions?: Array<{ readonly action: string; readonly at: number; readonly outcome: string; readonly bound: boolean }>;
  readonly container?: string | null;
  readonly outcome?: string | null;
  readonly replacement?: { readonly pod: string; readonly ip: string | null; readonly created: number | null; readonly phase: string | null } | null;
}

/** podemu's summary.json, the parts read here. */
export interface Summary {
  readonly result: 'Succeeded' | 'Failed' | 'Interrupted' | 'Error';
  readonly reason: string | null;
  readonly wall_time_s: number | null;
  readonly flux_instance_up_s: number | null;
  /** A real cluster only: seconds from the objects' creation (`kubectl apply`) to the Job's success. */
  readonly apply_to_success_s?: number | null;
  /** A real cluster only: where the brokers' times come from, the lead's log or (without it) the pods' Ready times. */
  readonly broker_times?: 'broker log' | 'ready';
  /** A real cluster only: the largest parallelism the Job had while the run polled it (an autoscaled Job changes it). */
  readonly max_parallelism?: number;
  /** A real cluster only: when the lead broker entered each of its states, seconds from the first pod (kube/lead-phases.ts). */
  readonly lead_phases?: LeadPhases;
  /** The largest spacing of podemu's samples of the brokers' sockets (s). */
  readonly tcp_sample_interval_max_s?: number | null;
  readonly pods: PodRecord[];
  readonly faults?: FaultRecord[];
  /** A real cluster with node faults: polls at which one index had two live brokers (Flux running on a Ready node). */
  readonly double_brokers?: string[];
  /** A real cluster with node faults: what the cleanup after the run could not put back (a node not Ready again). */
  readonly node_cleanup?: string[];
}

/** A podemu run in progress. */
export class PodemuRun {
  private readonly child: ChildProcess;
  private readonly exited: Promise<number>;
  private output = '';

  constructor(engines: Engines, private readonly options: PodemuOptions) {
    const o = options;
    const args = [engines.podemu!, 'run', '--quiet', '--job', o.job, '--logs', o.logs, '--timeout', String(o.timeout)];
    for (const m of o.manifests) args.push('--manifests', m);
    for (const s of o.extraSecrets ?? []) args.push('--extra-secret', s);
    if (o.workdir) args.push('--workdir', o.workdir);
    if (o.keepWorkdir) args.push('--keep-workdir');
    for (const [ref, dir] of Object.entries(o.imageRoots ?? {})) args.push('--image-root', `${ref}=${dir}`);
    if (o.stagger !== undefined) args.push('--stagger', String(o.stagger));
    if (o.dnsDelay !== undefined) args.push('--dns-delay', String(o.dnsDelay));
    if (o.negTtl !== undefined) args.push('--neg-ttl', String(o.negTtl));
    for (const f of o.evict ?? []) args.push('--evict', f);
    for (const f of o.crash ?? []) args.push('--crash', f);
    this.child = spawn('/usr/bin/python3', args, {
      env: { ...process.env, FLUX_PREFIX: engines.fluxPrefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  }

  /** Ends the run early, as Ctrl-C would (podemu cleans up and writes its summary). */
  interrupt(): void {
    this.child.kill('SIGINT');
  }

  /** Waits for podemu to end; returns its summary, or throws with its last output if it has none. */
  async finished(): Promise<Summary> {
    const code = await this.exited;
    const file = path.join(this.options.logs, 'summary.json');
    if (!fs.existsSync(file)) throw new Error(`podemu exited ${code} without a summary:\n${this.output.trim()}`);
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Summary;
  }

  /** The seconds-since-start timeline podemu writes (events.log), as it is now. */
  events(): string {
    const file = path.join(this.options.logs, 'events.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }

  /** podemu's own console output so far (warnings, the verdict table). */
  get console(): string {
    return this.output;
  }
}

/**
 * The text a container printed (podemu prefixes every line with `[seconds] `): run `run` of
 * container `name` in the last pod of index `index`; the last run by default.
 */
export function containerLog(logs: string, summary: Summary, index: number, name: string, run = -1): string | undefined {
  const pod = [...summary.pods].reverse().find((p) => p.index === index);
  const runs = pod?.containers.find((c) => c.name === name)?.runs ?? [];
  const chosen = runs.at(run);
  const file = chosen && path.resolve(logs, chosen.log);
  if (!file || !fs.existsSync(file)) return undefined;
  return stripTimes(fs.readFileSync(file, 'utf8'));
}

/** A podemu log without its `[   1.234] ` line prefixes. */
export function stripTimes(text: string): string {
  return text.split('\n').map((l) => l.replace(/^\[\s*[\d.]+\] ?/, '')).join('\n');
}

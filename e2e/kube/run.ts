/**
 * Runs a case's objects on a real cluster and records the run as podemu would (kube/record.ts):
 * creates them in the case's namespace, polls the Job and watches its pods, injects the faults the way a
 * cluster does them (the Eviction API, as `kubectl drain`; a kill inside the container through
 * exec), and at the end reads every container's log.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as k8s from '@kubernetes/client-node';
import { FaultRecord, Summary } from '../podemu';
import { KueuePlan, NodeFault } from '../case';
import { BrokerLogFollower, brokerEvents } from './broker-log';
import { KueueDriver } from './kueue';
import { leadPhases } from './lead-phases';
import { NodeControl, NodeFaults, doubleBrokers, readyNodes } from './node-faults';
import { PodWatch } from './pod-watch';
import { PodSeen, datedBrokers, jobVerdict, observePod, podIndex, podRecord, secondsSince } from './record';
import { client, execIn, forClientLibrary, KubeExecResult, KubeTarget } from './target';

const POLL_MS = 500;

export interface KubeRunOptions {
  readonly namespace: string;
  /** Every object to create, in order, already in `namespace`. */
  readonly objects: any[];
  readonly job: string;
  /** The Flux runner container (exec steps run there). */
  readonly runner: string;
  readonly logs: string;
  readonly timeout: number;
  /** `INDEX@SECONDS`: evict that index's pod S s after the first pod was created. */
  readonly evict?: string[];
  /** `INDEX@SECONDS[:CONTAINER]`: kill that container's process (the broker in the runner). */
  readonly crash?: string[];
  /** The evictions and crashes wait for every pod of the Job Ready (a fault before bring-up tests nothing). @default false */
  readonly faultsAfterBringUp?: boolean;
  /** Faults of the nodes the pods run on, and the program that loses and restores nodes. */
  readonly nodes?: NodeFault[];
  readonly nodeControl?: NodeControl;
  /** The Flux view script (the Job's flux-view annotation): the lead's log is followed through it. Unset: not followed. */
  readonly viewScript?: string;
  /** Grow the Job (parallelism and completions) to `to` at `atSeconds` after the first pod was created. */
  readonly grow?: { readonly to: number; readonly atSeconds: number };
  /** How often the pods and the Job are read. @default 500 */
  readonly pollMs?: number;
  /** Queued by a real Kueue: the case's queues are made before the objects, and its preemptions carried out. */
  readonly kueue?: { readonly plan: KueuePlan; readonly queue: string };
}

interface PlannedFault {
  readonly fault: 'evict' | 'crash';
  readonly index: number;
  readonly at: number;
  readonly container?: string;
}

/** `INDEX@S[:CONTAINER]` of podemu's --evict and --crash. */
export function parseFaults(evict: string[] = [], crash: string[] = []): PlannedFault[] {
  const parse = (fault: 'evict' | 'crash') => (spec: string): PlannedFault => {
    const m = /^(\d+)@(\d+(?:\.\d+)?)(?::([a-z0-9-]+))?$/.exec(spec);
    if (!m || (fault === 'evict' && m[3])) throw new Error(`bad --${fault} '${spec}': INDEX@SECONDS${fault === 'crash' ? '[:CONTAINER]' : ''}`);
    return { fault, index: Number(m[1]), at: Number(m[2]), container: m[3] };
  };
  return [...evict.map(parse('evict')), ...crash.map(parse('crash'))].sort((a, b) => a.at - b.at);
}

/** How long a planned pod fault waits for its pod to run, past its time (a node slower than planned). */
const FAULT_WAIT_SECONDS = 30;

/** The runs under way, for interruptRuns(). */
const RUNNING = new Set<KubeRun>();

/**
 * Ends every run under way and waits for each to put the cluster back (a lost node restored, a
 * drained one uncordoned): what Ctrl-C must not skip, or the next run finds a node short.
 */
export async function interruptRuns(): Promise<number> {
  const runs = [...RUNNING];
  for (const r of runs) r.interrupt();
  await Promise.all(runs.map((r) => r.finished().catch(() => undefined)));
  return runs.length;
}

/**
 * The command that crashes a container from inside: the runner's brokers get SIGKILL (the
 * entrypoint then ends with 137, as after an OOM kill). A container's PID 1 ignores signals sent
 * from inside its own PID namespace unless it handles them, so another container's PID 1 gets
 * SIGKILL and then, if it is still there, SIGTERM (the handshake sidecar handles SIGTERM). `proc`
 * is where the process table is read: the container's /proc (tests give a table of their own,
 * since on the test machine /proc holds every pod's brokers).
 */
export function crashCommand(isRunner: boolean, proc = '/proc'): string[] {
  const script = isRunner
    ? 'n=0; for p in "$0"/[0-9]*; do c=$(cat "$p/comm" 2>/dev/null) || continue; case "$c" in flux-broker*) kill -KILL "${p##*/}" && n=$((n+1));; esac; done; echo "killed $n broker(s)"; [ "$n" -gt 0 ]'
    : 'kill -KILL 1; sleep 1; kill -TERM 1 && echo "PID 1 ignored SIGKILL from inside its namespace: sent SIGTERM"';
  return ['/bin/sh', '-c', script, proc];
}

/**
 * When every broker was up: from the lead's log when it dated the brokers (the last rank's `up`;
 * null when one is missing), else from the pods' first Ready times.
 */
export function instanceUp(records: ReadonlyArray<{ broker?: { up: number | null } | null }>, fromLog: boolean, lastReady: number | null): number | null {
  if (!fromLog) return lastReady;
  const ups = records.map((r) => r.broker?.up ?? null);
  return ups.length > 0 && ups.every((u) => u !== null) ? Math.max(...(ups as number[])) : null;
}

export class KubeRun {
  private readonly seen = new Map<string, PodSeen>();
  private readonly timeline: string[] = [];
  private readonly faults: FaultRecord[] = [];
  /** `flux dmesg --follow` of each lead pod, tried from when its Flux container runs. */
  private readonly followers = new Map<string, BrokerLogFollower>();
  private t0: number | undefined;
  private readonly started = Date.now();
  private interrupted = false;
  private markApplied: () => void = () => undefined;
  private readonly created = new Promise<void>((resolve) => {
    this.markApplied = resolve;
  });
  private readonly done: Promise<Summary>;
  private readonly nodeFaults: NodeFaults;
  /** The case's Kueue driver (queued cases only). */
  readonly kueue?: KueueDriver;
  private readonly doubles = new Set<string>();
  private cleanedUp = false;
  private readonly pods: PodWatch;

  constructor(private readonly target: KubeTarget, private readonly o: KubeRunOptions) {
    this.pods = new PodWatch(target, o.namespace, `batch.kubernetes.io/job-name=${o.job}`);
    this.nodeFaults = new NodeFaults(target, o.namespace, o.nodeControl ?? { protectedNodes: [] }, o.nodes ?? [], (l) => this.log(l), () => this.now());
    if (o.kueue) this.kueue = new KueueDriver(target, o.namespace, o.kueue.plan, o.kueue.queue, (l) => this.log(l), () => this.now());
    this.done = this.run();
  }

  /** Ends the run early: the cluster is left as it is until the namespace goes. */
  interrupt(): void {
    this.interrupted = true;
  }

  finished(): Promise<Summary> {
    return this.done;
  }

  /** Resolves once every object is created (rejects if the run failed first): what a day-2 command needs. */
  applied(): Promise<void> {
    return Promise.race([this.created, this.done.then(() => undefined)]);
  }

  /** The timeline so far, in podemu's events.log format. */
  events(): string {
    return this.timeline.join('');
  }

  /** Whether the lead the exec steps go to runs now. */
  leadRunning(): boolean {
    return this.runningPod(0) !== undefined;
  }

  /** `kubectl exec` into the lead's Flux runner (the newest pod of index 0 that has not ended). */
  async exec(script: string, timeoutSeconds: number): Promise<KubeExecResult> {
    const lead = this.runningPod(0);
    if (!lead) return { status: null, stdout: '', stderr: 'no running lead pod (index 0)' };
    return execIn(this.target, { namespace: this.o.namespace, pod: lead.name, container: this.o.runner }, ['/bin/bash', '-c', script], timeoutSeconds);
  }

  private now(): number {
    return this.t0 === undefined ? 0 : secondsSince(this.t0, Date.now());
  }

  private log(line: string): void {
    this.timeline.push(`[${this.now().toFixed(3).padStart(9)}] ${line}\n`);
  }

  private async run(): Promise<Summary> {
    RUNNING.add(this);
    try {
      return await this.poll();
    } finally {
      RUNNING.delete(this);
      this.pods.stop();
      // A run that broke half way puts the cluster back too (its problems then go unrecorded).
      if (!this.cleanedUp && this.nodeFaults.any) await this.nodeFaults.cleanup().catch(() => undefined);
    }
  }

  private async poll(): Promise<Summary> {
    fs.mkdirSync(this.o.logs, { recursive: true });
    await this.kueue?.setup();
    const applied = Date.now();
    for (const object of this.o.objects) await this.target.objects.create(forClientLibrary(object));
    this.markApplied();
    const planned = parseFaults(this.o.evict, this.o.crash);
    let verdict: ReturnType<typeof jobVerdict>;
    let verdictAt: number | null = null;
    let verdictFromApply: number | null = null;
    const deadline = this.started + this.o.timeout * 1000;
    let grown = false;
    let parallelism: number | undefined;
    let maxParallelism = 0;
    while (!this.interrupted) {
      const pods = await this.pods.list();
      if (this.t0 === undefined && pods.length) this.t0 = Date.now();
      for (const pod of sortByCreation(pods)) for (const line of observePod(this.seen, pod, this.now(), this.t0 ?? Date.now())) this.log(line);
      // A pod deleted before it was seen terminal (the Job reaps its pods once it ended) ended then.
      const present = new Set(pods.map((p) => p.metadata!.name!));
      for (const p of this.seen.values()) {
        if (present.has(p.name) || p.times.gone != null) continue;
        p.times.gone = this.now();
        p.times.end ??= this.now();
        this.log(`${p.name}: gone (${p.phase} when last seen)`);
      }
      const allUp = new Set([...this.seen.values()].filter((p) => p.ready).map((p) => p.index)).size >= (parallelism ?? Infinity);
      if (this.nodeFaults.any && this.t0 !== undefined) {
        await this.nodeFaults.poll([...this.seen.values()], allUp);
        this.checkDoubleBrokers(pods, (await this.target.core.listNode()).items);
      }
      if (this.o.viewScript) {
        for (const p of this.seen.values()) {
          const runner = p.containers.get(this.o.runner);
          if (p.index !== 0 || p.phase !== 'Running' || !runner?.runs.some((r) => r.exit_code === null)) continue;
          const follower = this.followers.get(p.name);
          if (follower) follower.poll();
          else this.followers.set(p.name, new BrokerLogFollower(this.target, { namespace: this.o.namespace, pod: p.name, container: this.o.runner }, this.o.viewScript));
        }
      }
      // A fault whose pod does not run yet (a slower node) waits for it, up to FAULT_WAIT_SECONDS;
      // one meant for a cluster that is up waits for every pod Ready, however slow the nodes.
      while (this.t0 !== undefined && planned.length && planned[0].at <= this.now() && (allUp || !this.o.faultsAfterBringUp)) {
        if (!this.runningPod(planned[0].index) && this.now() < planned[0].at + FAULT_WAIT_SECONDS) break;
        await this.inject(planned.shift()!);
      }
      if (this.o.grow && !grown && this.t0 !== undefined && this.o.grow.atSeconds <= this.now()) {
        grown = true;
        const k8s = client();
        await this.target.batch.patchNamespacedJob({ name: this.o.job, namespace: this.o.namespace, body: { spec: { parallelism: this.o.grow.to, completions: this.o.grow.to } } },
          k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
        this.log(`job: grown to ${this.o.grow.to} pods`);
      }
      const job = await this.target.batch.readNamespacedJob({ name: this.o.job, namespace: this.o.namespace });
      await this.kueue?.poll(job, this.t0 !== undefined);
      // Each change of the Job's size (a grow here, an autoscaler's patch) is on the timeline.
      const now = job.spec?.parallelism ?? 1;
      if (parallelism !== undefined && now !== parallelism) this.log(`job: parallelism ${parallelism} -> ${now}`);
      parallelism = now;
      maxParallelism = Math.max(maxParallelism, now);
      if (!verdict) {
        verdict = jobVerdict(job);
        if (verdict) {
          verdictAt = this.now();
          verdictFromApply = (Date.now() - applied) / 1000;
          this.log(`job: ${verdict.result} (${verdict.reason})`);
        }
      }
      // Every pod has ended: seen terminal, or no longer listed (deleted once the Job ended); a pod
      // on a lost node stays Terminating there until the node is back or removed.
      const lost = this.nodeFaults.lostNodes();
      const settled = [...this.seen.values()].every((p) => p.times.end != null || (p.node !== null && lost.has(p.node)));
      if (verdict && settled) break;
      if (Date.now() > deadline) {
        this.log(`runner: timeout after ${this.o.timeout} s`);
        break;
      }
      await new Promise((r) => setTimeout(r, this.o.pollMs ?? POLL_MS));
    }
    for (const f of planned) this.faults.push({ at: f.at, fault: f.fault, index: f.index, pod: null, outcome: 'not carried out: the run ended first' });
    this.faults.push(...this.nodeFaults.records(), ...this.kueue?.records() ?? []);
    // The cluster whole again before the logs are read (a lost node's kubelet cannot give them).
    const cleanupProblems = this.nodeFaults.any ? await this.nodeFaults.cleanup() : [];
    this.cleanedUp = true;
    for (const f of this.followers.values()) f.stop();
    const logText = [...this.followers.values()].map((f) => f.text).join('\n');
    fs.writeFileSync(path.join(this.o.logs, 'lead-dmesg.log'), logText);
    const pods = [...this.seen.values()];
    const dated = datedBrokers(pods, brokerEvents(logText), this.t0 ?? this.started);
    const records = [];
    for (const p of pods) records.push(podRecord(p, (container, run, runs) => this.logFile(p, container, run, runs), dated.get(p.name), this.o.runner));
    for (const p of records) await this.fetchLogs(p.pod, p.containers);
    fs.writeFileSync(path.join(this.o.logs, 'events.log'), this.events());
    const ready = pods.flatMap((p) => p.readyAt);
    const summary: Summary = {
      result: verdict?.result ?? (this.interrupted ? 'Interrupted' : 'Failed'),
      reason: verdict?.reason ?? (this.interrupted ? null : `runner timeout: no Job verdict after ${this.o.timeout} s`),
      wall_time_s: verdict?.result === 'Succeeded' ? verdictAt : null,
      apply_to_success_s: verdict?.result === 'Succeeded' ? verdictFromApply : null,
      flux_instance_up_s: instanceUp(records, dated.size > 0, ready.length > 0 ? Math.max(...pods.map((p) => p.readyAt[0] ?? 0)) : null),
      pods: records,
      faults: this.faults,
      broker_times: dated.size ? 'broker log' : 'ready',
      max_parallelism: maxParallelism,
      lead_phases: leadPhases(logText, this.t0 ?? this.started),
      ...(this.nodeFaults.any ? { double_brokers: [...this.doubles], node_cleanup: cleanupProblems } : {}),
    };
    fs.writeFileSync(path.join(this.o.logs, 'summary.json'), JSON.stringify(summary, null, 2));
    return summary;
  }

  /** Two pods of one index with Flux running on Ready nodes at this poll: each pair once on the timeline and in the summary. */
  private checkDoubleBrokers(pods: k8s.V1Pod[], nodes: k8s.V1Node[]): void {
    for (const d of doubleBrokers(pods, this.o.runner, readyNodes(nodes), this.nodeFaults.lostNodes(), podIndex)) {
      if (this.doubles.has(d)) continue;
      this.doubles.add(d);
      this.log(`check: ${d}`);
    }
  }

  private logFile(p: PodSeen, container: string, run: number, runs: number): string | undefined {
    // The API keeps the current run's log and the one before it.
    return run >= runs - 2 ? path.join(p.name, `${container}.${run}.log`) : undefined;
  }

  private async fetchLogs(pod: string, containers: Array<{ name: string; runs: Array<{ log: string }> }>): Promise<void> {
    for (const c of containers) {
      for (const [i, run] of c.runs.entries()) {
        if (!run.log) continue;
        const previous = i < c.runs.length - 1;
        let text: string;
        try {
          text = await this.target.core.readNamespacedPodLog({ name: pod, namespace: this.o.namespace, container: c.name, previous });
        } catch (e) {
          text = `(no log: ${(e as Error).message.split('\n')[0]})`;
        }
        fs.mkdirSync(path.join(this.o.logs, pod), { recursive: true });
        fs.writeFileSync(path.join(this.o.logs, run.log), text ?? '');
      }
    }
  }

  /** The newest pod of `index` that runs. */
  private runningPod(index: number): PodSeen | undefined {
    return [...this.seen.values()].filter((p) => p.index === index && p.phase === 'Running').at(-1);
  }

  private async inject(f: PlannedFault): Promise<void> {
    const pod = this.runningPod(f.index);
    if (!pod) {
      this.faults.push({ at: this.now(), fault: f.fault, index: f.index, pod: null, outcome: `no running pod of that index within ${FAULT_WAIT_SECONDS} s of its time` });
      return;
    }
    const at = this.now();
    if (f.fault === 'evict') {
      const body: k8s.V1Eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod.name, namespace: this.o.namespace } };
      let outcome = 'evicted (Eviction API)';
      try {
        await this.target.core.createNamespacedPodEviction({ name: pod.name, namespace: this.o.namespace, body });
      } catch (e) {
        outcome = `eviction refused: ${(e as Error).message.split('\n')[0]}`;
      }
      this.log(`fault: evict ${pod.name}`);
      this.faults.push({ at, fault: 'evict', index: f.index, pod: outcome.startsWith('evicted') ? pod.name : null, outcome });
      return;
    }
    const container = f.container ?? this.o.runner;
    const r = await execIn(this.target, { namespace: this.o.namespace, pod: pod.name, container }, crashCommand(container === this.o.runner), 15);
    this.log(`fault: crash ${pod.name} ${container}`);
    const ok = r.status === 0 || r.status === null;
    this.faults.push({ at, fault: 'crash', index: f.index, pod: ok ? pod.name : null, container, outcome: `${r.stdout.trim()} ${r.stderr.trim()}`.trim() || `exec ended ${r.status}` });
  }
}

function sortByCreation(pods: k8s.V1Pod[]): k8s.V1Pod[] {
  return [...pods].sort((a, b) => new Date(a.metadata?.creationTimestamp ?? 0).getTime() - new Date(b.metadata?.creationTimestamp ?? 0).getTime()
    || (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

/**
 * What a real cluster shows of a run, in the shape podemu's summary.json has, so that one set of
 * checks judges both: pods and their containers from the API (polled), times in seconds since the
 * first pod was seen, and a timeline in podemu's events.log format.
 *
 * A broker counts as up when its pod turns Ready: the Flux runner's readiness probe (flux-ready.sh)
 * passes only while a worker is connected to its parent and once the lead's quorum has joined.
 */
import type * as k8s from '@kubernetes/client-node';
import { VIEW_CHECK_EXIT_CODE } from '../../lib/scripts/render';
import { BrokerRecord, ContainerRun, PodRecord } from '../podemu';
import { BrokerEvent } from './broker-log';

/** One container run as polled: its container ID, start, end and exit. */
interface RunSeen {
  id: string;
  start: number | null;
  end: number | null;
  exit_code: number | null;
  termination_message: string | null;
}

interface ContainerSeen {
  name: string;
  type: 'init' | 'sidecar' | 'main';
  restarts: number;
  runs: RunSeen[];
}

/** Everything seen of one pod. */
export interface PodSeen {
  name: string;
  index: number;
  phase: string;
  reason: string | null;
  times: Record<string, number | null>;
  /** Each time the pod turned Ready. */
  readyAt: number[];
  ready: boolean;
  /** The node it was bound to, once scheduled. */
  node: string | null;
  containers: Map<string, ContainerSeen>;
}

/** The completion index of a Job's pod. */
export function podIndex(pod: k8s.V1Pod): number {
  const v = pod.metadata?.labels?.['batch.kubernetes.io/job-completion-index'] ?? pod.metadata?.annotations?.['batch.kubernetes.io/job-completion-index'];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : -1;
}

function containerType(spec: k8s.V1PodSpec | undefined, name: string): ContainerSeen['type'] {
  const init = spec?.initContainers?.find((c) => c.name === name);
  if (!init) return 'main';
  return init.restartPolicy === 'Always' ? 'sidecar' : 'init';
}

/** Seconds from `t0` to `ms` (both epoch milliseconds), to 10 ms: every time of a run's record. */
export function secondsSince(t0: number, ms: number): number {
  return Math.round((ms - t0) / 10) / 100;
}

/** Seconds since `t0` of a time the API gives (1 s resolution), or null. */
function apiTime(value: Date | string | undefined, t0: number): number | null {
  if (value === undefined || value === null) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : secondsSince(t0, ms);
}

/**
 * Updates `seen` with a poll of `pod` made `now` seconds after t0 (epoch ms `t0`); returns the
 * timeline lines the change adds (podemu's events.log format, without the time prefix).
 */
export function observePod(seen: Map<string, PodSeen>, pod: k8s.V1Pod, now: number, t0: number): string[] {
  const name = pod.metadata!.name!;
  const lines: string[] = [];
  let p = seen.get(name);
  if (!p) {
    p = { name, index: podIndex(pod), phase: 'Pending', reason: null, times: { created: now }, readyAt: [], ready: false, node: null, containers: new Map() };
    seen.set(name, p);
    lines.push(`${name}: created`);
  }
  const status = pod.status ?? {};
  const scheduled = status.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True');
  if (scheduled && p.times.scheduled === undefined) p.times.scheduled = now;
  if (pod.spec?.nodeName && p.node !== pod.spec.nodeName) {
    p.node = pod.spec.nodeName;
    lines.push(`${name}: on node ${p.node}`);
  }
  const ready = status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  if (ready && !p.ready) {
    p.readyAt.push(now);
    p.times.ready ??= now;
    lines.push(`${name}: ready`, `${name}: flux-broker (rank ${p.index}) ${p.index === 0 ? 'listening' : 'connected to its parent'}`);
  } else if (!ready && p.ready) {
    lines.push(`${name}: not ready`);
  }
  p.ready = ready;
  const phase = status.phase ?? 'Pending';
  if (phase !== p.phase) {
    lines.push(`${name}: phase ${phase}`);
    p.phase = phase;
    if (phase === 'Succeeded' || phase === 'Failed') p.times.end = now;
  }
  const disruption = status.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
  p.reason = disruption?.reason ?? status.reason ?? p.reason;
  for (const cs of [...status.initContainerStatuses ?? [], ...status.containerStatuses ?? []]) {
    let c = p.containers.get(cs.name);
    if (!c) {
      c = { name: cs.name, type: containerType(pod.spec, cs.name), restarts: 0, runs: [] };
      p.containers.set(cs.name, c);
    }
    c.restarts = cs.restartCount ?? 0;
    for (const state of [cs.lastState, cs.state]) {
      const s = state?.running ?? state?.terminated;
      const id = state?.terminated?.containerID ?? cs.containerID;
      if (!s || !id) continue;
      let run = c.runs.find((r) => r.id === id);
      if (!run) {
        run = { id, start: apiTime(s.startedAt, t0), end: null, exit_code: null, termination_message: null };
        c.runs.push(run);
        lines.push(`${name}: ${cs.name} started`);
      }
      const t = state?.terminated;
      if (t && run.exit_code === null) {
        run.end = apiTime(t.finishedAt, t0) ?? now;
        run.exit_code = t.exitCode;
        run.termination_message = t.message ?? null;
        lines.push(`${name}: ${cs.name} exited ${t.exitCode}`);
      }
    }
  }
  return lines;
}

/** When a pod's broker listened (rank 0) or connected to its parent, per the lead's log; seconds since t0. */
export interface DatedBroker {
  readonly listen?: number;
  readonly connects: number[];
}

/**
 * The lead's log events given to the pods they belong to: a rank's connection to the newest pod of
 * that index created by then, rank 0's listening to the newest lead created by then.
 */
export function datedBrokers(pods: PodSeen[], events: BrokerEvent[], t0: number): Map<string, DatedBroker> {
  const dated = new Map<string, { listen?: number; connects: number[] }>();
  for (const e of [...events].sort((a, b) => a.at - b.at)) {
    const t = secondsSince(t0, e.at);
    const pod = pods.filter((p) => p.index === e.rank && (p.times.created ?? 0) <= t + 1).at(-1);
    if (!pod) continue;
    const d = dated.get(pod.name) ?? { connects: [] };
    if (e.what === 'listening') d.listen ??= t;
    else d.connects.push(t);
    dated.set(pod.name, d);
  }
  return dated;
}

/**
 * podemu's record of a pod from what was seen; `logOf` names each run's log file (or undefined).
 * The broker's times come from the lead's log when `dated` has them, else from the pod's Ready times.
 */
export function podRecord(p: PodSeen, logOf: (container: string, run: number, runs: number) => string | undefined, dated?: DatedBroker, runner?: string): PodRecord {
  const connects = dated ? dated.connects : p.readyAt;
  const listen = dated ? dated.listen ?? null : p.readyAt[0] ?? null;
  const up = p.index === 0 ? listen : connects[0] ?? null;
  const broker: BrokerRecord = {
    rank: String(p.index),
    // The Flux container's start: the API shows no broker process. A run that ended with the view
    // check's code started none: that check is the runner's first step (image volume of a flux-views image).
    first_seen: (runner ? p.containers.get(runner)?.runs.find((r) => r.exit_code !== VIEW_CHECK_EXIT_CODE)?.start : undefined) ?? null,
    listen: p.index === 0 ? listen : null,
    connected_to_parent: p.index === 0 ? null : connects[0] ?? null,
    up,
    connects: p.index === 0 ? [] : connects,
  };
  return {
    index: p.index,
    pod: p.name,
    phase: p.phase,
    reason: p.reason,
    times: p.times,
    node: p.node,
    broker,
    containers: [...p.containers.values()].map((c) => ({
      name: c.name,
      type: c.type,
      restarts: c.restarts,
      runs: c.runs.map((r, i): ContainerRun => ({
        start: r.start,
        end: r.end,
        exit_code: r.exit_code,
        termination_message: r.termination_message,
        log: logOf(c.name, i, c.runs.length) ?? '',
      })),
    })),
  };
}

/** The Job's verdict: Succeeded or Failed from its conditions (reason and message), or undefined while it runs. */
export function jobVerdict(job: k8s.V1Job | undefined): { result: 'Succeeded' | 'Failed'; reason: string } | undefined {
  const conditions = job?.status?.conditions ?? [];
  const done = conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  // A Job whose failure is decided gets Failed only once every pod is terminal (1.31+): a pod stuck
  // Terminating on a lost node holds that back until the node is removed, so FailureTarget is the end.
  const failing = conditions.find((c) => c.type === 'FailureTarget' && c.status === 'True');
  if (!done && failing) return { result: 'Failed', reason: ['FailureTarget', failing.reason, failing.message].filter(Boolean).join(': ') };
  if (!done) return undefined;
  return { result: done.type === 'Complete' ? 'Succeeded' : 'Failed', reason: [done.reason, done.message].filter(Boolean).join(': ') };
}

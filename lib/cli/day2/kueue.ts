/**
 * Kueue's view of a queued MiniCluster: the Workload Kueue made for its Job. `status` shows it and
 * `wait` says why a cluster Kueue holds is not up (docs/day2.md, "Queued by Kueue").
 */
import type * as k8s from '@kubernetes/client-node';
import { KUEUE_GROUP, KUEUE_QUEUE_LABEL, KUEUE_SLICE_REPLACEMENT_ANNOTATION, KUEUE_VERSION } from '../../core/kueue-contract';
import { Kube } from './kube';

/** Kueue 0.17 stores v1beta2 and still serves v1beta1, whose Workload status has the same conditions. */
const VERSIONS = [KUEUE_VERSION, 'v1beta1'];

/**
 * Where Kueue holds the cluster: `Queued` (waiting for quota), `Inadmissible` (it cannot be
 * admitted as things are: no such LocalQueue, a stopped queue), `Reserved` (quota reserved, admission
 * checks pending), `Admitted`, `Preempted` or `Evicted` (its pods are stopped; it waits to be admitted
 * again), `Finished`, `NoWorkload` (Kueue made none: not running, or not managing the namespace),
 * `Unknown` (the Workloads could not be read).
 */
export type QueueState = 'Queued' | 'Inadmissible' | 'Reserved' | 'Admitted' | 'Preempted' | 'Evicted' | 'Finished' | 'NoWorkload' | 'Unknown';

export interface QueueStatus {
  readonly localQueue: string;
  readonly clusterQueue: string | null;
  readonly workload: string | null;
  readonly state: QueueState;
  /** Kueue's reason and message for that state (the condition's). */
  readonly reason: string | null;
  readonly message: string | null;
  /** Since when (the condition's lastTransitionTime). */
  readonly since: string | null;
  /** While preempted or evicted: why it is not admitted again yet (its QuotaReserved condition). */
  readonly waiting: string | null;
  /** Evictions so far (preemptions included), from the Workload's scheduling stats. */
  readonly evictions: number;
  /** The Workload is a resize of a running elastic Job (a new slice): the running brokers go on meanwhile. */
  readonly resize: boolean;
}

/** What was read: the Job's Workloads, or why none could be. */
export type WorkloadRead = { readonly workloads: any[] } | { readonly error: string };

/** The Workloads Kueue made for `job` (owned by it); `undefined` when the Job is not queued. */
export async function readWorkloads(kube: Kube, job: k8s.V1Job): Promise<WorkloadRead | undefined> {
  if (job.metadata?.labels?.[KUEUE_QUEUE_LABEL] === undefined) return undefined;
  let last = '';
  for (const version of VERSIONS) {
    try {
      const list: any = await kube.custom.listNamespacedCustomObject({ group: KUEUE_GROUP, version, namespace: kube.namespace, plural: 'workloads' });
      const uid = job.metadata?.uid;
      return { workloads: (list.items ?? []).filter((w: any) => (w.metadata?.ownerReferences ?? []).some((o: any) => o.uid === uid)) };
    } catch (e) {
      const code = (e as { code?: number }).code;
      last = code === 403
        ? 'forbidden: your account may not list workloads.kueue.x-k8s.io in this namespace'
        : code === 404 ? 'the API server serves no Kueue Workloads (Kueue is not installed)' : `cannot list Kueue Workloads: ${(e as Error).message}`;
      if (code !== 404) break;
    }
  }
  return { error: last };
}

/** Kueue's view of the Job from what was read; `undefined` when the Job is not queued. */
export function queueStatus(job: k8s.V1Job, read: WorkloadRead | undefined): QueueStatus | undefined {
  const localQueue = job.metadata?.labels?.[KUEUE_QUEUE_LABEL];
  if (localQueue === undefined || read === undefined) return undefined;
  const none = { clusterQueue: null, workload: null, reason: null, since: null, waiting: null, evictions: 0, resize: false };
  if ('error' in read) return { localQueue, ...none, state: 'Unknown', message: read.error };
  // A resized elastic Job has a new slice beside the old one, which is Finished (replaced).
  const byAge = [...read.workloads].sort((a, b) => String(a.metadata?.creationTimestamp).localeCompare(String(b.metadata?.creationTimestamp)));
  const w = [...byAge].reverse().find((x) => !isTrue(x, 'Finished')) ?? byAge.at(-1);
  if (!w) return { localQueue, ...none, state: 'NoWorkload', message: null };
  const evictions = (w.status?.schedulingStats?.evictions ?? []).reduce((n: number, e: any) => n + (Number(e.count) || 0), 0);
  const resize = w.metadata?.annotations?.[KUEUE_SLICE_REPLACEMENT_ANNOTATION] !== undefined;
  const base = { localQueue, clusterQueue: w.status?.admission?.clusterQueue ?? null, workload: w.metadata?.name ?? null, evictions, resize };
  const reserved = condition(w, 'QuotaReserved');
  const [state, c] = stateOf(w);
  const waiting = (state === 'Preempted' || state === 'Evicted') && reserved?.status === 'False' ? reserved.message ?? reserved.reason ?? null : null;
  return { ...base, state, reason: c?.reason ?? null, message: c?.message ?? null, since: c?.lastTransitionTime ?? null, waiting };
}

function stateOf(w: any): [QueueState, any] {
  if (isTrue(w, 'Finished')) return ['Finished', condition(w, 'Finished')];
  const evicted = condition(w, 'Evicted');
  if (evicted?.status === 'True') return [evicted.reason === 'Preempted' ? 'Preempted' : 'Evicted', evicted];
  if (isTrue(w, 'Admitted')) return ['Admitted', condition(w, 'Admitted')];
  const reserved = condition(w, 'QuotaReserved');
  if (reserved?.status === 'True') return ['Reserved', reserved];
  return [reserved?.reason === 'Inadmissible' ? 'Inadmissible' : 'Queued', reserved];
}

function condition(w: any, type: string): any {
  return (w.status?.conditions ?? []).find((c: any) => c.type === type);
}

function isTrue(w: any, type: string): boolean {
  return condition(w, type)?.status === 'True';
}

/** The problem line for a cluster Kueue holds (none once admitted or finished). */
export function queueProblem(q: QueueStatus | undefined, jobSuspended: boolean): string | undefined {
  if (!q) return undefined;
  const queue = `LocalQueue '${q.localQueue}'${q.clusterQueue ? ` (ClusterQueue '${q.clusterQueue}')` : ''}`;
  const kueue = (x: string | null): string => (x ? `: ${x}` : '');
  switch (q.state) {
    case 'Queued':
      if (q.resize) return `Kueue has not admitted the resize yet in ${queue}${kueue(q.message)}; the running brokers go on, and the new pods wait (SchedulingGated)`;
      return `queued by Kueue in ${queue}, not admitted yet${kueue(q.message)}`;
    case 'Inadmissible':
      return `Kueue cannot admit it from ${queue} (Inadmissible)${kueue(q.message)}`;
    case 'Reserved':
      return `Kueue reserved quota in ${queue}; admission checks pending${kueue(q.message)}`;
    case 'Preempted':
    case 'Evicted':
      return `${q.state === 'Preempted' ? 'preempted' : `evicted (${q.reason ?? 'no reason'})`} by Kueue${q.since ? ` at ${q.since}` : ''}${kueue(q.message)}; `
        + `its pods are stopped and it waits to be admitted again${q.waiting ? ` (${q.waiting})` : ''}, then starts a new Flux instance and runs its work from the beginning`;
    case 'NoWorkload':
      return jobSuspended ? `the Job names LocalQueue '${q.localQueue}' but Kueue made no Workload for it: Kueue is not running, or does not manage this namespace; the Job stays suspended` : undefined;
    case 'Unknown':
      return jobSuspended ? `the Job waits for Kueue (LocalQueue '${q.localQueue}'), whose Workloads cannot be read: ${q.message}` : undefined;
    default:
      return undefined;
  }
}

/**
 * The status of a MiniCluster, computed from its Job and pods as the API returns them: the JSON
 * `status -o json` prints (schema in docs/day2.md) and what the table shows. Pure: no requests.
 */
import type * as k8s from '@kubernetes/client-node';
import { AUTOSCALE_ANNOTATION, MAX_SIZE_ANNOTATION, MIN_SIZE_ANNOTATION, SIZE_ANNOTATION } from '../../core/day2-contract';
import { HANDSHAKE_CONTAINER } from '../../core/handshake-contract';
import { ENTRYPOINT_MOUNT_DIR } from '../../core/paths';
import { clusterNameOf, podsByRank, time } from './cluster';
import { explainContainer, explainJobFailure, explainPod } from './explain';
import { QueueStatus, queueProblem } from './kueue';
import { NodeFactsByName, nodeLossProblem } from './node-loss';

/** The schema's version: fields are only added within one version. */
export const STATUS_API_VERSION = 'cdk8s-minicluster/v1';

export type ClusterState = 'Pending' | 'Starting' | 'Up' | 'Suspended' | 'Failing' | 'Failed' | 'Complete';

export interface RankStatus {
  readonly rank: number;
  readonly pod: string;
  readonly phase: string;
  /** The pod's Ready condition: for a worker, its broker is connected to its parent; for the lead, the instance is up. */
  readonly ready: boolean;
  /** Restarts of all the pod's containers. */
  readonly restarts: number;
  readonly ip: string | null;
  readonly node: string | null;
  /** The Flux container: `running`, `waiting: <reason>`, `terminated: exit <code>` or `absent`. */
  readonly flux: string;
  /** What is wrong with this rank, in words (absent when nothing is). */
  readonly problems?: string[];
}

export interface ClusterStatus {
  readonly apiVersion: string;
  readonly kind: 'MiniClusterStatus';
  /** The cluster's name (`app.kubernetes.io/instance`). */
  readonly name: string;
  readonly job: string;
  readonly namespace: string;
  readonly state: ClusterState;
  readonly elastic: boolean;
  readonly size: { readonly current: number; readonly min: number | null; readonly max: number | null; readonly synthesized: number | null };
  /** Ranks whose pod is Ready (brokers connected), of the ranks the Job runs now (parallelism). */
  readonly brokers: { readonly up: number; readonly expected: number };
  readonly conditions: Array<{ type: string; status: string; reason: string | null; message: string | null; lastTransitionTime: string | null }>;
  readonly ranks: RankStatus[];
  /** The Job's failure and every rank's problems, in words. */
  readonly problems: string[];
  /** The autoscaler's last decision (its Job annotation), when the cluster is autoscaled and it decided something yet. */
  readonly autoscaler?: AutoscalerDecision;
  /** Kueue's view, when the Job names a LocalQueue: its Workload's state, Kueue's reason and message. */
  readonly queue?: QueueStatus;
}

/** What the autoscaler decided last, when and why (the Job's AUTOSCALE_ANNOTATION). */
export interface AutoscalerDecision {
  readonly time: string;
  readonly action: string;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

/** The autoscaler's last decision, from its annotation; a value that is not one is shown as it is. */
export function autoscalerDecision(job: k8s.V1Job): AutoscalerDecision | undefined {
  const text = job.metadata?.annotations?.[AUTOSCALE_ANNOTATION];
  if (text === undefined) return undefined;
  try {
    const d = JSON.parse(text);
    if (typeof d?.action === 'string' && typeof d?.reason === 'string' && Number.isInteger(d?.from) && Number.isInteger(d?.to)) {
      return { time: String(d.time ?? ''), action: d.action, from: d.from, to: d.to, reason: d.reason };
    }
  } catch {
    // shown as it is below
  }
  return { time: '', action: 'unknown', from: 0, to: 0, reason: `unreadable annotation ${AUTOSCALE_ANNOTATION}: ${text.slice(0, 200)}` };
}

/** Extra per-pod detail fetched only for pods stuck before their containers run (events). */
export type PodWarnings = Map<string, Array<{ reason?: string; message?: string }>>;

/** The name of the Flux container: the one that runs the entrypoint script. */
export function fluxContainerName(job: k8s.V1Job): string {
  const containers = job.spec?.template?.spec?.containers ?? [];
  const runner = containers.find((c) => (c.command ?? []).includes(`${ENTRYPOINT_MOUNT_DIR}/entrypoint.sh`));
  return (runner ?? containers[0])?.name ?? '';
}

function annotationNumber(job: k8s.V1Job, key: string): number | null {
  const v = job.metadata?.annotations?.[key];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
}

/** minSize and maxSize as the Job records them (null when synthesized before they were recorded). */
export function sizeLimits(job: k8s.V1Job): { min: number | null; max: number | null; synthesized: number | null } {
  return { min: annotationNumber(job, MIN_SIZE_ANNOTATION), max: annotationNumber(job, MAX_SIZE_ANNOTATION), synthesized: annotationNumber(job, SIZE_ANNOTATION) };
}

function conditionTrue(job: k8s.V1Job, type: string): k8s.V1JobCondition | undefined {
  return (job.status?.conditions ?? []).find((c) => c.type === type && c.status === 'True');
}

function iso(t: Date | string | undefined): string | null {
  return t === undefined ? null : new Date(time(t)).toISOString();
}

export function clusterStatus(job: k8s.V1Job, pods: k8s.V1Pod[], warnings: PodWarnings = new Map(), nodes: NodeFactsByName = new Map(), now = Date.now(), queue?: QueueStatus): ClusterStatus {
  const fluxName = fluxContainerName(job);
  const byRank = podsByRank(pods);
  const ranks: RankStatus[] = [...byRank.entries()].map(([rank, pod]) => {
    const lost = nodeLossProblem(pod, nodes.get(pod.spec?.nodeName ?? ''), now);
    return rankStatus(rank, pod, fluxName, warnings.get(pod.metadata?.name ?? '') ?? [], lost ? [lost] : []);
  });
  const current = job.spec?.parallelism ?? 1;
  const limits = sizeLimits(job);
  const up = ranks.filter((r) => r.ready && r.rank < current).length;
  const problems: string[] = [];
  const decision = autoscalerDecision(job);
  const failed = conditionTrue(job, 'Failed') ?? conditionTrue(job, 'FailureTarget');
  if (failed) problems.push(explainJobFailure(job, failed));
  const queued = queueProblem(queue, job.spec?.suspend === true);
  if (queued) problems.push(queued);
  for (const r of ranks) for (const p of r.problems ?? []) problems.push(`rank ${r.rank}: ${p}`);
  return {
    apiVersion: STATUS_API_VERSION,
    kind: 'MiniClusterStatus',
    name: clusterNameOf(job),
    job: job.metadata?.name ?? '',
    namespace: job.metadata?.namespace ?? '',
    state: stateOf(job, byRank.size, ranks.find((r) => r.rank === 0)),
    elastic: limits.max !== null && limits.min !== null && limits.max > limits.min,
    size: { current, ...limits },
    brokers: { up, expected: current },
    conditions: (job.status?.conditions ?? []).map((c) => ({
      type: c.type, status: c.status, reason: c.reason ?? null, message: c.message ?? null, lastTransitionTime: iso(c.lastTransitionTime),
    })),
    ranks,
    problems,
    ...(decision ? { autoscaler: decision } : {}),
    ...(queue ? { queue } : {}),
  };
}

function stateOf(job: k8s.V1Job, podCount: number, lead: RankStatus | undefined): ClusterState {
  if (conditionTrue(job, 'Failed')) return 'Failed';
  if (conditionTrue(job, 'Complete') || conditionTrue(job, 'SuccessCriteriaMet')) return 'Complete';
  if (conditionTrue(job, 'FailureTarget')) return 'Failing';
  if (job.spec?.suspend) return 'Suspended';
  if (lead?.ready) return 'Up';
  return podCount === 0 ? 'Pending' : 'Starting';
}

function rankStatus(rank: number, pod: k8s.V1Pod, fluxName: string, warnings: Array<{ reason?: string; message?: string }>, nodeProblems: string[]): RankStatus {
  const s = pod.status ?? {};
  const statuses = [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])];
  const flux = statuses.find((c) => c.name === fluxName);
  const handshake = statuses.find((c) => c.name === HANDSHAKE_CONTAINER);
  const problems = [
    ...nodeProblems,
    ...explainPod(pod, warnings),
    ...statuses.flatMap((c) => explainContainer(c, { flux: c.name === fluxName, handshake: c.name === HANDSHAKE_CONTAINER, handshakeStatus: handshake })),
  ];
  return {
    rank,
    pod: pod.metadata?.name ?? '',
    phase: s.phase ?? 'Unknown',
    ready: (s.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    restarts: statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0),
    ip: s.podIP ?? null,
    node: pod.spec?.nodeName ?? null,
    flux: containerState(flux),
    ...(problems.length ? { problems: [...new Set(problems)] } : {}),
  };
}

function containerState(c: k8s.V1ContainerStatus | undefined): string {
  if (!c) return 'absent';
  if (c.state?.running) return 'running';
  if (c.state?.terminated) return `terminated: exit ${c.state.terminated.exitCode}`;
  if (c.state?.waiting) return `waiting: ${c.state.waiting.reason ?? 'unknown'}`;
  return 'unknown';
}

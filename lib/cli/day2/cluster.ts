/** Finds MiniClusters (their Jobs, by the library's labels) and their pods. */
import type * as k8s from '@kubernetes/client-node';
import { COMPLETION_INDEX_LABEL, JOB_SELECTOR } from '../../core/day2-contract';
import { CLUSTER_LABEL } from '../../constructs/private/labels';
import { Day2Error, EXIT } from './errors';
import { Kube, request } from './kube';

/** The cluster name a Job belongs to (several run Jobs of one cluster share it). */
export function clusterNameOf(job: k8s.V1Job): string {
  return job.metadata?.labels?.['app.kubernetes.io/instance'] ?? job.metadata?.name ?? '';
}

/** Every MiniCluster Job of the namespace, by name. */
export async function listClusterJobs(kube: Kube): Promise<k8s.V1Job[]> {
  const list = await request(kube, { verb: 'list', resource: 'jobs' }, () => kube.batch.listNamespacedJob({ namespace: kube.namespace, labelSelector: JOB_SELECTOR }));
  return [...list.items].sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

/**
 * The Job of MiniCluster `name`: the Job of that name, else the newest Job of the cluster of that
 * name (a cluster with content-hashed or run-suffixed Job names). Lists the namespace's clusters
 * when there is none.
 */
export async function findClusterJob(kube: Kube, name: string): Promise<k8s.V1Job> {
  const jobs = await listClusterJobs(kube);
  const exact = jobs.find((j) => j.metadata?.name === name);
  if (exact) return exact;
  const runs = jobs.filter((j) => clusterNameOf(j) === name).sort((a, b) => time(b.metadata?.creationTimestamp) - time(a.metadata?.creationTimestamp));
  if (runs.length > 0) return runs[0];
  const known = [...new Set(jobs.map((j) => j.metadata!.name!))];
  throw new Day2Error(EXIT.NOT_FOUND, `no MiniCluster '${name}' in namespace '${kube.namespace}'; `
    + (known.length ? `the namespace has: ${known.join(', ')}` : 'the namespace has none (no Job labelled app.kubernetes.io/managed-by=cdk8s-minicluster)'));
}

/** The pods of a MiniCluster Job. */
export async function listClusterPods(kube: Kube, jobName: string): Promise<k8s.V1Pod[]> {
  const list = await request(kube, { verb: 'list', resource: 'pods' }, () => kube.core.listNamespacedPod({ namespace: kube.namespace, labelSelector: `${CLUSTER_LABEL}=${jobName}` }));
  return list.items;
}

/** Pod events that explain a pod stuck before its containers start (FailedMount, ...); none if not allowed. */
export async function listPodWarnings(kube: Kube, podName: string): Promise<k8s.CoreV1Event[]> {
  return listPodEvents(kube, podName, 'Warning');
}

/** A pod's events (of one type, or all: the cluster autoscaler's are Normal); none if not allowed. */
export async function listPodEvents(kube: Kube, podName: string, type?: string): Promise<k8s.CoreV1Event[]> {
  try {
    const list = await kube.core.listNamespacedEvent({ namespace: kube.namespace, fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${podName}${type ? `,type=${type}` : ''}` });
    return list.items;
  } catch {
    // Events only add detail: an account that may not list them still gets the status.
    return [];
  }
}

/** The rank (completion index) of a pod, or undefined. */
export function rankOf(pod: k8s.V1Pod): number | undefined {
  const v = pod.metadata?.labels?.[COMPLETION_INDEX_LABEL] ?? pod.metadata?.annotations?.[COMPLETION_INDEX_LABEL];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/**
 * The pod that stands for each rank: of several pods of one index (a replaced pod and its
 * replacement), the newest that has not ended, else the newest.
 */
export function podsByRank(pods: k8s.V1Pod[]): Map<number, k8s.V1Pod> {
  const out = new Map<number, k8s.V1Pod>();
  const score = (p: k8s.V1Pod): [number, number] => [isEnded(p) || p.metadata?.deletionTimestamp ? 0 : 1, time(p.metadata?.creationTimestamp)];
  for (const pod of pods) {
    const rank = rankOf(pod);
    if (rank === undefined) continue;
    const best = out.get(rank);
    const [a, b] = [score(pod), best ? score(best) : [-1, -1]];
    if (!best || a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])) out.set(rank, pod);
  }
  return new Map([...out.entries()].sort(([a], [b]) => a - b));
}

/** The pod of `rank`, or a NOT_FOUND error naming the ranks that have one. */
export async function podOfRank(kube: Kube, job: k8s.V1Job, rank: number): Promise<k8s.V1Pod> {
  const byRank = podsByRank(await listClusterPods(kube, job.metadata!.name!));
  const pod = byRank.get(rank);
  if (!pod) {
    throw new Day2Error(EXIT.NOT_FOUND, `MiniCluster '${job.metadata!.name}' has no pod of rank ${rank} (pods exist for ranks: ${[...byRank.keys()].join(', ') || 'none'})`);
  }
  return pod;
}

export function isEnded(pod: k8s.V1Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** When an event was last seen: its lastTimestamp, series or eventTime (events.k8s.io writers set only the latter). */
export function eventTime(e: k8s.CoreV1Event): number {
  return Math.max(time(e.lastTimestamp), time(e.series?.lastObservedTime), time(e.eventTime), time(e.firstTimestamp));
}

/**
 * When the newest container of the pod started (0: none has). Every volume is mounted before the
 * first container starts, so a mount or sandbox warning older than this is resolved.
 */
export function lastContainerStart(pod: k8s.V1Pod): number {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return Math.max(0, ...statuses.map((c) => Math.max(time(c.state?.running?.startedAt), time(c.state?.terminated?.startedAt))));
}

/** Milliseconds of a timestamp the client gives as a Date (or, in a raw object, a string). */
export function time(t: Date | string | null | undefined): number {
  // A real API server sends null for the times an event does not have (lastTimestamp of an event
  // made through events.k8s.io, eventTime of a core one).
  if (t === undefined || t === null) return 0;
  const ms = typeof t === 'string' ? Date.parse(t) : t.getTime();
  return Number.isNaN(ms) ? 0 : ms;
}

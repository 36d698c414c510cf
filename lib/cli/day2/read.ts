/** Reads a cluster's status from the API: its Job, its pods and, for stuck pods, their warnings. */
import type * as k8s from '@kubernetes/client-node';
import { eventTime, isEnded, lastContainerStart, listClusterPods, listPodWarnings } from './cluster';
import { Kube, request } from './kube';
import { ClusterStatus, clusterStatus, PodWarnings } from './model';
import { queueStatus, readWorkloads } from './kueue';
import { NodeFactsByName, readNodeFacts } from './node-loss';

/** Pods whose events are read at most (events are only detail). */
const MAX_EVENT_READS = 16;

/** The Job as it is now. */
export async function readJob(kube: Kube, name: string): Promise<k8s.V1Job> {
  return request(kube, { verb: 'get', resource: 'jobs', name }, () => kube.batch.readNamespacedJob({ name, namespace: kube.namespace }));
}

/** The status of the cluster of `job` (re-read with `fresh`). */
export async function readStatus(kube: Kube, job: k8s.V1Job, fresh = false): Promise<ClusterStatus> {
  return (await readCluster(kube, job, fresh)).status;
}

/** The status of the cluster of `job`, and its pods as the API returned them. */
export async function readCluster(kube: Kube, job: k8s.V1Job, fresh = false): Promise<{ status: ClusterStatus; pods: k8s.V1Pod[]; nodes: NodeFactsByName }> {
  const current = fresh ? await readJob(kube, job.metadata!.name!) : job;
  const pods = await listClusterPods(kube, current.metadata!.name!);
  const warnings: PodWarnings = new Map();
  // A pod Pending with its containers still waiting to be created may be stuck on a volume mount,
  // which only its events tell.
  const stuck = pods.filter((p) => !isEnded(p) && p.status?.phase === 'Pending' && p.spec?.nodeName).slice(0, MAX_EVENT_READS);
  for (const pod of stuck) {
    // A warning from before a container started (the certificate Secret's FailedMount before the
    // certificate Job made it) is resolved: not a current problem.
    const current = (await listPodWarnings(kube, pod.metadata!.name!)).filter((e) => eventTime(e) >= lastContainerStart(pod) || eventTime(e) === 0);
    warnings.set(pod.metadata!.name!, current.map((e) => ({ reason: e.reason, message: e.message })));
  }
  // The nodes of live pods that are not Ready: one of them may have stopped answering.
  const suspect = pods.filter((p) => !isEnded(p) && p.spec?.nodeName && !(p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'));
  const nodes = await readNodeFacts(kube, suspect.map((p) => p.spec!.nodeName!));
  const queue = queueStatus(current, await readWorkloads(kube, current));
  return { status: clusterStatus(current, pods, warnings, nodes, Date.now(), queue), pods, nodes };
}

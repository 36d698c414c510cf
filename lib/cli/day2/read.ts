/** Reads a cluster's status from the API: its Job, its pods and, for stuck pods, their warnings. */
import type * as k8s from '@kubernetes/client-node';
import { isEnded, listClusterPods, listPodWarnings } from './cluster';
import { Kube, request } from './kube';
import { ClusterStatus, clusterStatus, PodWarnings } from './model';

/** Pods whose events are read at most (events are only detail). */
const MAX_EVENT_READS = 16;

/** The Job as it is now. */
export async function readJob(kube: Kube, name: string): Promise<k8s.V1Job> {
  return request(kube, { verb: 'get', resource: 'jobs', name }, () => kube.batch.readNamespacedJob({ name, namespace: kube.namespace }));
}

/** The status of the cluster of `job` (re-read with `fresh`). */
export async function readStatus(kube: Kube, job: k8s.V1Job, fresh = false): Promise<ClusterStatus> {
  const current = fresh ? await readJob(kube, job.metadata!.name!) : job;
  const pods = await listClusterPods(kube, current.metadata!.name!);
  const warnings: PodWarnings = new Map();
  // A pod Pending with its containers still waiting to be created may be stuck on a volume mount,
  // which only its events tell.
  const stuck = pods.filter((p) => !isEnded(p) && p.status?.phase === 'Pending' && p.spec?.nodeName).slice(0, MAX_EVENT_READS);
  for (const pod of stuck) {
    warnings.set(pod.metadata!.name!, (await listPodWarnings(kube, pod.metadata!.name!)).map((e) => ({ reason: e.reason, message: e.message })));
  }
  return clusterStatus(current, pods, warnings);
}

/** What a MiniCluster queued by Kueue carries for Kueue (docs/production.md, "Queued by Kueue"). */
import { MiniClusterProps } from '../mini-cluster-props';
import { KUEUE_QUEUE_LABEL } from './gitops';

/**
 * Kueue's elastic Jobs (gate ElasticJobsViaWorkloadSlices): a change of parallelism becomes a new
 * Workload slice, admitted within quota, instead of a deleted Workload and a suspended Job. Kueue
 * reads it only when the Job is created; without the gate it ignores it.
 */
export const KUEUE_ELASTIC_JOB_ANNOTATION = 'kueue.x-k8s.io/elastic-job';

/** Whether Kueue queues the Job: queueName, or its label set by hand. */
export function isQueued(props: MiniClusterProps): boolean {
  return props.queueName !== undefined || props.jobLabels?.[KUEUE_QUEUE_LABEL] !== undefined;
}

/** The Job annotations for Kueue: the elastic-job one when a queued cluster can change its size. */
export function kueueJobAnnotations(props: MiniClusterProps, size: { size: number; minSize?: number; maxSize: number }): Record<string, string> {
  const elastic = size.maxSize > Math.min(size.minSize ?? size.size, size.size);
  return isQueued(props) && elastic ? { [KUEUE_ELASTIC_JOB_ANNOTATION]: 'true' } : {};
}

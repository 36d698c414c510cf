/** What a MiniCluster queued by Kueue carries for Kueue (docs/production.md, "Queued by Kueue"). */
import { MiniClusterProps } from '../mini-cluster-props';
import { KUEUE_ELASTIC_JOB_ANNOTATION, KUEUE_QUEUE_LABEL } from '../../core/kueue-contract';

/** Whether Kueue queues the Job: queueName, or its label set by hand. */
export function isQueued(props: MiniClusterProps): boolean {
  return props.queueName !== undefined || props.jobLabels?.[KUEUE_QUEUE_LABEL] !== undefined;
}

/** The Job annotations for Kueue: the elastic-job one when a queued cluster can change its size. */
export function kueueJobAnnotations(props: MiniClusterProps, size: { size: number; minSize?: number; maxSize: number }): Record<string, string> {
  const elastic = size.maxSize > Math.min(size.minSize ?? size.size, size.size);
  return isQueued(props) && elastic ? { [KUEUE_ELASTIC_JOB_ANNOTATION]: 'true' } : {};
}

/**
 * What the output, the day-2 commands and `check` share with Kueue: its API group and the version
 * read (Kueue 0.17 stores v1beta2), the Job label that names a LocalQueue, and its annotations.
 */

export const KUEUE_GROUP = 'kueue.x-k8s.io';
export const KUEUE_VERSION = 'v1beta2';
/** The Job label that names the LocalQueue (the prop `queueName`). */
export const KUEUE_QUEUE_LABEL = 'kueue.x-k8s.io/queue-name';
/**
 * Kueue's elastic Jobs (gate ElasticJobsViaWorkloadSlices): a change of parallelism becomes a new
 * Workload slice, admitted within quota, instead of a deleted Workload and a suspended Job. Kueue
 * reads it only when the Job is created; without the gate it ignores it.
 */
export const KUEUE_ELASTIC_JOB_ANNOTATION = 'kueue.x-k8s.io/elastic-job';
/** On a Workload slice that replaces another: a resize of an elastic Job. */
export const KUEUE_SLICE_REPLACEMENT_ANNOTATION = 'kueue.x-k8s.io/workload-slice-replacement-for';

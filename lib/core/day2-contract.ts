/**
 * What the day-2 command (`cdk8s-minicluster status|wait|logs|scale|flux`, also installed as the
 * kubectl plugin `kubectl-minicluster`) reads from a running MiniCluster's objects: the labels it
 * finds them by and the annotations the Job carries. The constructs write them, the command reads
 * them; both import these names. See docs/day2.md.
 */

/** Annotation: brokers the Job was synthesized to start (`size`). */
export const SIZE_ANNOTATION = 'flux-framework.org/size';
/** Annotation: brokers the instance needs to be up (`minSize`, Flux's `broker.quorum`; default size). */
export const MIN_SIZE_ANNOTATION = 'flux-framework.org/min-size';
/** Annotation: hosts in the Flux hosts list (`maxSize`): the most brokers the Job can grow to. */
export const MAX_SIZE_ANNOTATION = 'flux-framework.org/max-size';
/** Annotation: the file that sets up the Flux environment in the Flux container (`. FILE`). */
export const FLUX_VIEW_ANNOTATION = 'flux-framework.org/flux-view';

/**
 * Annotation: the Kubernetes minor version the Job was synthesized for (`kubernetesVersion`), which
 * decides the Job and pod fields it uses; `check` holds it against the server's version.
 */
export const KUBERNETES_VERSION_ANNOTATION = 'flux-framework.org/kubernetes-version';

/** Labels of a MiniCluster's Job (with `app.kubernetes.io/instance: <cluster name>`). */
export const JOB_SELECTOR = 'app.kubernetes.io/managed-by=cdk8s-minicluster,app.kubernetes.io/component=job';
/** Label the Job controller puts on each pod of an Indexed Job: its index, the broker's rank. */
export const COMPLETION_INDEX_LABEL = 'batch.kubernetes.io/job-completion-index';

/** The Job's day-2 annotations. */
export function day2Annotations(o: { size: number; minSize: number; maxSize: number; fluxView: string; kubernetesVersion: string }): Record<string, string> {
  return {
    [FLUX_VIEW_ANNOTATION]: o.fluxView,
    [KUBERNETES_VERSION_ANNOTATION]: o.kubernetesVersion,
    [MAX_SIZE_ANNOTATION]: String(o.maxSize),
    [MIN_SIZE_ANNOTATION]: String(o.minSize),
    [SIZE_ANNOTATION]: String(o.size),
  };
}

/**
 * Annotation: the autoscaler's last decision (`autoscale` prop), as JSON `{"time","action","from",
 * "to","reason"}`, written by the autoscaler with each resize and drain; `status` shows it.
 */
export const AUTOSCALE_ANNOTATION = 'flux-framework.org/autoscaler';

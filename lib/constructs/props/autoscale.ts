/** Props of the autoscaler of an elastic MiniCluster (docs/production.md, "Autoscaling"). */

/**
 * The autoscaler: the cluster grows, up to maxSize, when jobs wait in Flux's queue for nodes, and
 * shrinks, down to minSize (or size), once its top brokers have been idle for `idleSeconds`. It
 * drains brokers in Flux before the Job gives them up, so no running job is ever stopped. It runs
 * inside the cluster (a sidecar of the lead pod), and may only get and patch this cluster's Job.
 */
export interface AutoscaleOptions {
  /**
   * Seconds a broker must have run no job before the cluster gives it up.
   * @default 60
   */
  readonly idleSeconds?: number;
  /**
   * Seconds between two decisions (and two reads of Flux's state when jobs changed).
   * @default 2
   */
  readonly periodSeconds?: number;
  /** Image that runs the bundled autoscaler with node (>= 18). @default DEFAULT_NODE_IMAGE */
  readonly image?: string;
}

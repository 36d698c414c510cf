/** Props of where a MiniCluster's pods land: brokers per node, and zones (docs/production.md, "Placement"). */

/** How many broker pods of the cluster share a node. */
export enum BrokersPerNode {
  /**
   * One broker per node where the scheduler can (a preferred pod anti-affinity on
   * `kubernetes.io/hostname`, weight 100, as the Flux Operator sets): more pods than free nodes
   * still run, two or more to a node.
   */
  ONE_PREFERRED = 'one-preferred',
  /**
   * At most one broker per node (a required pod anti-affinity on `kubernetes.io/hostname`): a pod
   * for which no node is free stays Pending, and the cluster's quorum waits for it. For MPI ranks
   * that each want a whole node.
   */
  ONE_REQUIRED = 'one-required',
  /**
   * As few nodes as possible (a preferred pod affinity on `kubernetes.io/hostname`): brokers
   * share a node while it has room, for jobs that talk more than they compute.
   */
  PACKED = 'packed',
  /** No rule: the scheduler places each pod on its own criteria. */
  ANY = 'any',
}

/** How the cluster's pods are placed across zones (the nodes' `topology.kubernetes.io/zone` label). */
export enum ZonePlacement {
  /**
   * One zone where the scheduler can (a preferred pod affinity on `topology.kubernetes.io/zone`,
   * weight 100, as the Flux Operator sets).
   */
  SAME_PREFERRED = 'same-preferred',
  /**
   * All pods in one zone (a required pod affinity on `topology.kubernetes.io/zone`): the first pod
   * goes to any zone, the others follow it, and stay Pending when its zone has no room left. Only
   * nodes that carry the zone label take the pods: on a cluster without it every pod stays Pending.
   */
  SAME_REQUIRED = 'same-required',
  /**
   * Spread evenly over the zones (a topology spread constraint on `topology.kubernetes.io/zone`,
   * maxSkew 1, ScheduleAnyway): for a cluster that should survive the loss of a zone in part,
   * at the cost of traffic between zones.
   */
  SPREAD = 'spread',
  /** No rule. */
  ANY = 'any',
}

/**
 * Where the cluster's pods land, as pod affinity rules on the Job's pods.
 * `network.disableAffinity: true` is the same as both ANY, and cannot be combined with a choice
 * that asks for a rule.
 */
export interface PlacementOptions {
  /**
   * How many brokers share a node.
   * @default BrokersPerNode.ONE_PREFERRED
   */
  readonly brokersPerNode?: BrokersPerNode;
  /**
   * How the pods are placed across zones.
   * @default ZonePlacement.SAME_PREFERRED
   */
  readonly zones?: ZonePlacement;
}

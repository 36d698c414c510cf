/**
 * Where the pods land (props `placement`, `network.disableAffinity`): the resolved choices, the pod
 * affinity terms and topology spread constraint each one writes, and their validation rules.
 */
import type { PodAffinityTerm, TopologySpreadConstraint, WeightedPodAffinityTerm } from 'kubernetes-types-1.30/core/v1';
import { MiniClusterProps } from '../mini-cluster-props';
import { BrokersPerNode, ZonePlacement } from '../props/placement';
import { CLUSTER_LABEL } from './labels';
import { PropRule, brokenRules } from './prop-rules';
import type { Violation } from './validate-mini-cluster-props';

const HOSTNAME_KEY = 'kubernetes.io/hostname';
const ZONE_KEY = 'topology.kubernetes.io/zone';
/**
 * The Job controller's pod label, unique to one Job (Kubernetes 1.27+). A spread constraint that
 * matches it counts only this Job's pods, not those of an earlier Job of the same name still
 * terminating (matchLabelKeys: beta, on by default, 1.27, the oldest target).
 */
const JOB_UID_LABEL = 'batch.kubernetes.io/controller-uid';

/** The placement choices with their defaults applied. */
export interface ResolvedPlacement {
  readonly brokersPerNode: BrokersPerNode;
  readonly zones: ZonePlacement;
}

/** disableAffinity (the operator's field) is both ANY; validation rejects it beside a choice that asks for a rule. */
export function resolvePlacement(props: MiniClusterProps): ResolvedPlacement {
  if (props.network?.disableAffinity) return { brokersPerNode: BrokersPerNode.ANY, zones: ZonePlacement.ANY };
  return {
    brokersPerNode: props.placement?.brokersPerNode ?? BrokersPerNode.ONE_PREFERRED,
    zones: props.placement?.zones ?? ZonePlacement.SAME_PREFERRED,
  };
}

/** The pod affinity terms and spread constraints of a placement; each list is empty when nothing asks for it. */
export interface PlacementRules {
  readonly affinityRequired: PodAffinityTerm[];
  readonly affinityPreferred: WeightedPodAffinityTerm[];
  readonly antiAffinityRequired: PodAffinityTerm[];
  readonly antiAffinityPreferred: WeightedPodAffinityTerm[];
  readonly topologySpreadConstraints: TopologySpreadConstraint[];
}

/**
 * The rules of `p` for the pods of cluster `name`. Zones come first so that the default writes the
 * operator's terms in the operator's order (the YAML of a MiniCluster without `placement` is unchanged).
 */
export function placementRules(p: ResolvedPlacement, name: string): PlacementRules {
  const labelSelector = { matchExpressions: [{ key: CLUSTER_LABEL, operator: 'In', values: [name] }] };
  const term = (topologyKey: string): PodAffinityTerm => ({ labelSelector, topologyKey });
  const preferred = (topologyKey: string): WeightedPodAffinityTerm => ({ weight: 100, podAffinityTerm: term(topologyKey) });
  const out: PlacementRules = { affinityRequired: [], affinityPreferred: [], antiAffinityRequired: [], antiAffinityPreferred: [], topologySpreadConstraints: [] };
  switch (p.zones) {
    case ZonePlacement.SAME_PREFERRED: out.affinityPreferred.push(preferred(ZONE_KEY)); break;
    // Affinity to the cluster's own pods: the first, with none to be near yet, is let through
    // because it matches its own selector (the scheduler's rule for the first pod of a series).
    case ZonePlacement.SAME_REQUIRED: out.affinityRequired.push(term(ZONE_KEY)); break;
    case ZonePlacement.SPREAD:
      out.topologySpreadConstraints.push({ maxSkew: 1, topologyKey: ZONE_KEY, whenUnsatisfiable: 'ScheduleAnyway', labelSelector, matchLabelKeys: [JOB_UID_LABEL] });
      break;
    case ZonePlacement.ANY: break;
  }
  switch (p.brokersPerNode) {
    case BrokersPerNode.ONE_PREFERRED: out.antiAffinityPreferred.push(preferred(HOSTNAME_KEY)); break;
    case BrokersPerNode.ONE_REQUIRED: out.antiAffinityRequired.push(term(HOSTNAME_KEY)); break;
    case BrokersPerNode.PACKED: out.affinityPreferred.push(preferred(HOSTNAME_KEY)); break;
    case BrokersPerNode.ANY: break;
  }
  return out;
}

const DISABLED = 'network.disableAffinity is true, which means no placement rule at all (the Flux Operator\'s field)';

/** The two choices of `placement`: each value must be one of its enum, and only ANY goes with disableAffinity. */
const CHOICES = [
  { prop: 'brokersPerNode', enumName: 'BrokersPerNode', values: Object.values(BrokersPerNode) as string[], any: BrokersPerNode.ANY },
  { prop: 'zones', enumName: 'ZonePlacement', values: Object.values(ZonePlacement) as string[], any: ZonePlacement.ANY },
] as const;

const RULES: PropRule[] = CHOICES.flatMap(({ prop, enumName, values, any }) => {
  const value = (p: MiniClusterProps): unknown => p.placement?.[prop];
  return [
    {
      path: `placement.${prop}`, value,
      broken: (p) => value(p) !== undefined && !values.includes(value(p) as string),
      rule: () => `must be one of ${values.join(', ')} (${enumName})`,
    },
    {
      path: `placement.${prop}`, value,
      broken: (p) => p.network?.disableAffinity === true && value(p) !== any && values.includes(value(p) as string),
      rule: () => `asks for a rule, but ${DISABLED}: drop network.disableAffinity, or set ${prop} to ${enumName}.ANY`,
    },
  ];
});

/** Every placement problem. */
export function placementViolations(props: MiniClusterProps): Violation[] {
  return brokenRules(RULES, props);
}

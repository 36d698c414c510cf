/** The Indexed Job of a MiniCluster, with the lifecycle fields its Kubernetes version supports. */
import type { Affinity, Container, PodAffinity, PodAffinityTerm, PodSpec, Toleration, Volume, WeightedPodAffinityTerm } from 'kubernetes-types-1.30/core/v1';
import { PodOptions } from '../props/pod';
import type { JobSpec, PodFailurePolicyRule } from 'kubernetes-types-1.30/batch/v1';
import { STOPPED_EXIT_CODE } from '../../core/runner-exit-codes';
import { sortKeys } from './labels';
import { clean } from './containers';
import { PlacementRules, placementRules } from './placement';
import { ResolvedMiniCluster } from './resolve';

/** Parts of the pod the MiniCluster composes. */
export interface PodParts {
  readonly initContainers: Container[];
  readonly containers: Container[];
  readonly volumes: Volume[];
  readonly labels: Record<string, string>;
  /** The pods' ServiceAccount, when the MiniCluster makes one (the autoscaler's). @default - pod.serviceAccountName */
  readonly serviceAccountName?: string;
  /** Extra podFailurePolicy rules (for example the handshake's exit codes), evaluated first. */
  readonly failureRules?: PodFailurePolicyRule[];
}

/** The Job spec. */
export function jobSpec(r: ResolvedMiniCluster, pod: PodParts): JobSpec {
  const f = r.features;
  const spec: JobSpec = {
    completionMode: 'Indexed',
    completions: r.size,
    parallelism: r.size,
    activeDeadlineSeconds: r.deadlineSeconds,
    backoffLimit: r.backoffLimit,
    ttlSecondsAfterFinished: r.props.ttlSecondsAfterFinished,
    template: {
      metadata: clean({
        labels: pod.labels,
        annotations: r.props.pod?.annotations ? sortKeys(r.props.pod.annotations) : undefined,
      }),
      spec: podSpec(r, pod),
    },
  };
  // The lead's exit completes the Job and reaps the workers (KEP-3998 cites the Flux Operator).
  if (f.successPolicy) spec.successPolicy = { rules: [{ succeededIndexes: '0' }] };
  if (r.nativeFailureHandling) {
    // No backoffLimitPerIndex: with it the Job controller keeps a failed pod's finalizer until its
    // replacement exists, and a namespace being deleted refuses new pods, so `kubectl delete
    // namespace` hung on a MiniCluster with a pending or replaced pod (docs/reliability.md).
    spec.podReplacementPolicy = 'Failed';
    spec.podFailurePolicy = { rules: failureRules(r, pod.failureRules ?? []) };
  }
  return clean(spec);
}

function failureRules(r: ResolvedMiniCluster, extra: PodFailurePolicyRule[]): PodFailurePolicyRule[] {
  return [
    // Evictions and preemptions are not the job's fault: retry without counting.
    { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    // A pod stopped from outside without that condition: above all a Job that Kueue suspends
    // (preemption, eviction), whose pods the Job controller deletes. Recreated on resume.
    { action: 'Ignore', onExitCodes: { containerName: r.name, operator: 'In', values: [STOPPED_EXIT_CODE] } },
    ...extra,
    // A failed Flux run (lead) or a worker that gave up fails the whole Job, with its exit code.
    { action: 'FailJob', onExitCodes: { containerName: r.name, operator: 'NotIn', values: [0] } },
  ];
}

function podSpec(r: ResolvedMiniCluster, pod: PodParts): PodSpec {
  const p = r.props.pod ?? {};
  const rules = placementRules(r.placement, r.name);
  const pullSecrets = [...new Set(r.props.containers.map((c) => c.imagePullSecret).filter((s): s is string => !!s))].sort();
  return clean({
    subdomain: r.serviceName,
    // Flux matches its rank by the short hostname; an FQDN hostname breaks it.
    setHostnameAsFQDN: false,
    restartPolicy: r.restartPolicy,
    shareProcessNamespace: r.props.shareProcessNamespace ?? false,
    automountServiceAccountToken: p.automountServiceAccountToken ?? false,
    serviceAccountName: pod.serviceAccountName ?? p.serviceAccountName,
    nodeSelector: p.nodeSelector ? sortKeys(p.nodeSelector) : undefined,
    affinity: affinity(r, rules),
    tolerations: tolerations(p),
    topologySpreadConstraints: rules.topologySpreadConstraints.length ? rules.topologySpreadConstraints : undefined,
    schedulerName: p.schedulerName,
    runtimeClassName: p.runtimeClassName,
    dnsPolicy: p.dnsPolicy,
    hostIPC: p.hostIPC,
    hostPID: p.hostPID,
    securityContext: p.fsGroup !== undefined ? { fsGroup: p.fsGroup } : undefined,
    imagePullSecrets: pullSecrets.length ? pullSecrets.map((name) => ({ name })) : undefined,
    initContainers: pod.initContainers.length ? pod.initContainers : undefined,
    containers: pod.containers,
    volumes: pod.volumes,
  });
}

/** The taints a node that stops answering gets (the node lifecycle controller's). */
export const NODE_LOSS_TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];
export const DEFAULT_NODE_LOSS_SECONDS = 30;

/** The user's tolerations, then the node-loss ones the user did not set. */
function tolerations(p: PodOptions): Toleration[] {
  const own = (p.tolerations ?? []).map((t) => clean({ key: t.key, operator: t.operator, value: t.value, effect: t.effect, tolerationSeconds: t.tolerationSeconds }));
  const covered = (key: string) => own.some((t) => t.key === key && (t.effect === undefined || t.effect === 'NoExecute'));
  const tolerationSeconds = p.nodeLossSeconds ?? DEFAULT_NODE_LOSS_SECONDS;
  const nodeLoss = NODE_LOSS_TAINTS.filter((key) => !covered(key)).map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds }));
  return [...own, ...nodeLoss];
}

function affinity(r: ResolvedMiniCluster, rules: PlacementRules): Affinity | undefined {
  const out: Affinity = {};
  const podAffinity = terms(rules.affinityRequired, rules.affinityPreferred);
  if (podAffinity) out.podAffinity = podAffinity;
  const podAntiAffinity = terms(rules.antiAffinityRequired, rules.antiAffinityPreferred);
  if (podAntiAffinity) out.podAntiAffinity = podAntiAffinity;
  const na = r.props.pod?.nodeAffinity;
  if (na && Object.keys(na).length > 0) {
    out.nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: Object.keys(na).sort().map((key) => ({ key, operator: 'In', values: [...na[key]] })) }],
      },
    };
  }
  return Object.keys(out).length ? out : undefined;
}

/** A podAffinity or podAntiAffinity of the terms given, or undefined when there are none. */
function terms(required: PodAffinityTerm[], preferred: WeightedPodAffinityTerm[]): PodAffinity | undefined {
  if (!required.length && !preferred.length) return undefined;
  return clean({
    requiredDuringSchedulingIgnoredDuringExecution: required.length ? required : undefined,
    preferredDuringSchedulingIgnoredDuringExecution: preferred.length ? preferred : undefined,
  });
}

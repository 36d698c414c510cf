/**
 * Feature gates that change what the API server accepts, with the first minor where each is on by
 * default (sources: the kubernetes.io feature-gates reference and release notes).
 *
 * A field behind a gate that is off is silently dropped by the registry strategy before validation
 * (dropDisabledFields in pkg/api/pod/util.go and pkg/registry/batch/job/strategy.go); the semantic
 * checks mirror that by ignoring the field, so the rules that depend on it fire as they would on a
 * real server. Reporting the field itself is left to k8s-version-rules.ts and the schema.
 */
import { compareMinor } from '../k8s-schema';

export const FEATURES = {
  /** backoffLimitPerIndex, maxFailedIndexes, podFailurePolicy action FailIndex: alpha 1.28, beta 1.29. */
  JobBackoffLimitPerIndex: '1.29',
  /** podReplacementPolicy: alpha 1.28, beta 1.29. */
  JobPodReplacementPolicy: '1.29',
  /** Init containers with restartPolicy Always (native sidecars): alpha 1.28, beta 1.29. */
  SidecarContainers: '1.29',
  /** fieldRef status.hostIPs: alpha 1.28, beta 1.29. */
  PodHostIPs: '1.29',
  /** lifecycle sleep action: alpha 1.29, beta 1.30. */
  PodLifecycleSleepAction: '1.30',
  /** successPolicy: alpha 1.30, beta 1.31. */
  JobSuccessPolicy: '1.31',
  /** Service trafficDistribution PreferClose: alpha 1.30, beta 1.31. */
  ServiceTrafficDistribution: '1.31',
  /** managedBy: alpha 1.30, beta 1.32. */
  JobManagedBy: '1.32',
  /** Any printable ASCII but '=' in env var names: alpha 1.30, beta 1.32. */
  RelaxedEnvironmentVariableValidation: '1.32',
  /** Underscores in dnsConfig.searches: alpha 1.32, beta 1.33. */
  RelaxedDNSSearchValidation: '1.33',
  /** sleep seconds 0: alpha 1.32, beta 1.33. */
  PodLifecycleSleepActionAllowZero: '1.33',
  /** Service trafficDistribution PreferSameZone and PreferSameNode: alpha 1.33, beta 1.34. */
  PreferSameTrafficDistribution: '1.34',
} as const;

export type Feature = keyof typeof FEATURES;

/** The features on by default in one Kubernetes minor. */
export class FeatureSet {
  constructor(readonly version: string) {}

  enabled(feature: Feature): boolean {
    return compareMinor(this.version, FEATURES[feature]) >= 0;
  }
}

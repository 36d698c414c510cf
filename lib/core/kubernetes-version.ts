/**
 * Job and pod features by Kubernetes minor version. A feature counts from the version where it is
 * on by default (beta or GA), since that is what a managed cluster of that version runs. This table
 * is the one source of what each target version gets: docs/objects.md's "Kubernetes versions" table
 * (test/kubernetes-versions-table.test.ts) and `check`'s version rules are held to it.
 */

/**
 * The oldest minor version synthesized. cdk8s-plus-27 typings are the floor.
 * @jsii ignore other languages: MiniClusterDefaults.MIN_KUBERNETES_MINOR (jsii publishes no module constants)
 */
export const MIN_KUBERNETES_MINOR = 27;

/**
 * The default target: the oldest minor version still in standard support on EKS, GKE and AKS
 * (docs/objects.md, "The default target"). At the end of November 2026 that is 1.35: 1.34 has left
 * it on GKE (2026-08-30) and AKS (November 2026), and leaves it on EKS on 2026-12-02.
 * @jsii ignore other languages: MiniClusterDefaults.KUBERNETES_VERSION
 */
export const DEFAULT_KUBERNETES_VERSION = '1.35';

/** What a target version supports. */
export interface KubernetesFeatures {
  readonly minor: number;
  /** Native sidecars: init containers with restartPolicy Always (beta, on by default, 1.29). */
  readonly nativeSidecars: boolean;
  /** Job successPolicy (beta 1.31, GA 1.33). */
  readonly successPolicy: boolean;
  /**
   * Job podReplacementPolicy (beta 1.29, GA 1.34), and with it the Job controller's own failure
   * handling: restartPolicy Never, podFailurePolicy and podReplacementPolicy Failed (a replacement
   * pod only once its predecessor, of the same hostname, is gone). Not backoffLimitPerIndex: the
   * output never uses it (docs/reliability.md, "Deleting the namespace").
   */
  readonly podReplacementPolicy: boolean;
  /** The pod label batch.kubernetes.io/job-completion-index (beta 1.28). */
  readonly completionIndexLabel: boolean;
  /**
   * Image volumes (`volumes[].image`, KEP-4639): alpha 1.31, beta off by default 1.33 (with subPath),
   * on by default 1.35.
   */
  readonly imageVolumes: boolean;
}

/** The minor version from which image volumes are on by default (KubernetesFeatures.imageVolumes). */
export const IMAGE_VOLUMES_MINOR = 35;

/** Parses 'MAJOR.MINOR' (a patch part is tolerated and ignored); returns an error text if invalid. */
export function parseKubernetesVersion(version: string): number | string {
  const m = /^v?1\.(\d+)(?:\.\d+)?$/.exec(version);
  if (!m) return `must look like '1.34'`;
  const minor = Number(m[1]);
  if (minor < MIN_KUBERNETES_MINOR) return `must be 1.${MIN_KUBERNETES_MINOR} or newer`;
  return minor;
}

/** The features of a target version (the default when unset); undefined when it is invalid, which is reported on its own. */
export function featuresIfValid(version: string | undefined): KubernetesFeatures | undefined {
  const v = version ?? DEFAULT_KUBERNETES_VERSION;
  return typeof parseKubernetesVersion(v) === 'number' ? kubernetesFeatures(v) : undefined;
}

/** The features of a (valid) target version. */
export function kubernetesFeatures(version: string): KubernetesFeatures {
  const minor = parseKubernetesVersion(version);
  if (typeof minor === 'string') throw new Error(`kubernetesVersion '${version}' ${minor}`);
  return {
    minor,
    nativeSidecars: minor >= 29,
    successPolicy: minor >= 31,
    podReplacementPolicy: minor >= 29,
    completionIndexLabel: minor >= 28,
    imageVolumes: minor >= IMAGE_VOLUMES_MINOR,
  };
}

/** A feature of KubernetesFeatures (every field but the minor). */
export type KubernetesFeature = Exclude<keyof KubernetesFeatures, 'minor'>;

/** Minors past the floor searched for a feature's first version: far beyond any release. */
const SEARCHED_MINORS = 100;

/** The oldest minor whose target has `feature` (once on, a feature stays on in every later minor). */
export function featureSince(feature: KubernetesFeature): number {
  for (let minor = MIN_KUBERNETES_MINOR; minor < MIN_KUBERNETES_MINOR + SEARCHED_MINORS; minor++) {
    if (kubernetesFeatures(`1.${minor}`)[feature]) return minor;
  }
  throw new Error(`kubernetesFeatures: ${feature} is on in no version from 1.${MIN_KUBERNETES_MINOR} to 1.${MIN_KUBERNETES_MINOR + SEARCHED_MINORS - 1}`);
}

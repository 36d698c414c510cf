/** GitOps props of a MiniCluster: Job naming and per-tool annotations (docs/production.md). */

/** Annotations for Argo CD. */
export interface ArgoCdOptions {
  /**
   * `argocd.argoproj.io/sync-options: Replace=true,Force=true` on the Job only, so that a changed
   * Job is deleted and created again instead of failing on an immutable field. The Job runs again.
   * Not needed with `hashJobName` or `runId`, which give a changed spec a new Job.
   * @default false
   */
  readonly replaceJob?: boolean;
  /**
   * Run the certificate Job (CertificateSource.generatedInCluster()) and its ServiceAccount, Role,
   * RoleBinding and ConfigMap as a PreSync hook (`hook-delete-policy: BeforeHookCreation`): every
   * sync runs it first, it creates the Secret only if absent, and a finished or TTL-deleted Job
   * never makes the application OutOfSync.
   * @default false
   */
  readonly certificateHook?: boolean;
}

/** Annotations for Flux CD's kustomize-controller. */
export interface FluxCdOptions {
  /**
   * `kustomize.toolkit.fluxcd.io/force: enabled` on the Job only: a change to an immutable field
   * recreates the Job (which runs again) instead of failing the Kustomization.
   * @default true
   */
  readonly forceJob?: boolean;
  /**
   * `kustomize.toolkit.fluxcd.io/ssa: IfNotPresent` on the inline certificate Secret and the
   * certificate Job's objects: created once, never updated, so re-applying never replaces the
   * cluster's certificate.
   * @default true
   */
  readonly createCertificateOnce?: boolean;
}

/** How the MiniCluster fits a GitOps workflow. Everything is off by default. */
export interface GitOpsOptions {
  /**
   * Name the Job `<name>-<hash>`, where the 8 hex digits hash the Job's pod template and its
   * entrypoint ConfigMap (fields Kubernetes lets you change in place are left out). A changed spec
   * then creates a new Job, and its own ConfigMap, instead of failing on the Job's immutable
   * template; an unchanged spec keeps the name. The pods are `<name>-<hash>-<index>`. The
   * certificate Secret, the certificate Job and the headless Service keep their names.
   * @default false
   */
  readonly hashJobName?: boolean;
  /**
   * Name the Job `<name>-<runId>` (a DNS label, for example a date or a CI build number). Same
   * effects as hashJobName, with a name you choose; the two are mutually exclusive.
   * @default - none
   */
  readonly runId?: string;
  /** Annotations for Argo CD. @default - no Argo CD annotations */
  readonly argoCd?: ArgoCdOptions;
  /** Annotations for Flux CD. @default - no Flux CD annotations */
  readonly fluxCd?: FluxCdOptions;
}

/**
 * Every field of the Flux Operator's MiniCluster v1alpha2 schema (flux-framework/flux-operator
 * config/crd/bases/flux-framework.org_miniclusters.yaml @0d75cef8) with its type, CRD default and
 * what the converter does with it. The test test/operator/crd-coverage.test.ts walks the real CRD
 * and asserts that this table holds exactly its paths, types, defaults and required flags.
 *
 * Path syntax: `a.b` nested property, `[]` list item, `{}` map value (e.g.
 * `spec.containers[].volumes{}.path`).
 */

/** What the converter does with a field. */
export enum FieldDecision {
  /** Converted to a MiniCluster prop (see `prop`); `note` says what differs from the operator. */
  MAPPED = 'mapped',
  /** Accepted, but nothing here depends on it (`note` says why); a non-default value warns. */
  NO_EFFECT = 'no-effect',
  /** A non-default value is an error whose rule is `note`. */
  REJECTED = 'rejected',
}

/** The schema type of a field, as the converter checks it. */
export enum FieldType {
  /** A string. */
  STRING = 'string',
  /** true or false. */
  BOOLEAN = 'boolean',
  /** A 32-bit integer. */
  INT32 = 'int32',
  /** A 64-bit integer. */
  INT64 = 'int64',
  /** `x-kubernetes-int-or-string` quantity (`500m`, `2Gi`, `4`). */
  QUANTITY = 'quantity',
  /** An object with named properties (or free-form, like `metadata`). */
  OBJECT = 'object',
  /** An object of arbitrary keys whose values share one schema (the `{}` child). */
  MAP = 'map',
  /** A list (the `[]` child). */
  ARRAY = 'array',
}

/** One field of the schema and the converter's decision for it. */
export interface CrdField {
  /** Path of the field in the resource, e.g. `spec.containers[].image`. */
  readonly path: string;
  /**
   * Its schema type.
   * @jsii suppress JSII5018 Go capitalizes fields (`Type`): not a keyword there
   */
  readonly type: FieldType;
  /** What the converter does with it. */
  readonly decision: FieldDecision;
  /** For MAPPED fields: the MiniCluster prop it becomes. @default - none (not MAPPED) */
  readonly prop?: string;
  /** Why (REJECTED, NO_EFFECT) or what differs from the operator (MAPPED). @default - none */
  readonly note?: string;
  /**
   * The CRD's OpenAPI default, which the API server applies (and so does the converter).
   * @default - none
   * @jsii suppress JSII5018 C# and Go capitalize it (`Default`); Java gets `getDefaultValue()` from jsii-pacmak
   */
  readonly default?: string | number | boolean;
  /** Listed in its parent's `required`. @default false */
  readonly required?: boolean;
}

const { STRING, BOOLEAN, INT32, INT64, QUANTITY, OBJECT, MAP, ARRAY } = FieldType;

type Extra = Pick<CrdField, 'note' | 'default' | 'required'>;

function mapped(path: string, type: FieldType, prop: string, extra: Extra = {}): CrdField {
  return { path, type, decision: FieldDecision.MAPPED, prop, ...extra };
}

function rejected(path: string, type: FieldType, note: string, extra: Omit<Extra, 'note'> = {}): CrdField {
  return { path, type, decision: FieldDecision.REJECTED, note, ...extra };
}

function noEffect(path: string, type: FieldType, note: string, extra: Omit<Extra, 'note'> = {}): CrdField {
  return { path, type, decision: FieldDecision.NO_EFFECT, note, ...extra };
}

/** The descendants of a rejected or no-effect field take its decision (the converter never looks inside). */
function inside(parent: string, decision: FieldDecision, fields: CrdField[]): CrdField[] {
  const why = decision === FieldDecision.REJECTED ? 'rejected' : 'no effect';
  return fields.map(({ path, type, default: d, required }) => ({
    path, type, decision, note: `part of ${parent} (${why})`,
    ...(d === undefined ? {} : { default: d }), ...(required ? { required } : {}),
  }));
}

const SC_SUBSET = 'ContainerSecurityContext holds privileged, runAsUser, runAsGroup, runAsNonRoot, allowPrivilegeEscalation, readOnlyRootFilesystem and capabilities';

/** A Kubernetes container SecurityContext (containers[] and flux.container). */
function containerSecurityContext(p: string, prop: string): CrdField[] {
  const notPassed = `not passed through by the MiniCluster props (${SC_SUBSET}); remove it`;
  return [
    mapped(`${p}`, OBJECT, prop),
    mapped(`${p}.allowPrivilegeEscalation`, BOOLEAN, `${prop}.allowPrivilegeEscalation`),
    mapped(`${p}.capabilities`, OBJECT, `${prop}.capabilities`),
    mapped(`${p}.capabilities.add`, ARRAY, `${prop}.capabilities.add`),
    mapped(`${p}.capabilities.add[]`, STRING, `${prop}.capabilities.add[]`),
    mapped(`${p}.capabilities.drop`, ARRAY, `${prop}.capabilities.drop`),
    mapped(`${p}.capabilities.drop[]`, STRING, `${prop}.capabilities.drop[]`),
    mapped(`${p}.privileged`, BOOLEAN, `${prop}.privileged`),
    rejected(`${p}.procMount`, STRING, notPassed),
    mapped(`${p}.readOnlyRootFilesystem`, BOOLEAN, `${prop}.readOnlyRootFilesystem`),
    mapped(`${p}.runAsGroup`, INT64, `${prop}.runAsGroup`),
    mapped(`${p}.runAsNonRoot`, BOOLEAN, `${prop}.runAsNonRoot`),
    mapped(`${p}.runAsUser`, INT64, `${prop}.runAsUser`),
    rejected(`${p}.seLinuxOptions`, OBJECT, notPassed),
    ...inside(`${p}.seLinuxOptions`, FieldDecision.REJECTED, seLinuxOptions(`${p}.seLinuxOptions`)),
    rejected(`${p}.seccompProfile`, OBJECT, notPassed),
    ...inside(`${p}.seccompProfile`, FieldDecision.REJECTED, seccompProfile(`${p}.seccompProfile`)),
    rejected(`${p}.windowsOptions`, OBJECT, 'Flux runs on Linux nodes only'),
    ...inside(`${p}.windowsOptions`, FieldDecision.REJECTED, windowsOptions(`${p}.windowsOptions`)),
  ];
}

function seLinuxOptions(p: string): CrdField[] {
  return ['level', 'role', 'type', 'user'].map((k) => rejected(`${p}.${k}`, STRING, ''));
}

function seccompProfile(p: string): CrdField[] {
  return [rejected(`${p}.localhostProfile`, STRING, ''), rejected(`${p}.type`, STRING, '', { required: true })];
}

function windowsOptions(p: string): CrdField[] {
  return [
    rejected(`${p}.gmsaCredentialSpec`, STRING, ''),
    rejected(`${p}.gmsaCredentialSpecName`, STRING, ''),
    rejected(`${p}.hostProcess`, BOOLEAN, ''),
    rejected(`${p}.runAsUserName`, STRING, ''),
  ];
}

/** Container resource requirements (requests and limits of quantities). */
function resources(p: string, prop: string): CrdField[] {
  return [
    mapped(p, OBJECT, prop),
    mapped(`${p}.limits`, MAP, `${prop}.limits`),
    mapped(`${p}.limits{}`, QUANTITY, `${prop}.limits{}`, { note: 'integers become quantity strings' }),
    mapped(`${p}.requests`, MAP, `${prop}.requests`),
    mapped(`${p}.requests{}`, QUANTITY, `${prop}.requests{}`, { note: 'integers become quantity strings' }),
  ];
}

/** MiniClusterContainer, as in spec.containers[] (and spec.services[]). */
function containerFields(p: string, prop: string): CrdField[] {
  const v = `${p}.volumes{}`;
  const pv = `${prop}.volumes{}`;
  return [
    mapped(p, OBJECT, prop),
    mapped(`${p}.batch`, BOOLEAN, `${prop}.batch`),
    mapped(`${p}.batchRaw`, BOOLEAN, `${prop}.batchRaw`),
    mapped(`${p}.command`, STRING, `${prop}.command`, {
      note: 'empty or unset: the lead broker runs an interactive instance, as in the operator',
    }),
    mapped(`${p}.commands`, OBJECT, `${prop}.commands`),
    ...['brokerPre', 'init', 'post', 'pre', 'prefix', 'script', 'servicePre', 'workerPre'].map((k) =>
      mapped(`${p}.commands.${k}`, STRING, `${prop}.commands.${k}`)),
    mapped(`${p}.environment`, MAP, `${prop}.environment`, { note: 'written sorted by name (the operator used Go map order)' }),
    mapped(`${p}.environment{}`, STRING, `${prop}.environment{}`),
    mapped(`${p}.image`, STRING, `${prop}.image`, { default: 'ghcr.io/rse-ops/accounting:app-latest', note: 'the CRD default applies when unset' }),
    mapped(`${p}.imagePullPolicy`, STRING, `${prop}.imagePullPolicy`, { note: 'must be Always, IfNotPresent or Never' }),
    mapped(`${p}.imagePullSecret`, STRING, `${prop}.imagePullSecret`, { note: "added to the pod's imagePullSecrets" }),
    mapped(`${p}.launcher`, BOOLEAN, `${prop}.launcher`),
    mapped(`${p}.lifeCycle`, OBJECT, `${prop}.lifecycle`),
    mapped(`${p}.lifeCycle.postStartExec`, STRING, `${prop}.lifecycle.postStartExec`),
    mapped(`${p}.lifeCycle.preStopExec`, STRING, `${prop}.lifecycle.preStopExec`),
    mapped(`${p}.logs`, STRING, `${prop}.logs`),
    mapped(`${p}.name`, STRING, `${prop}.name`, { note: "required for other containers; the Flux runner's is ignored (it is named after the MiniCluster), as in the operator" }),
    mapped(`${p}.noWrapEntrypoint`, BOOLEAN, `${prop}.noWrapEntrypoint`),
    mapped(`${p}.ports`, ARRAY, `${prop}.ports`, {
      note: "containerPorts only: the operator also created a ClusterIP Service named after each non-runner container with ports; it is not generated (the converter warns)",
    }),
    mapped(`${p}.ports[]`, INT32, `${prop}.ports[]`),
    mapped(`${p}.pullAlways`, BOOLEAN, `${prop}.pullAlways`, { default: false }),
    ...resources(`${p}.resources`, `${prop}.resources`),
    mapped(`${p}.runFlux`, BOOLEAN, `${prop}.runFlux`, { note: 'a single container always runs Flux, as in the operator' }),
    mapped(`${p}.secrets`, MAP, `${prop}.secrets`),
    mapped(`${p}.secrets{}`, OBJECT, `${prop}.secrets{}`),
    mapped(`${p}.secrets{}.key`, STRING, `${prop}.secrets{}.key`, { required: true }),
    mapped(`${p}.secrets{}.name`, STRING, `${prop}.secrets{}.name`, { required: true }),
    ...containerSecurityContext(`${p}.securityContext`, `${prop}.securityContext`),
    mapped(`${p}.volumes`, MAP, `${prop}.volumes`, {
      note: "each container mounts only its own volumes (the operator also mounted earlier containers' volumes into later ones)",
    }),
    mapped(v, OBJECT, pv, {
      note: 'exactly one source (the operator silently took the first of csiDriver, secretName, emptyDir, hostPath, configMapName, claimName, and fell back to a claim with an empty claimName, which the API server rejects)',
    }),
    mapped(`${v}.claimName`, STRING, `${pv}.claimName`),
    mapped(`${v}.configMapName`, STRING, `${pv}.configMapName`, {
      note: 'the pod volume is named after the volumes key (the operator named it after configMapName but mounted the key, so the two had to be equal)',
    }),
    mapped(`${v}.csiDriver`, STRING, `${pv}.csiDriver`),
    mapped(`${v}.csiDriverAttributes`, MAP, `${pv}.csiDriverAttributes`),
    mapped(`${v}.csiDriverAttributes{}`, STRING, `${pv}.csiDriverAttributes{}`),
    mapped(`${v}.emptyDir`, BOOLEAN, `${pv}.emptyDir`, {
      default: false,
      note: 'mounted at path when path is set (the operator always mounted emptyDir volumes at /dev/shm, ignoring path; the converter warns); at /dev/shm otherwise',
    }),
    mapped(`${v}.emptyDirMedium`, STRING, `${pv}.emptyDirMedium`, { note: "'memory' gives medium Memory" }),
    mapped(`${v}.emptyDirSizeLimit`, STRING, `${pv}.emptyDirSizeLimit`),
    mapped(`${v}.hostPath`, STRING, `${pv}.hostPath`, { note: 'hostPath type Directory, as in the operator' }),
    mapped(`${v}.items`, MAP, `${pv}.items`),
    mapped(`${v}.items{}`, STRING, `${pv}.items{}`),
    mapped(`${v}.path`, STRING, `${pv}.path`),
    mapped(`${v}.readOnly`, BOOLEAN, `${pv}.readOnly`, { default: false }),
    mapped(`${v}.secretName`, STRING, `${pv}.secretName`),
    mapped(`${p}.workingDir`, STRING, `${prop}.workingDir`),
  ];
}

const PODSC_IGNORED = 'ignored by the operator, which copies only securityContext.fsGroup to the pod, and not a MiniCluster prop; remove it (runAsUser, runAsGroup and runAsNonRoot can be set per container in containers[].securityContext)';

/** spec.pod.securityContext: a PodSecurityContext of which the operator copies only fsGroup. */
function podSecurityContext(p: string): CrdField[] {
  return [
    mapped(p, OBJECT, 'pod'),
    mapped(`${p}.fsGroup`, INT64, 'pod.fsGroup'),
    rejected(`${p}.fsGroupChangePolicy`, STRING, PODSC_IGNORED),
    rejected(`${p}.runAsGroup`, INT64, PODSC_IGNORED),
    rejected(`${p}.runAsNonRoot`, BOOLEAN, PODSC_IGNORED),
    rejected(`${p}.runAsUser`, INT64, PODSC_IGNORED),
    rejected(`${p}.seLinuxOptions`, OBJECT, PODSC_IGNORED),
    ...inside(`${p}.seLinuxOptions`, FieldDecision.REJECTED, seLinuxOptions(`${p}.seLinuxOptions`)),
    rejected(`${p}.seccompProfile`, OBJECT, PODSC_IGNORED),
    ...inside(`${p}.seccompProfile`, FieldDecision.REJECTED, seccompProfile(`${p}.seccompProfile`)),
    rejected(`${p}.supplementalGroups`, ARRAY, PODSC_IGNORED),
    ...inside(`${p}.supplementalGroups`, FieldDecision.REJECTED, [rejected(`${p}.supplementalGroups[]`, INT64, '')]),
    rejected(`${p}.sysctls`, ARRAY, PODSC_IGNORED),
    ...inside(`${p}.sysctls`, FieldDecision.REJECTED, [
      rejected(`${p}.sysctls[]`, OBJECT, ''),
      rejected(`${p}.sysctls[].name`, STRING, '', { required: true }),
      rejected(`${p}.sysctls[].value`, STRING, '', { required: true }),
    ]),
    rejected(`${p}.windowsOptions`, OBJECT, 'Flux runs on Linux nodes only'),
    ...inside(`${p}.windowsOptions`, FieldDecision.REJECTED, windowsOptions(`${p}.windowsOptions`)),
  ];
}

const SERVICES_REASON = "the operator runs these containers in one extra Pod '<name>-services' outside the Job; "
  + 'cdk8s-minicluster does not generate it. Run the service in spec.containers (noWrapEntrypoint: true keeps its '
  + 'own entrypoint) as a native sidecar (synth --sidecar <name>), or deploy it separately as a Deployment and Service';

const BURSTING_REASON = 'experimental and broken in the operator at 0d75cef8 (the lead broker host entry is mis-formatted and '
  + 'clusters[] defaults are never applied); bursting to other clusters is not supported';

const STATUS_NOTE = 'written by the operator; read-only, ignored';

/** The status subtree (present when a resource is exported from a cluster). */
function statusFields(): CrdField[] {
  const c = 'status.conditions[]';
  return [
    noEffect('status', OBJECT, STATUS_NOTE),
    ...inside('status', FieldDecision.NO_EFFECT, [
      noEffect('status.conditions', ARRAY, ''),
      noEffect(c, OBJECT, ''),
      noEffect(`${c}.lastTransitionTime`, STRING, '', { required: true }),
      noEffect(`${c}.message`, STRING, '', { required: true }),
      noEffect(`${c}.observedGeneration`, INT64, ''),
      noEffect(`${c}.reason`, STRING, '', { required: true }),
      noEffect(`${c}.status`, STRING, '', { required: true }),
      noEffect(`${c}.type`, STRING, '', { required: true }),
      noEffect('status.jobid', STRING, '', { required: true }),
      noEffect('status.maximumSize', INT32, '', { required: true }),
      noEffect('status.selector', STRING, '', { required: true }),
      noEffect('status.size', INT32, '', { required: true }),
    ]),
  ];
}

/**
 * Every field of the MiniCluster v1alpha2 schema, in schema order.
 * @jsii ignore other languages: OperatorConverter.crdFields() (jsii publishes no module constants)
 */
export const CRD_FIELDS: readonly CrdField[] = [
  mapped('apiVersion', STRING, '-', { note: 'must be flux-framework.org/v1alpha2' }),
  mapped('kind', STRING, '-', { note: 'must be MiniCluster' }),
  mapped('metadata', OBJECT, 'name, namespace', {
    note: 'metadata.name becomes name and metadata.namespace namespace; labels, annotations and server-set fields are not copied (nor did the operator copy them)',
  }),
  mapped('spec', OBJECT, '(props)'),
  mapped('spec.archive', OBJECT, 'archive'),
  mapped('spec.archive.path', STRING, 'archive.path'),
  mapped('spec.backoffLimit', INT32, 'backoffLimit', { note: '0 means the default 100, as in the operator' }),
  rejected('spec.cleanup', BOOLEAN,
    'the operator deletes the whole MiniCluster once pod <name>-0 finishes; static manifests have no controller to do that. '
    + 'Remove it; to delete the finished Job and its pods, set ttlSecondsAfterFinished (the MiniCluster prop, or synth --ttl-seconds-after-finished)',
    { default: false }),
  mapped('spec.containers', ARRAY, 'containers', { required: true }),
  ...containerFields('spec.containers[]', 'containers[]'),
  mapped('spec.deadlineSeconds', INT64, 'deadlineSeconds', { default: 31500000 }),
  mapped('spec.flux', OBJECT, 'flux'),
  rejected('spec.flux.arch', STRING,
    'unused by the operator since cbbe0d5f (it chose the goshare wait-fs binary, which is no longer downloaded); remove it'),
  mapped('spec.flux.brokerConfig', STRING, 'flux.brokerConfig', {
    note: 'checked against what Flux accepts, and its certificate, R and Service names against this cluster (the operator wrote it verbatim)',
  }),
  rejected('spec.flux.bursting', OBJECT, BURSTING_REASON),
  ...inside('spec.flux.bursting', FieldDecision.REJECTED, [
    rejected('spec.flux.bursting.clusters', ARRAY, ''),
    rejected('spec.flux.bursting.clusters[]', OBJECT, ''),
    rejected('spec.flux.bursting.clusters[].name', STRING, ''),
    rejected('spec.flux.bursting.clusters[].size', INT32, ''),
    rejected('spec.flux.bursting.hostlist', STRING, ''),
    rejected('spec.flux.bursting.leadBroker', OBJECT, ''),
    rejected('spec.flux.bursting.leadBroker.address', STRING, '', { required: true }),
    rejected('spec.flux.bursting.leadBroker.name', STRING, '', { required: true }),
    rejected('spec.flux.bursting.leadBroker.port', INT32, '', { default: 8050 }),
    rejected('spec.flux.bursting.leadBroker.size', INT32, '', { required: true }),
  ]),
  mapped('spec.flux.completeWorkers', BOOLEAN, 'flux.completeWorkers'),
  mapped('spec.flux.connectTimeout', STRING, 'flux.connectTimeout', { default: '5s', note: "'' leaves Flux's own default" }),
  mapped('spec.flux.container', OBJECT, 'flux.container'),
  mapped('spec.flux.container.disable', BOOLEAN, 'flux.container.disable', { default: false }),
  mapped('spec.flux.container.image', STRING, 'flux.container.image', { default: 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble' }),
  mapped('spec.flux.container.imagePullSecret', STRING, 'containers[].imagePullSecret', {
    note: "the operator ignores it (it reads pull secrets only from spec.containers). Pull secrets are pod-wide, so it is added to the pod's imagePullSecrets through the first container without one; the converter warns",
  }),
  mapped('spec.flux.container.mountPath', STRING, 'flux.container.mountPath', {
    default: '/mnt/flux',
    note: 'every Flux path follows it (the operator hard-codes /mnt/flux/config in its init script, so another mountPath broke it)',
  }),
  mapped('spec.flux.container.name', STRING, 'flux.container.name', {
    default: 'flux-view', note: 'names the init container and its volume (the operator also used it as a ConfigMap key)',
  }),
  mapped('spec.flux.container.pullAlways', BOOLEAN, 'flux.container.pullAlways', { default: false }),
  mapped('spec.flux.container.pythonPath', STRING, 'flux.container.pythonPath'),
  ...resources('spec.flux.container.resources', 'flux.container.resources'),
  ...containerSecurityContext('spec.flux.container.securityContext', 'flux.container.securityContext'),
  mapped('spec.flux.container.workingDir', STRING, 'flux.container.workingDir'),
  mapped('spec.flux.curveCert', STRING, 'certificate', {
    note: 'checked like flux-core does (key pair, format, name entry) and stored in a Secret <name>-curve mounted 0400 (the operator put it in the entrypoint ConfigMap and printed it to the logs)',
  }),
  mapped('spec.flux.disableSocket', BOOLEAN, 'flux.disableSocket'),
  mapped('spec.flux.environment', MAP, 'flux.environment'),
  mapped('spec.flux.environment{}', STRING, 'flux.environment{}'),
  mapped('spec.flux.logLevel', INT32, 'flux.logLevel', { default: 6 }),
  noEffect('spec.flux.minimalService', BOOLEAN,
    'the headless Service always publishes every broker, ready or not (publishNotReadyAddresses), so the operator\'s minimal '
    + 'ClusterIP Service for index 0 (which relied on a job-index label the operator patched onto pods) is not needed; '
    + 'the cluster runs the same without it'),
  rejected('spec.flux.mungeSecret', STRING, 'unused in v1alpha2 (munge and multi-user mode left with v1alpha1); remove it'),
  noEffect('spec.flux.noWaitSocket', BOOLEAN,
    "the operator's socket wait (goshare-wait-fs) no longer exists upstream either; sidecars here wait a bounded time "
    + 'for the Flux environment file (FLUX_VIEW_WAIT_SECONDS) and then run their command anyway'),
  mapped('spec.flux.optionFlags', STRING, 'flux.optionFlags'),
  mapped('spec.flux.scheduler', OBJECT, 'flux.scheduler'),
  mapped('spec.flux.scheduler.queuePolicy', STRING, 'flux.scheduler.queuePolicy', { note: 'fcfs, easy, hybrid or conservative' }),
  mapped('spec.flux.scheduler.simple', BOOLEAN, 'flux.scheduler.simple'),
  mapped('spec.flux.submitCommand', STRING, 'flux.submitCommand'),
  mapped('spec.flux.topology', STRING, 'flux.topology', { note: 'kary:K with K >= 2 only (the hosts handshake needs each parent; kary:1 crashes brokers)' }),
  mapped('spec.flux.wrap', STRING, 'flux.wrap'),
  mapped('spec.interactive', BOOLEAN, 'interactive', { default: false }),
  mapped('spec.jobLabels', MAP, 'jobLabels'),
  mapped('spec.jobLabels{}', STRING, 'jobLabels{}'),
  mapped('spec.logging', OBJECT, 'logging'),
  mapped('spec.logging.debug', BOOLEAN, 'logging.debug', { default: false }),
  mapped('spec.logging.quiet', BOOLEAN, 'logging.quiet', { default: false }),
  mapped('spec.logging.strict', BOOLEAN, 'logging.strict', { default: false }),
  mapped('spec.logging.timed', BOOLEAN, 'logging.timed', { default: false }),
  mapped('spec.logging.zeromq', BOOLEAN, 'logging.zeromq', { default: false }),
  mapped('spec.maxSize', INT32, 'maxSize', { note: '0 means size, as in the operator' }),
  mapped('spec.minSize', INT32, 'minSize', { note: '0 means unset, as in the operator' }),
  mapped('spec.network', OBJECT, 'network'),
  mapped('spec.network.disableAffinity', BOOLEAN, 'network.disableAffinity'),
  mapped('spec.network.headlessName', STRING, 'network.headlessName', {
    note: "'' means the MiniCluster name; the Service also sets publishNotReadyAddresses and names the broker port",
  }),
  mapped('spec.pod', OBJECT, 'pod'),
  mapped('spec.pod.annotations', MAP, 'pod.annotations'),
  mapped('spec.pod.annotations{}', STRING, 'pod.annotations{}'),
  mapped('spec.pod.automountServiceAccountToken', BOOLEAN, 'pod.automountServiceAccountToken'),
  mapped('spec.pod.dnsPolicy', STRING, 'pod.dnsPolicy'),
  mapped('spec.pod.hostIPC', BOOLEAN, 'pod.hostIPC'),
  mapped('spec.pod.hostPID', BOOLEAN, 'pod.hostPID'),
  mapped('spec.pod.labels', MAP, 'pod.labels'),
  mapped('spec.pod.labels{}', STRING, 'pod.labels{}'),
  mapped('spec.pod.nodeAffinity', MAP, 'pod.nodeAffinity'),
  mapped('spec.pod.nodeAffinity{}', ARRAY, 'pod.nodeAffinity{}'),
  mapped('spec.pod.nodeAffinity{}[]', STRING, 'pod.nodeAffinity{}[]'),
  mapped('spec.pod.nodeSelector', MAP, 'pod.nodeSelector'),
  mapped('spec.pod.nodeSelector{}', STRING, 'pod.nodeSelector{}'),
  rejected('spec.pod.resources', MAP,
    "the operator copies it to the pod's spec.overhead, which the RuntimeClass admission controller rejects unless a "
    + "RuntimeClass defines exactly that overhead; set the containers' resources instead"),
  ...inside('spec.pod.resources', FieldDecision.REJECTED, [rejected('spec.pod.resources{}', QUANTITY, '')]),
  mapped('spec.pod.restartPolicy', STRING, 'pod.restartPolicy', {
    note: 'OnFailure or Never; unset means Never with a podFailurePolicy on Kubernetes 1.29+ (the operator: OnFailure)',
  }),
  mapped('spec.pod.runtimeClassName', STRING, 'pod.runtimeClassName'),
  mapped('spec.pod.schedulerName', STRING, 'pod.schedulerName'),
  ...podSecurityContext('spec.pod.securityContext'),
  mapped('spec.pod.serviceAccountName', STRING, 'pod.serviceAccountName'),
  mapped('spec.pod.tolerations', ARRAY, 'pod.tolerations'),
  mapped('spec.pod.tolerations[]', OBJECT, 'pod.tolerations[]'),
  ...['effect', 'key', 'operator', 'value'].map((k) => mapped(`spec.pod.tolerations[].${k}`, STRING, `pod.tolerations[].${k}`)),
  rejected('spec.services', ARRAY, SERVICES_REASON),
  ...inside('spec.services', FieldDecision.REJECTED, containerFields('spec.services[]', '-')),
  mapped('spec.shareProcessNamespace', BOOLEAN, 'shareProcessNamespace'),
  mapped('spec.size', INT32, 'size', { default: 1, note: 'must be 1 or more (the operator silently ignores a MiniCluster of size 0)' }),
  mapped('spec.tasks', INT32, 'tasks', { default: 1 }),
  ...statusFields(),
];

/**
 * Fields of v1alpha1 (tag 0.1.1) and of stale examples that v1alpha2 removed or renamed, with what
 * to do instead. Paths use the same syntax as CRD_FIELDS.
 * @jsii ignore other languages: OperatorConverter.removedFields()
 */
export const REMOVED_FIELDS: { readonly [path: string]: string } = {
  'spec.users': 'removed in v1alpha2: multi-user accounts are gone; Flux runs as the container user',
  'spec.volumes': 'removed in v1alpha2 (the operator no longer creates PersistentVolumes or claims): create the claim yourself and mount it with containers[].volumes.<name>.claimName and path',
  'spec.fluxRestful': 'removed in v1alpha2 (the Flux RESTful API server): run it yourself, for example as a launcher command',
  'spec.localDeploy': 'removed in v1alpha2',
  'spec.flux.installRoot': 'removed in v1alpha2: Flux comes from the flux view at flux.container.mountPath',
  'spec.flux.curveCertSecret': 'removed in v1alpha2: give the certificate text in flux.curveCert (or use the certificate prop, CertificateSource.fromExistingSecret)',
  'spec.containers[].cores': 'removed in v1alpha2: R covers the node, or exactly the whole-CPU limit in resources.limits.cpu',
  'spec.containers[].diagnostics': 'removed in v1alpha2',
  'spec.containers[].fluxUser': 'removed in v1alpha2: Flux runs as the container user (securityContext.runAsUser)',
  'spec.containers[].preCommand': 'removed in v1alpha2: use commands.init (first thing in the entrypoint) or commands.pre',
  'spec.containers[].fluxOptionFlags': 'moved in v1alpha2 to spec.flux.optionFlags',
  'spec.containers[].fluxLogLevel': 'moved in v1alpha2 to spec.flux.logLevel',
  'spec.containers[].existingVolumes': 'renamed in v1alpha2 to volumes',
  'spec.containers[].commands.runFluxAsRoot': 'removed in v1alpha2: Flux runs as the container user',
  'spec.containers[].securityContext.addCapabilities': 'v1alpha2 uses the Kubernetes SecurityContext: use securityContext.capabilities.add',
};

/**
 * The only apiVersion converted.
 * @jsii ignore other languages: OperatorConverter.API_VERSION
 */
export const MINICLUSTER_API_VERSION = 'flux-framework.org/v1alpha2';
/**
 * The kind converted.
 * @jsii ignore other languages: OperatorConverter.KIND
 */
export const MINICLUSTER_KIND = 'MiniCluster';

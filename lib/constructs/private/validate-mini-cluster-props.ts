/**
 * Synth-time validation of MiniCluster props: a table of rules, each naming the property path,
 * the bad value and the rule. All problems are reported at once, before anything is created.
 */
import { isIP } from 'net';
import { CERTIFICATE_MOUNT_DIR } from '../../core/certificate-contract';
import {
  DEFAULT_HANDSHAKE_OUT_DIR, DEFAULT_HANDSHAKE_PORT, HANDSHAKE_NODE_ROOT, HANDSHAKE_PROGRAM_DIR_IN_RUNNER, HandshakeMode, rendezvousServiceName,
} from '../../core/handshake-contract';
import { ENTRYPOINT_MOUNT_DIR, SOFTWARE_MOUNT_DIR, VIEWS_MOUNT_DIR, viewMountPath, viewTreeDir } from '../../core/paths';
import { parseTopology } from '../../core/topology';
import { DEFAULT_KUBERNETES_VERSION, IMAGE_VOLUMES_MINOR, featuresIfValid, parseKubernetesVersion } from '../../core/kubernetes-version';
import {
  DNS1035_LABEL, DNS1123_LABEL, DNS1123_SUBDOMAIN, ENV_NAME, FSD, QUANTITY, Quantity, ceilMilliValue, ceilValue, compareQuantities,
  UNIX_ID_RULE, isUnixId, labelKeyError, labelValueError, parseQuantity,
} from '../../core/k8s-formats';
import { curveCertProblems } from '../../cert/parse';
import { CertificateSourceKind } from '../certificate';
import { MiniClusterProps } from '../mini-cluster-props';
import { FluxViewSource } from '../props/flux';
import { ContainerResources, ContainerSecurityContext, ContainerVolume, ImagePullPolicy, MiniClusterContainer } from '../props/container';
import { userMountPath } from './containers';
import { handshakeInRunner, viewSource } from './resolve';
import { runSuffixLength } from './gitops';
import { hardeningViolations } from './validate-hardening';
import { autoscaleViolations } from './autoscale';
import { placementViolations } from './placement';

/** One problem: where, what value, which rule. */
export interface Violation {
  readonly path: string;
  readonly value: unknown;
  readonly rule: string;
}

/** Largest parallelism the Job API accepts. */
const MAX_SIZE = 100000;
const QUEUE_POLICIES = ['fcfs', 'easy', 'hybrid', 'conservative'];
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const TOLERATION_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const PULL_POLICIES: string[] = Object.values(ImagePullPolicy);
const VOLUME_SOURCES: (keyof ContainerVolume)[] = ['hostPath', 'configMapName', 'claimName', 'secretName', 'emptyDir', 'csiDriver'];
/** Names the MiniCluster gives its own volumes. */
export const RESERVED_VOLUME_NAMES = ['flux-view', 'flux-software', 'flux-view-tree', 'flux-view-image', 'flux-entrypoint', 'flux-curve-cert', 'flux-handshake', 'flux-handshake-program', 'flux-handshake-node', 'flux-tmp', 'flux-autoscale', 'flux-autoscaler-token', 'flux-autoscaler-program'];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const intInRange = (v: unknown, lo: number, hi = Number.MAX_SAFE_INTEGER) => isInt(v) && v >= lo && v <= hi;

/** Resolved identity of the cluster being validated. */
export interface ValidationContext {
  readonly name: string;
  readonly namespace: string;
}

/** Returns every violation in `props` (empty when valid). */
export function validateMiniClusterProps(props: MiniClusterProps, ctx: ValidationContext): Violation[] {
  const out: Violation[] = [];
  const add = (path: string, value: unknown, rule: string) => out.push({ path, value, rule });
  const size = props.size ?? 1;
  const maxSize = props.maxSize ?? size;

  // Names: the Job name becomes every pod's hostname, which Flux matches against its hosts list.
  if (!DNS1035_LABEL.test(ctx.name) || ctx.name.length > 63) {
    add('name', ctx.name, 'must be a DNS-1035 label: lower-case letters, digits and -, starting with a letter, at most 63 characters');
  } else if (isInt(maxSize) && maxSize >= 1 && `${ctx.name}-${maxSize - 1}`.length > 63) {
    add('name', ctx.name, `pod hostname '${ctx.name}-${maxSize - 1}' exceeds 63 characters (the Job controller does not truncate it); shorten the name or lower maxSize`);
  }
  if (!DNS1123_LABEL.test(ctx.namespace) || ctx.namespace.length > 63) {
    add('namespace', ctx.namespace, 'must be a DNS-1123 label');
  }

  // Sizes (the operator's Validate()).
  if (!intInRange(size, 1, MAX_SIZE)) add('size', props.size, `must be an integer from 1 to ${MAX_SIZE}`);
  if (props.maxSize !== undefined && (!intInRange(props.maxSize, 1, MAX_SIZE) || (isInt(size) && props.maxSize < size))) {
    add('maxSize', props.maxSize, `must be an integer from size (${size}) to ${MAX_SIZE}`);
  }
  if (props.minSize !== undefined && (!intInRange(props.minSize, 1) || props.minSize > size || props.minSize > maxSize)) {
    add('minSize', props.minSize, `must be an integer from 1 to size (${size}) and maxSize (${maxSize})`);
  }
  if (props.tasks !== undefined && !intInRange(props.tasks, 0)) add('tasks', props.tasks, 'must be an integer >= 0');
  if (props.deadlineSeconds !== undefined && !intInRange(props.deadlineSeconds, 1)) add('deadlineSeconds', props.deadlineSeconds, 'must be an integer >= 1');
  if (props.backoffLimit !== undefined && !intInRange(props.backoffLimit, 0, 2147483647)) add('backoffLimit', props.backoffLimit, 'must be an integer >= 0');
  if (props.ttlSecondsAfterFinished !== undefined && !intInRange(props.ttlSecondsAfterFinished, 0, 2147483647)) {
    add('ttlSecondsAfterFinished', props.ttlSecondsAfterFinished, 'must be an integer >= 0');
  }
  if (props.kubernetesVersion !== undefined) {
    const v = parseKubernetesVersion(props.kubernetesVersion);
    if (typeof v === 'string') add('kubernetesVersion', props.kubernetesVersion, v);
  }
  if (props.archive !== undefined && !isAbsolutePath(props.archive.path)) add('archive.path', props.archive.path, 'must be an absolute path');
  validateLabels(props.jobLabels, 'jobLabels', add);

  validateCertificate(props, ctx, add);
  validateHandshake(props, add);
  validateRendezvousName(props, ctx, add);
  validateFlux(props, add);
  validateNetwork(props, add);
  validateNetworkPolicy(props, add);
  validatePod(props, add);
  validateContainers(props, add);
  out.push(...hardeningViolations(props, ctx));
  out.push(...autoscaleViolations(props));
  out.push(...placementViolations(props));
  return out;
}

/** Formats violations as one error message. */
export function formatViolations(clusterName: string, violations: Violation[]): string {
  const lines = violations.map((v) => `  - ${v.path} = ${formatValue(v.value)}: ${v.rule}`);
  return `invalid MiniCluster '${clusterName}' (${violations.length} problem${violations.length === 1 ? '' : 's'}):\n${lines.join('\n')}`;
}

function formatValue(v: unknown): string {
  if (v === undefined) return '(unset)';
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

type Add = (path: string, value: unknown, rule: string) => void;

function validateHandshake(props: MiniClusterProps, add: Add) {
  const h = props.handshake;
  if (!h || h.enabled === false) return;
  if (h.deadlineSeconds !== undefined && !intInRange(h.deadlineSeconds, 1, 86400)) add('handshake.deadlineSeconds', h.deadlineSeconds, 'must be an integer from 1 to 86400');
  const brokerPort = props.network?.brokerPort ?? 8050;
  if (h.port !== undefined && (!intInRange(h.port, 1, 65535) || h.port === brokerPort)) {
    add('handshake.port', h.port, `must be a port from 1 to 65535 other than the broker port (${brokerPort})`);
  }
  const handshakePort = h.port ?? DEFAULT_HANDSHAKE_PORT;
  if (h.readyPort !== undefined && (!intInRange(h.readyPort, 1, 65535) || h.readyPort === brokerPort || h.readyPort === handshakePort)) {
    add('handshake.readyPort', h.readyPort, `must be a port from 1 to 65535 other than the broker port (${brokerPort}) and handshake.port (${handshakePort})`);
  }
  if (h.mode !== undefined && !Object.values(HandshakeMode).includes(h.mode)) add('handshake.mode', h.mode, `must be one of ${Object.values(HandshakeMode).join(', ')}`);
  if (h.mode === HandshakeMode.RENDEZVOUS && featuresIfValid(props.kubernetesVersion)?.completionIndexLabel === false) {
    add('handshake.mode', h.mode, 'rendezvous needs Kubernetes 1.28 or newer (the job-completion-index pod label); use HandshakeMode.DNS');
  }
  if (h.image !== undefined && (h.image.trim() === '' || /\s/.test(h.image))) add('handshake.image', h.image, 'must be a non-empty image reference without spaces');
  const features = featuresIfValid(props.kubernetesVersion);
  if (h.inRunner === true && features && !features.imageVolumes) {
    add('handshake.inRunner', h.inRunner, `needs Kubernetes 1.${IMAGE_VOLUMES_MINOR} or newer, where image volumes are on by default (kubernetesVersion is ${props.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION}); set it to false`);
  }
}

/**
 * The rendezvous Service (the default handshake mode from 1.28) is named `<job>-rendezvous`, and a
 * Service name is a DNS-1035 label of at most 63 characters: 11 fewer than the Job name may have.
 */
function validateRendezvousName(props: MiniClusterProps, ctx: ValidationContext, add: Add) {
  const h = props.handshake ?? {};
  const features = featuresIfValid(props.kubernetesVersion);
  if (h.enabled === false || !features) return;
  if ((h.mode ?? (features.completionIndexLabel ? HandshakeMode.RENDEZVOUS : HandshakeMode.DNS)) !== HandshakeMode.RENDEZVOUS) return;
  // A name that is itself too long is already reported.
  if (!DNS1035_LABEL.test(ctx.name) || ctx.name.length > 63) return;
  const runId = props.gitOps?.runId;
  const extra = runSuffixLength(props.gitOps);
  // A content hash is not known yet: x's stand for its digits.
  const suffix = runId !== undefined ? `-${runId}` : extra > 0 ? `-${'x'.repeat(extra - 1)}` : '';
  const service = rendezvousServiceName(`${ctx.name}${suffix}`);
  if (service.length <= 63) return;
  add('name', ctx.name, `the handshake's rendezvous Service '${service}' would have ${service.length} characters, over 63 (a Service name is a DNS-1035 label); shorten the name to at most ${ctx.name.length - (service.length - 63)} characters or set handshake.mode to HandshakeMode.DNS`);
}

function validateCertificate(props: MiniClusterProps, ctx: ValidationContext, add: Add) {
  const c = props.certificate;
  const kind = c?.kind ?? CertificateSourceKind.GENERATED_IN_CLUSTER;
  const secret = c?.secretNameFor(ctx.name) ?? `${ctx.name}-curve`;
  // A default name derived from a bad cluster name is already reported as `name`.
  const derivedFromBadName = secret === `${ctx.name}-curve` && !DNS1035_LABEL.test(ctx.name);
  if (!derivedFromBadName && (!DNS1123_SUBDOMAIN.test(secret) || secret.length > 253)) add('certificate.secretName', secret, 'must be a Secret name (DNS-1123 subdomain)');
  if (kind === CertificateSourceKind.GENERATED_IN_CLUSTER && ctx.name.length > 52) {
    add('name', ctx.name, 'must be at most 52 characters with CertificateSource.generatedInCluster() (its Job is `<name>-curve-cert`)');
  }
  if (kind === CertificateSourceKind.GENERATED_IN_CLUSTER && c?.generated?.ttlSecondsAfterFinished !== undefined && !intInRange(c.generated.ttlSecondsAfterFinished, 0)) {
    add('certificate.ttlSecondsAfterFinished', c.generated.ttlSecondsAfterFinished, 'must be an integer >= 0');
  }
  if (kind === CertificateSourceKind.INSECURE_INLINE) {
    // Problems never quote key material.
    for (const problem of curveCertProblems(c?.inlineCertificate ?? '')) add('certificate.inlineCertificate', '(certificate)', problem);
  }
}

function validateFlux(props: MiniClusterProps, add: Add) {
  const f = props.flux ?? {};
  const c = f.container ?? {};
  if (f.topology !== undefined) {
    const t = parseTopology(f.topology);
    if (typeof t === 'string') add('flux.topology', f.topology, t);
  }
  if (f.connectTimeout !== undefined && f.connectTimeout !== '' && !FSD.test(f.connectTimeout)) {
    add('flux.connectTimeout', f.connectTimeout, "must be a Flux duration such as '5s', '500ms' or '1m', or '' for Flux's default");
  }
  if (f.logLevel !== undefined && !intInRange(f.logLevel, 0, 7)) add('flux.logLevel', f.logLevel, 'must be an integer from 0 to 7');
  const qp = f.scheduler?.queuePolicy;
  if (qp !== undefined && !QUEUE_POLICIES.includes(qp)) add('flux.scheduler.queuePolicy', qp, `must be one of ${QUEUE_POLICIES.join(', ')}`);
  for (const name of Object.keys(f.environment ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) add(`flux.environment.${name}`, name, 'must be a shell variable name');
  }
  if (c.name !== undefined && (!DNS1123_LABEL.test(c.name) || c.name.length > 63)) add('flux.container.name', c.name, 'must be a DNS-1123 label');
  if (c.mountPath !== undefined && (!isAbsolutePath(c.mountPath) || c.mountPath === '/')) {
    add('flux.container.mountPath', c.mountPath, 'must be an absolute path other than /');
  }
  if (c.image !== undefined && c.image.trim() === '') add('flux.container.image', c.image, 'must not be empty');
  if (c.inMemory && c.disable) add('flux.container.inMemory', c.inMemory, 'needs the view: flux.container.disable is true, so nothing is copied');
  validateViewSource(props, add);
  validateResources(c.resources, 'flux.container.resources', add);
  validateSecurityContext(c.securityContext, 'flux.container.securityContext', add);
  if (f.wrap !== undefined && /\s/.test(f.wrap)) add('flux.wrap', f.wrap, 'must be a comma-separated argument list without spaces (flux start --wrap)');
}

/** flux.container.source: a known value, agreeing with inMemory, with a view, on a version that has image volumes. */
function validateViewSource(props: MiniClusterProps, add: Add) {
  const c = props.flux?.container ?? {};
  const source = c.source;
  if (source === undefined) return;
  const known = Object.values(FluxViewSource) as string[];
  if (!known.includes(source)) {
    add('flux.container.source', source, `must be one of ${known.join(', ')}`);
    return;
  }
  if (c.inMemory !== undefined && c.inMemory !== (source === FluxViewSource.COPY_TO_MEMORY)) {
    add('flux.container.inMemory', c.inMemory, `contradicts flux.container.source '${source}' (inMemory: true is source '${FluxViewSource.COPY_TO_MEMORY}'); set only source`);
  }
  if (c.disable && source !== FluxViewSource.COPY_TO_DISK) {
    add('flux.container.source', source, 'needs the view: flux.container.disable is true, so the pods get no Flux from the view image');
  }
  const features = featuresIfValid(props.kubernetesVersion);
  if (source === FluxViewSource.IMAGE_VOLUME && features && !features.imageVolumes) {
    add('flux.container.source', source, `needs Kubernetes 1.${IMAGE_VOLUMES_MINOR} or newer, where image volumes are on by default `
      + `(kubernetesVersion is ${props.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION}); use '${FluxViewSource.COPY_TO_DISK}' or '${FluxViewSource.COPY_TO_MEMORY}' before`);
  }
}

function validateNetwork(props: MiniClusterProps, add: Add) {
  const n = props.network ?? {};
  if (n.headlessName !== undefined && (!DNS1035_LABEL.test(n.headlessName) || n.headlessName.length > 63)) {
    add('network.headlessName', n.headlessName, 'must be a DNS-1035 label (it names a Service)');
  }
  if (n.clusterDomain !== undefined && !DNS1123_SUBDOMAIN.test(n.clusterDomain)) {
    add('network.clusterDomain', n.clusterDomain, 'must be a DNS domain such as cluster.local');
  }
  if (n.bindInterface !== undefined && !/^[A-Za-z0-9_.:@-]{1,15}$/.test(n.bindInterface)) {
    add('network.bindInterface', n.bindInterface, 'must be a network interface name (1-15 characters)');
  }
  if (n.brokerPort !== undefined && !intInRange(n.brokerPort, 1, 65535)) add('network.brokerPort', n.brokerPort, 'must be a port from 1 to 65535');
}

function validateNetworkPolicy(props: MiniClusterProps, add: Add) {
  const np = props.networkPolicy;
  if (!np) return;
  (np.apiServerCidrs ?? []).forEach((c, i) => {
    if (!isCidr(c)) add(`networkPolicy.apiServerCidrs[${i}]`, c, 'must be an IPv4 or IPv6 CIDR such as 10.0.0.0/16 or fd00::/64');
  });
  if (np.apiServerCidrs !== undefined && np.apiServerCidrs.length === 0) add('networkPolicy.apiServerCidrs', np.apiServerCidrs, 'must list at least one CIDR (leave it unset for any address)');
  (np.apiServerPorts ?? []).forEach((port, i) => {
    if (!intInRange(port, 1, 65535)) add(`networkPolicy.apiServerPorts[${i}]`, port, 'must be a port from 1 to 65535');
  });
  if (np.apiServerPorts !== undefined && np.apiServerPorts.length === 0) add('networkPolicy.apiServerPorts', np.apiServerPorts, 'must list at least one port');
  if (np.allowAllEgress && (np.apiServerCidrs !== undefined || np.apiServerPorts !== undefined)) {
    add('networkPolicy.allowAllEgress', true, 'leaves egress open already: apiServerCidrs and apiServerPorts have no effect with it');
  }
}

function validatePod(props: MiniClusterProps, add: Add) {
  const p = props.pod ?? {};
  validateLabels(p.labels, 'pod.labels', add);
  for (const k of Object.keys(p.annotations ?? {})) {
    const e = labelKeyError(k);
    if (e) add(`pod.annotations.${k}`, k, e);
  }
  validateLabels(p.nodeSelector, 'pod.nodeSelector', add);
  for (const [k, values] of Object.entries(p.nodeAffinity ?? {})) {
    const e = labelKeyError(k);
    if (e) add(`pod.nodeAffinity.${k}`, k, e);
    if (!Array.isArray(values) || values.length === 0) add(`pod.nodeAffinity.${k}`, values, 'must list at least one value');
    // Required node affinity: the API server checks every value as a label value.
    (Array.isArray(values) ? values : []).forEach((v, j) => {
      const ve = typeof v === 'string' ? labelValueError(v) : 'must be a string';
      if (ve) add(`pod.nodeAffinity.${k}[${j}]`, v, ve);
    });
  }
  (p.tolerations ?? []).forEach((t, i) => {
    if (t.operator !== undefined && !TOLERATION_OPERATORS.includes(t.operator)) add(`pod.tolerations[${i}].operator`, t.operator, 'must be Equal or Exists');
    const keyError = t.key ? labelKeyError(t.key) : undefined;
    if (keyError) add(`pod.tolerations[${i}].key`, t.key, keyError);
    if (!t.key && (t.operator ?? 'Equal') !== 'Exists') {
      add(`pod.tolerations[${i}].operator`, t.operator, 'must be Exists when key is empty (a toleration without a key matches every taint)');
    }
    const valueError = (t.operator ?? 'Equal') === 'Equal' && t.value !== undefined ? labelValueError(t.value) : undefined;
    if (valueError) add(`pod.tolerations[${i}].value`, t.value, valueError);
    if (t.effect !== undefined && !TOLERATION_EFFECTS.includes(t.effect)) add(`pod.tolerations[${i}].effect`, t.effect, `must be one of ${TOLERATION_EFFECTS.join(', ')}`);
    if (t.operator === 'Exists' && t.value !== undefined) add(`pod.tolerations[${i}].value`, t.value, 'must be empty when operator is Exists');
    if (t.tolerationSeconds !== undefined && (!isInt(t.tolerationSeconds) || t.effect !== 'NoExecute')) {
      add(`pod.tolerations[${i}].tolerationSeconds`, t.tolerationSeconds, 'must be an integer, with effect NoExecute (the only effect that evicts)');
    }
  });
  if (p.nodeLossSeconds !== undefined && !intInRange(p.nodeLossSeconds, 0, 86400)) {
    add('pod.nodeLossSeconds', p.nodeLossSeconds, 'must be an integer from 0 to 86400 (seconds on a node that stopped answering before eviction)');
  }
  if (p.dnsPolicy !== undefined && !DNS_POLICIES.includes(p.dnsPolicy)) add('pod.dnsPolicy', p.dnsPolicy, `must be one of ${DNS_POLICIES.join(', ')}`);
  if (p.fsGroup !== undefined && !isUnixId(p.fsGroup)) add('pod.fsGroup', p.fsGroup, UNIX_ID_RULE);
  if (p.hostPID === true && props.shareProcessNamespace === true) {
    add('pod.hostPID', true, 'cannot be combined with shareProcessNamespace: true (the API server rejects a pod that shares both its own and the host PID namespace)');
  }
  for (const [field, v] of [['serviceAccountName', p.serviceAccountName], ['runtimeClassName', p.runtimeClassName], ['schedulerName', p.schedulerName]] as const) {
    if (v !== undefined && !DNS1123_SUBDOMAIN.test(v)) add(`pod.${field}`, v, 'must be a DNS-1123 subdomain');
  }
}

function validateContainers(props: MiniClusterProps, add: Add) {
  const containers = props.containers ?? [];
  if (!Array.isArray(containers) || containers.length === 0) {
    add('containers', props.containers, 'must list at least one container');
    return;
  }
  const runners = containers.filter((c) => c.runFlux === true || containers.length === 1);
  if (runners.length !== 1) {
    add('containers', containers.map((c) => c.name ?? c.image), `exactly one container must set runFlux (found ${runners.length})`);
  }
  const seenNames = new Map<string, number>();
  const volumes = new Map<string, { json: string; index: number }>();
  containers.forEach((c, i) => {
    const path = `containers[${i}]`;
    const isRunner = c.runFlux === true || containers.length === 1;
    validateContainer(c, path, isRunner, add);
    if (c.sidecar && featuresIfValid(props.kubernetesVersion)?.nativeSidecars === false) {
      add(`${path}.sidecar`, true, 'native sidecars need Kubernetes 1.29 or newer (kubernetesVersion); on older versions run the container as a plain one');
    }
    const name = isRunner ? '(runner)' : c.name;
    if (name !== undefined) {
      if (seenNames.has(name)) add(`${path}.name`, c.name, `duplicates containers[${seenNames.get(name)}].name`);
      else seenNames.set(name, i);
    }
    for (const [vname, vol] of Object.entries(c.volumes ?? {})) {
      const json = JSON.stringify(vol, Object.keys(vol).sort());
      const prev = volumes.get(vname);
      if (prev && prev.json !== json) {
        add(`${path}.volumes.${vname}`, vol, `volume '${vname}' is defined differently in containers[${prev.index}]; a volume name is one pod volume`);
      } else if (!prev) {
        volumes.set(vname, { json, index: i });
      }
      validateVolume(vname, vol, `${path}.volumes.${vname}`, add);
    }
  });
  containers.forEach((c, i) => validateMountPaths(props, c, `containers[${i}]`, c.runFlux === true || containers.length === 1, add));
  const runner = containers.find((c) => c.runFlux === true || containers.length === 1);
  const runnerName = props.name;
  for (const c of containers) {
    if (c !== runner && c.name !== undefined && c.name === runnerName) {
      add(`containers[${containers.indexOf(c)}].name`, c.name, 'clashes with the Flux runner, which is named after the MiniCluster');
    }
  }
}

function validateContainer(c: MiniClusterContainer, path: string, isRunner: boolean, add: Add) {
  if (typeof c.image !== 'string' || c.image.trim() === '' || /\s/.test(c.image)) add(`${path}.image`, c.image, 'must be a non-empty image reference without spaces');
  if (!isRunner && c.name === undefined) add(`${path}.name`, c.name, 'required for containers that do not run Flux');
  if (c.name !== undefined && (!DNS1123_LABEL.test(c.name) || c.name.length > 63)) add(`${path}.name`, c.name, 'must be a DNS-1123 label');
  if (c.launcher && c.batch) add(`${path}.launcher`, c.launcher, 'launcher and batch are mutually exclusive');
  if (c.batchRaw && !c.batch) add(`${path}.batchRaw`, c.batchRaw, 'requires batch');
  if (c.commands?.script !== undefined && c.command !== undefined) add(`${path}.commands.script`, '(script)', 'script and command are mutually exclusive');
  if ((c.launcher || c.batch) && !c.command?.trim() && !c.commands?.script?.trim()) {
    add(`${path}.command`, c.command, `required with ${c.launcher ? 'launcher' : 'batch'}`);
  }
  if (!isRunner) {
    for (const f of ['launcher', 'batch', 'batchRaw'] as const) if (c[f]) add(`${path}.${f}`, c[f], 'only the Flux runner container can set it');
    for (const f of ['brokerPre', 'workerPre', 'prefix', 'script'] as const) {
      if (c.commands?.[f] !== undefined) add(`${path}.commands.${f}`, '(set)', 'only the Flux runner container runs it');
    }
  } else if (c.noWrapEntrypoint) {
    add(`${path}.noWrapEntrypoint`, true, 'the Flux runner always runs the entrypoint script');
  }
  if (isRunner && c.sidecar) add(`${path}.sidecar`, true, 'the Flux runner is the pod\'s main container; only other containers can be sidecars');
  if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy)) add(`${path}.imagePullPolicy`, c.imagePullPolicy, `must be one of ${PULL_POLICIES.join(', ')}`);
  if (c.workingDir !== undefined && !isAbsolutePath(c.workingDir)) add(`${path}.workingDir`, c.workingDir, 'must be an absolute path');
  if (c.logs !== undefined && !isAbsolutePath(c.logs)) add(`${path}.logs`, c.logs, 'must be an absolute path');
  if (c.imagePullSecret !== undefined && !DNS1123_SUBDOMAIN.test(c.imagePullSecret)) add(`${path}.imagePullSecret`, c.imagePullSecret, 'must be a DNS-1123 subdomain (a Secret name)');
  const ports = c.ports ?? [];
  ports.forEach((p, j) => {
    if (!intInRange(p, 1, 65535)) add(`${path}.ports[${j}]`, p, 'must be a port from 1 to 65535');
    if (ports.indexOf(p) !== j) add(`${path}.ports[${j}]`, p, 'duplicate port');
  });
  for (const name of Object.keys(c.environment ?? {})) {
    if (!ENV_NAME.test(name)) add(`${path}.environment.${name}`, name, 'must be a valid environment variable name');
  }
  for (const [name, ref] of Object.entries(c.secrets ?? {})) {
    if (!ENV_NAME.test(name)) add(`${path}.secrets.${name}`, name, 'must be a valid environment variable name');
    if (c.environment && name in c.environment) add(`${path}.secrets.${name}`, name, 'also set in environment');
    if (!ref || !DNS1123_SUBDOMAIN.test(ref.name ?? '')) add(`${path}.secrets.${name}.name`, ref?.name, 'must be a Secret name (DNS-1123 subdomain)');
    if (!ref || !/^[-._a-zA-Z0-9]+$/.test(ref.key ?? '')) add(`${path}.secrets.${name}.key`, ref?.key, 'must be a Secret key');
  }
  validateResources(c.resources, `${path}.resources`, add);
  validateSecurityContext(c.securityContext, `${path}.securityContext`, add);
}

function validateSecurityContext(sc: ContainerSecurityContext | undefined, path: string, add: Add) {
  for (const f of ['runAsUser', 'runAsGroup'] as const) {
    if (sc?.[f] !== undefined && !isUnixId(sc[f])) add(`${path}.${f}`, sc[f], UNIX_ID_RULE);
  }
  if (sc?.privileged && sc.allowPrivilegeEscalation === false) {
    add(`${path}.allowPrivilegeEscalation`, false, 'cannot be false when privileged is true');
  }
}

/**
 * The API server rejects a container that mounts two volumes at one path: a user volume may not
 * take the path of another (emptyDir volumes without a path all go to /dev/shm) or of a mount the
 * MiniCluster adds to the container (containers.ts, handshake.ts). It compares the mount paths as
 * written, so these are the strings the manifest carries: '/data' and '/data/' are two paths.
 */
function validateMountPaths(props: MiniClusterProps, c: MiniClusterContainer, path: string, isRunner: boolean, add: Add) {
  const taken = new Map<string, string>();
  if (isRunner || !c.noWrapEntrypoint) {
    const view = props.flux?.container;
    taken.set(viewMountPath(view?.mountPath), 'the Flux view (flux.container.mountPath)');
    taken.set(ENTRYPOINT_MOUNT_DIR, 'the entrypoint ConfigMap');
    taken.set(CERTIFICATE_MOUNT_DIR, 'the certificate Secret');
    if (!view?.disable) taken.set(SOFTWARE_MOUNT_DIR, 'the Flux software volume');
    const source = view ? viewSource(view) : FluxViewSource.COPY_TO_DISK;
    if (!view?.disable && source === FluxViewSource.COPY_TO_MEMORY) taken.set(viewTreeDir(view?.mountPath), 'the in-memory Flux view (flux.container.inMemory)');
    if (!view?.disable && source === FluxViewSource.IMAGE_VOLUME) {
      taken.set(VIEWS_MOUNT_DIR, 'the Flux view image volume (flux.container.source)');
      taken.set(viewTreeDir(view?.mountPath), 'the link to the Flux view image volume (flux.container.source)');
    }
    if (isRunner && props.handshake?.enabled !== false) taken.set(DEFAULT_HANDSHAKE_OUT_DIR, 'the hosts handshake volume');
    if (isRunner && handshakeInRunner(props)) {
      taken.set(HANDSHAKE_NODE_ROOT, 'the handshake image volume (handshake.inRunner)');
      taken.set(HANDSHAKE_PROGRAM_DIR_IN_RUNNER, 'the handshake program (handshake.inRunner)');
    }
  }
  for (const name of Object.keys(c.volumes ?? {}).sort()) {
    const v = c.volumes![name];
    const at = v ? userMountPath(v) : '';
    if (!isAbsolutePath(at)) continue;
    const owner = taken.get(at);
    if (owner !== undefined) {
      add(`${path}.volumes.${name}.path`, v.path, v.path === undefined
        ? `an emptyDir without a path mounts at ${at}, where ${owner} is already mounted in this container; give it a path`
        : `${owner} is already mounted at ${at} in this container; give each volume its own path`);
    } else {
      taken.set(at, `volume '${name}'`);
    }
  }
}

function validateVolume(name: string, v: ContainerVolume, path: string, add: Add) {
  if (!DNS1123_LABEL.test(name) || name.length > 63) add(path, name, 'volume name must be a DNS-1123 label');
  if (RESERVED_VOLUME_NAMES.includes(name)) add(path, name, `volume name is reserved by the MiniCluster (${RESERVED_VOLUME_NAMES.join(', ')})`);
  const sources = VOLUME_SOURCES.filter((k) => v[k] !== undefined && v[k] !== false);
  if (sources.length > 1) add(path, sources, 'set at most one of hostPath, configMapName, claimName, secretName, emptyDir, csiDriver');
  if (sources.length === 0 && v.claimName === undefined) add(`${path}.claimName`, undefined, 'a volume needs a source: claimName, hostPath, configMapName, secretName, emptyDir or csiDriver');
  if ((v.claimName !== undefined || v.hostPath !== undefined) && v.path === undefined) add(`${path}.path`, undefined, 'required for claimName and hostPath volumes');
  if (v.path !== undefined && !isAbsolutePath(v.path)) add(`${path}.path`, v.path, 'must be an absolute path');
  if (v.hostPath !== undefined && !isAbsolutePath(v.hostPath)) add(`${path}.hostPath`, v.hostPath, 'must be an absolute path');
  if (v.items !== undefined && v.configMapName === undefined) add(`${path}.items`, v.items, 'only for configMapName volumes');
  for (const [key, p] of Object.entries(v.items ?? {})) {
    if (p.startsWith('/') || p.split('/').includes('..')) add(`${path}.items.${key}`, p, 'must be a relative path without ..');
  }
  if ((v.emptyDirMedium !== undefined || v.emptyDirSizeLimit !== undefined) && !v.emptyDir) {
    add(path, v.emptyDirMedium ?? v.emptyDirSizeLimit, 'emptyDirMedium and emptyDirSizeLimit need emptyDir: true');
  }
  if (v.emptyDirMedium !== undefined && !['memory', 'Memory', ''].includes(v.emptyDirMedium)) add(`${path}.emptyDirMedium`, v.emptyDirMedium, "must be 'memory' or ''");
  if (v.emptyDirSizeLimit !== undefined && !QUANTITY.test(v.emptyDirSizeLimit)) add(`${path}.emptyDirSizeLimit`, v.emptyDirSizeLimit, 'must be a quantity such as 1Gi');
  if (v.csiDriverAttributes !== undefined && v.csiDriver === undefined) add(`${path}.csiDriverAttributes`, v.csiDriverAttributes, 'only for csiDriver volumes');
  for (const [field, val] of [['configMapName', v.configMapName], ['claimName', v.claimName], ['secretName', v.secretName]] as const) {
    if (val !== undefined && !DNS1123_SUBDOMAIN.test(val)) add(`${path}.${field}`, val, 'must be a DNS-1123 subdomain');
  }
}

/** The prefix of huge page resource names (hugepages-<page size>). */
const HUGE_PAGES = 'hugepages-';

/** A rule on the quantities of the resource names it applies to (besides being a quantity). */
interface QuantityRule {
  readonly applies: (res: string) => boolean;
  readonly broken: (q: Quantity, res: string) => boolean;
  readonly rule: (res: string) => string;
}

/** The API server's rules on a container's resource quantities (ValidateResourceQuantityValue and the huge page check). */
const QUANTITY_RULES: QuantityRule[] = [
  { applies: () => true, broken: (q) => q.num < 0n, rule: () => 'must not be negative' },
  // MilliValue() rounds up, so 0.9999 passes upstream; the same rounding here accepts what it accepts.
  {
    applies: (res) => isExtendedResource(res),
    broken: (q) => ceilMilliValue(q) % 1000n !== 0n,
    rule: (res) => `must be a whole number: ${res} is an extended resource, allocated in whole units`,
  },
  // IsHugePageResourceValueDivisible compares Value()s, each rounded up.
  {
    applies: (res) => hugePageSize(res) !== undefined,
    broken: (q, res) => ceilValue(q) % ceilValue(hugePageSize(res)!) !== 0n,
    rule: (res) => `must be a whole number of ${res.slice(HUGE_PAGES.length)} pages`,
  },
];

/**
 * Resources as the API server checks them (validateResourceRequirements): container resource names,
 * quantity rules, requests at most the limits, and requests equal to limits for what cannot be
 * overcommitted (extended resources such as nvidia.com/gpu, and huge pages). Quantities are compared
 * exactly, as the API server does: 700m equals 0.7.
 */
function validateResources(r: ContainerResources | undefined, path: string, add: Add) {
  for (const kind of ['requests', 'limits'] as const) {
    for (const [res, raw] of Object.entries(r?.[kind] ?? {})) {
      const at = `${path}.${kind}.${res}`;
      const q = quantityOf(raw);
      if (q === undefined) add(at, raw, "must be a quantity such as '500m', '2Gi' or '4'");
      const nameError = resourceNameError(res);
      if (nameError) add(at, res, nameError);
      for (const rule of QUANTITY_RULES) {
        if (q !== undefined && rule.applies(res) && rule.broken(q, res)) add(at, raw, rule.rule(res));
      }
    }
  }
  const all = [...Object.keys(r?.requests ?? {}), ...Object.keys(r?.limits ?? {})];
  if (all.some((res) => res.startsWith(HUGE_PAGES)) && !all.some((res) => res === 'cpu' || res === 'memory')) {
    add(path, all, 'huge pages need a cpu or memory request or limit in the same container');
  }
  const limits = r?.limits ?? {};
  for (const [res, raw] of Object.entries(r?.requests ?? {})) {
    const overcommit = isNativeResource(res) && !res.startsWith(HUGE_PAGES);
    const request = quantityOf(raw);
    const limit = quantityOf(limits[res]);
    if (!(res in limits)) {
      if (!overcommit) add(`${path}.limits.${res}`, undefined, `required with requests.${res}: ${res} cannot be overcommitted, so its limit must be set and equal the request`);
    } else if (request !== undefined && limit !== undefined) {
      if (!overcommit && compareQuantities(request, limit) !== 0) add(`${path}.requests.${res}`, raw, `must equal limits.${res} (${limits[res]}): ${res} cannot be overcommitted`);
      else if (compareQuantities(request, limit) > 0) add(`${path}.requests.${res}`, raw, `must be at most limits.${res} (${limits[res]})`);
    }
  }
}

/** A resource quantity given as text, exactly, or undefined. */
function quantityOf(raw: unknown): Quantity | undefined {
  return typeof raw === 'string' ? parseQuantity(raw) : undefined;
}

/** IsNativeResource: unprefixed (cpu, memory, ...) or in a kubernetes.io domain. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** IsExtendedResourceName: a valid domain-prefixed name outside kubernetes.io, such as nvidia.com/gpu. */
function isExtendedResource(name: string): boolean {
  return !isNativeResource(name) && !name.startsWith(HUGE_PAGES) && resourceNameError(name) === undefined;
}

/** The page size of a huge page resource name when it is a positive whole number of bytes, else undefined. */
function hugePageSize(name: string): Quantity | undefined {
  if (!name.startsWith(HUGE_PAGES)) return undefined;
  const page = parseQuantity(name.slice(HUGE_PAGES.length));
  // IsHugePageResourceValueDivisible: a page size that is not positive or not whole fits nothing.
  return page !== undefined && page.num > 0n && ceilMilliValue(page) % 1000n === 0n ? page : undefined;
}

/** Why `name` is not a container resource name (cpu, memory, ephemeral-storage, hugepages-<size> or domain/name). */
function resourceNameError(name: string): string | undefined {
  if (['cpu', 'memory', 'ephemeral-storage'].includes(name)) return undefined;
  if (name.startsWith(HUGE_PAGES)) {
    return hugePageSize(name) ? undefined : 'a huge page resource is hugepages-<page size>, the page size a positive whole number of bytes such as 2Mi';
  }
  if (!name.includes('/')) return "must be cpu, memory, ephemeral-storage, hugepages-<size> or an extended resource such as 'nvidia.com/gpu'";
  const e = labelKeyError(name);
  return e ?? (name.startsWith('requests.') ? "an extended resource name must not start with 'requests.'" : undefined);
}

function validateLabels(labels: { [k: string]: string } | undefined, path: string, add: Add) {
  for (const [k, v] of Object.entries(labels ?? {})) {
    const ke = labelKeyError(k);
    if (ke) add(`${path}.${k}`, k, ke);
    const ve = typeof v === 'string' ? labelValueError(v) : 'must be a string';
    if (ve) add(`${path}.${k}`, v, ve);
  }
}

function isCidr(c: unknown): boolean {
  if (typeof c !== 'string') return false;
  const m = /^([^/]+)\/(\d{1,3})$/.exec(c);
  if (!m) return false;
  const family = isIP(m[1]);
  return family !== 0 && Number(m[2]) <= (family === 4 ? 32 : 128);
}

function isAbsolutePath(p: unknown): boolean {
  return typeof p === 'string' && p.startsWith('/') && !p.split('/').includes('..');
}

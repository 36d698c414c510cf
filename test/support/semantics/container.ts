/**
 * Containers of a pod spec, after pkg/apis/core/validation/validation.go: validateContainers,
 * validateInitContainers, validateContainerCommon, validateContainerPorts, ValidateEnv,
 * validateEnvVarValueFrom, ValidateEnvFrom, ValidateVolumeMounts, ValidateVolumeDevices,
 * validateResourceRequirements, ValidateSecurityContext, the probe and lifecycle handler rules
 * (validateProbe, validateLivenessProbe, validateReadinessProbe, validateStartupProbe,
 * validateHandler, validateLifecycle, validateSleepAction) and checkHostPortConflicts.
 *
 * Values the API server defaults before validating (SetDefaults_Container, SetDefaults_Probe,
 * SetDefaults_ContainerPort) are read with their defaults.
 */
import { FieldErrors, PathSegment, asArray, asObject, asString, isInt, isObject } from './field-errors';
import { FeatureSet } from './features';
import {
  Quantity, ceilMilliValue, ceilValue, compareQuantities, configMapKey, dns1123Label, dns1123Subdomain, envVarName, parseQuantity,
  portName, portNum, qualifiedName, relaxedEnvVarName, unixId,
} from './formats';
import { maskTrailingDash } from './meta';
import { PULL_POLICIES, Volumes, validateLocalDescendingPath, validateObjectFieldSelector } from './volumes';

/** What every container check needs to know about its pod. */
export interface PodContext {
  readonly volumes: Volumes;
  readonly gracePeriod: number;
  readonly restartPolicy: string;
  readonly hostUsers: boolean;
  readonly features: FeatureSet;
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const PROC_MOUNT_TYPES = ['Default', 'Unmasked'];
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.podIP', 'status.podIPs'];
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const STANDARD_CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

/** validateContainers: the regular containers. */
export function validateContainers(e: FieldErrors, containers: unknown, ctx: PodContext, path: PathSegment[]): void {
  const list = asArray(containers);
  if (list.length === 0) {
    e.required(path, '', 'validateContainers');
    return;
  }
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = asObject(raw);
    const at = [...path, i];
    validateContainerCommon(e, c, ctx, at);
    const name = asString(c.name);
    if (names.has(name)) e.duplicate([...at, 'name'], name, 'validateContainers');
    else names.add(name);
    if (isObject(c.lifecycle)) validateLifecycle(e, c.lifecycle, ctx, [...at, 'lifecycle']);
    validateProbes(e, c, ctx, at);
    if (c.restartPolicy !== undefined) e.forbidden([...at, 'restartPolicy'], 'may not be set for non-init containers', 'validateContainers');
  });
  checkHostPortConflicts(e, list, path);
}

/** validateInitContainers: init containers, plain or native sidecars (restartPolicy Always). */
export function validateInitContainers(e: FieldErrors, initContainers: unknown, containers: unknown, ctx: PodContext, path: PathSegment[]): void {
  const names = new Set(asArray(containers).map((c) => asString(asObject(c).name)));
  asArray(initContainers).forEach((raw, i) => {
    const c = asObject(raw);
    const at = [...path, i];
    validateContainerCommon(e, c, ctx, at);
    // Without SidecarContainers the registry drops restartPolicy: the container is a plain init container.
    const restartPolicy = ctx.features.enabled('SidecarContainers') ? c.restartPolicy : undefined;
    if (restartPolicy !== undefined && restartPolicy !== 'Always') e.notSupported([...at, 'restartPolicy'], restartPolicy, ['Always'], 'validateInitContainerRestartPolicy');
    const name = asString(c.name);
    if (names.has(name)) e.duplicate([...at, 'name'], name, 'validateInitContainers');
    else if (name !== '') names.add(name);
    checkHostPortConflicts(e, [c], path);
    if (restartPolicy === 'Always') {
      if (isObject(c.lifecycle)) validateLifecycle(e, c.lifecycle, ctx, [...at, 'lifecycle']);
      validateProbes(e, c, ctx, at);
    } else {
      for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (isObject(c[field])) e.forbidden([...at, field], 'may not be set for init containers without restartPolicy=Always', 'validateInitContainers');
      }
    }
  });
}

/** validateContainerCommon. */
function validateContainerCommon(e: FieldErrors, c: Record<string, any>, ctx: PodContext, path: PathSegment[]): void {
  const name = asString(c.name);
  if (name === '') e.required([...path, 'name'], '', 'validateContainerCommon');
  else e.invalidEach([...path, 'name'], name, dns1123Label(name), 'validateContainerCommon');
  if (asString(c.image) === '') e.required([...path, 'image'], '', 'validateContainerCommon');
  if (typeof c.terminationMessagePolicy === 'string' && !TERMINATION_MESSAGE_POLICIES.includes(c.terminationMessagePolicy)) {
    e.notSupported([...path, 'terminationMessagePolicy'], c.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES, 'validateContainerCommon');
  }
  validateContainerPorts(e, c.ports, [...path, 'ports']);
  validateEnv(e, c.env, ctx, [...path, 'env']);
  validateEnvFrom(e, c.envFrom, ctx, [...path, 'envFrom']);
  const devices = new Map(asArray(c.volumeDevices).map((d) => [asString(asObject(d).name), asString(asObject(d).devicePath)]));
  const mounts = new Map(asArray(c.volumeMounts).map((m) => [asString(asObject(m).name), asString(asObject(m).mountPath)]));
  validateVolumeMounts(e, c, devices, ctx, [...path, 'volumeMounts']);
  validateVolumeDevices(e, c.volumeDevices, mounts, ctx, [...path, 'volumeDevices']);
  if (typeof c.imagePullPolicy === 'string' && !PULL_POLICIES.includes(c.imagePullPolicy)) {
    e.notSupported([...path, 'imagePullPolicy'], c.imagePullPolicy, PULL_POLICIES, 'validatePullPolicy');
  }
  validateResourceRequirements(e, c.resources, [...path, 'resources']);
  validateResizePolicy(e, c.resizePolicy, ctx, [...path, 'resizePolicy']);
  validateSecurityContext(e, c.securityContext, ctx, [...path, 'securityContext']);
}

/** validateContainerPorts. */
function validateContainerPorts(e: FieldErrors, ports: unknown, path: PathSegment[]): void {
  const names = new Set<string>();
  asArray(ports).forEach((raw, i) => {
    const p = asObject(raw);
    const at = [...path, i];
    const name = asString(p.name);
    if (name !== '') {
      const msgs = portName(name);
      if (msgs.length > 0) e.invalidEach([...at, 'name'], name, msgs, 'validateContainerPorts');
      else if (names.has(name)) e.duplicate([...at, 'name'], name, 'validateContainerPorts');
      else names.add(name);
    }
    if (!isInt(p.containerPort) || p.containerPort === 0) e.required([...at, 'containerPort'], '', 'validateContainerPorts');
    else e.invalidEach([...at, 'containerPort'], p.containerPort, portNum(p.containerPort), 'validateContainerPorts');
    if (isInt(p.hostPort) && p.hostPort !== 0) e.invalidEach([...at, 'hostPort'], p.hostPort, portNum(p.hostPort), 'validateContainerPorts');
    if (typeof p.protocol === 'string' && !PROTOCOLS.includes(p.protocol)) e.notSupported([...at, 'protocol'], p.protocol, PROTOCOLS, 'validateContainerPorts');
  });
}

/** checkHostPortConflicts / AccumulateUniqueHostPorts. */
function checkHostPortConflicts(e: FieldErrors, containers: any[], path: PathSegment[]): void {
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    asArray(asObject(c).ports).forEach((raw, pi) => {
      const p = asObject(raw);
      if (!isInt(p.hostPort) || p.hostPort === 0) return;
      const key = `${p.protocol ?? 'TCP'}/${asString(p.hostIP)}/${p.hostPort}`;
      if (seen.has(key)) e.duplicate([...path, ci, 'ports', pi, 'hostPort'], key, 'AccumulateUniqueHostPorts');
      seen.add(key);
    });
  });
}

/** ValidateEnv. */
function validateEnv(e: FieldErrors, env: unknown, ctx: PodContext, path: PathSegment[]): void {
  asArray(env).forEach((raw, i) => {
    const v = asObject(raw);
    const at = [...path, i];
    const name = asString(v.name);
    if (name === '') e.required([...at, 'name'], '', 'ValidateEnv');
    else e.invalidEach([...at, 'name'], name, envName(name, ctx), 'ValidateEnv');
    validateEnvVarValueFrom(e, v, ctx, [...at, 'valueFrom']);
  });
}

function envName(name: string, ctx: PodContext): string[] {
  return ctx.features.enabled('RelaxedEnvironmentVariableValidation') ? relaxedEnvVarName(name) : envVarName(name);
}

/** validateEnvVarValueFrom: exactly one source, and no value beside it. */
function validateEnvVarValueFrom(e: FieldErrors, v: Record<string, any>, ctx: PodContext, path: PathSegment[]): void {
  if (!isObject(v.valueFrom)) return;
  const from = v.valueFrom;
  let sources = 0;
  if (isObject(from.fieldRef)) {
    sources++;
    const allowed = ctx.features.enabled('PodHostIPs') ? [...ENV_FIELD_PATHS, 'status.hostIPs'] : ENV_FIELD_PATHS;
    validateObjectFieldSelector(e, from.fieldRef, allowed, [...path, 'fieldRef']);
  }
  if (isObject(from.resourceFieldRef)) {
    sources++;
    const resource = asString(from.resourceFieldRef.resource);
    const at = [...path, 'resourceFieldRef'];
    if (resource === '') e.required([...at, 'resource'], '', 'validateContainerResourceFieldSelector');
    else if (!RESOURCE_FIELD_PATHS.includes(resource) && !/^(requests|limits)\.hugepages-/.test(resource)) {
      e.notSupported([...at, 'resource'], resource, RESOURCE_FIELD_PATHS, 'validateContainerResourceFieldSelector');
    }
  }
  for (const kind of ['configMapKeyRef', 'secretKeyRef'] as const) {
    if (!isObject(from[kind])) continue;
    sources++;
    const ref = from[kind];
    const at = [...path, kind];
    e.invalidEach([...at, 'name'], asString(ref.name), dns1123Subdomain(asString(ref.name)), kind === 'secretKeyRef' ? 'validateSecretKeySelector' : 'validateConfigMapKeySelector');
    const key = asString(ref.key);
    if (key === '') e.required([...at, 'key'], '', kind === 'secretKeyRef' ? 'validateSecretKeySelector' : 'validateConfigMapKeySelector');
    else e.invalidEach([...at, 'key'], key, configMapKey(key), kind === 'secretKeyRef' ? 'validateSecretKeySelector' : 'validateConfigMapKeySelector');
  }
  if (sources === 0) e.invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`', 'validateEnvVarValueFrom');
  else if (asString(v.value) !== '') e.invalid(path, '', 'may not be specified when `value` is not empty', 'validateEnvVarValueFrom');
  else if (sources > 1) e.invalid(path, '', 'may not have more than one field specified at a time', 'validateEnvVarValueFrom');
}

/** ValidateEnvFrom. */
function validateEnvFrom(e: FieldErrors, envFrom: unknown, ctx: PodContext, path: PathSegment[]): void {
  asArray(envFrom).forEach((raw, i) => {
    const v = asObject(raw);
    const at = [...path, i];
    if (asString(v.prefix) !== '') e.invalidEach([...at, 'prefix'], v.prefix, envName(v.prefix, ctx), 'ValidateEnvFrom');
    let sources = 0;
    for (const kind of ['configMapRef', 'secretRef'] as const) {
      if (!isObject(v[kind])) continue;
      sources++;
      const name = asString(v[kind].name);
      if (name === '') e.required([...at, kind, 'name'], '', 'ValidateEnvFrom');
      else e.invalidEach([...at, kind, 'name'], name, dns1123Subdomain(maskTrailingDash(name)), 'ValidateEnvFrom');
    }
    if (sources === 0) e.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`', 'ValidateEnvFrom');
    else if (sources > 1) e.invalid(path, '', 'may not have more than one field specified at a time', 'ValidateEnvFrom');
  });
}

/** ValidateVolumeMounts: each mount names a pod volume, mount paths are unique within the container. */
function validateVolumeMounts(e: FieldErrors, c: Record<string, any>, devices: Map<string, string>, ctx: PodContext, path: PathSegment[]): void {
  const mountPoints = new Set<string>();
  const privileged = isObject(c.securityContext) && c.securityContext.privileged === true;
  asArray(c.volumeMounts).forEach((raw, i) => {
    const m = asObject(raw);
    const at = [...path, i];
    const name = asString(m.name);
    const mountPath = asString(m.mountPath);
    if (name === '') e.required([...at, 'name'], '', 'ValidateVolumeMounts');
    if (!ctx.volumes.has(name)) e.notFound([...at, 'name'], name, 'ValidateVolumeMounts');
    if (mountPath === '') e.required([...at, 'mountPath'], '', 'ValidateVolumeMounts');
    if (mountPoints.has(mountPath)) e.invalid([...at, 'mountPath'], mountPath, 'must be unique', 'ValidateVolumeMounts');
    mountPoints.add(mountPath);
    if (devices.has(name)) e.invalid([...at, 'name'], name, 'must not already exist in volumeDevices', 'ValidateVolumeMounts');
    if ([...devices.values()].includes(mountPath)) e.invalid([...at, 'mountPath'], mountPath, 'must not already exist as a path in volumeDevices', 'ValidateVolumeMounts');
    const subPath = asString(m.subPath);
    const subPathExpr = asString(m.subPathExpr);
    // Upstream reports both sub-path checks at the list's path, not the mount's.
    if (subPath !== '') validateLocalDescendingPath(e, subPath, [...path, 'subPath']);
    if (subPathExpr !== '') {
      if (subPath !== '') e.invalid([...at, 'subPathExpr'], subPathExpr, 'subPathExpr and subPath are mutually exclusive', 'ValidateVolumeMounts');
      validateLocalDescendingPath(e, subPathExpr, [...path, 'subPathExpr']);
    }
    if (typeof m.mountPropagation === 'string') {
      if (!MOUNT_PROPAGATIONS.includes(m.mountPropagation)) e.notSupported([...path, 'mountPropagation'], m.mountPropagation, MOUNT_PROPAGATIONS, 'validateMountPropagation');
      if (m.mountPropagation === 'Bidirectional' && !privileged) {
        e.forbidden([...path, 'mountPropagation'], 'Bidirectional mount propagation is available only to privileged containers', 'validateMountPropagation');
      }
    }
    if (typeof m.recursiveReadOnly === 'string' && m.recursiveReadOnly !== 'Disabled') {
      const at2 = [...path, 'recursiveReadOnly'];
      if (!RECURSIVE_READ_ONLY.includes(m.recursiveReadOnly)) {
        e.notSupported(at2, m.recursiveReadOnly, RECURSIVE_READ_ONLY, 'validateMountRecursiveReadOnly');
      } else {
        if (m.readOnly !== true) e.forbidden(at2, 'may only be specified when readOnly is true', 'validateMountRecursiveReadOnly');
        if (typeof m.mountPropagation === 'string' && m.mountPropagation !== 'None') {
          e.forbidden(at2, 'may only be specified when mountPropagation is None or not specified', 'validateMountRecursiveReadOnly');
        }
      }
    }
  });
}

/** ValidateVolumeDevices: block devices come from PVC-backed volumes only. */
function validateVolumeDevices(e: FieldErrors, volumeDevices: unknown, mounts: Map<string, string>, ctx: PodContext, path: PathSegment[]): void {
  const names = new Set<string>();
  const paths = new Set<string>();
  asArray(volumeDevices).forEach((raw, i) => {
    const d = asObject(raw);
    const at = [...path, i];
    const name = asString(d.name);
    const devicePath = asString(d.devicePath);
    const vol = ctx.volumes.get(name);
    if (name === '') e.required([...at, 'name'], '', 'ValidateVolumeDevices');
    if (names.has(name)) e.invalid([...at, 'name'], name, 'must be unique', 'ValidateVolumeDevices');
    if (vol && !isObject(vol.persistentVolumeClaim) && !isObject(vol.ephemeral)) {
      e.invalid([...at, 'name'], name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode', 'ValidateVolumeDevices');
    }
    if (!vol) e.notFound([...at, 'name'], name, 'ValidateVolumeDevices');
    if (devicePath === '') e.required([...at, 'devicePath'], '', 'ValidateVolumeDevices');
    if (paths.has(devicePath)) e.invalid([...at, 'devicePath'], devicePath, 'must be unique', 'ValidateVolumeDevices');
    if (devicePath.split('/').includes('..')) e.invalid([...at, 'devicePath'], devicePath, "can not contain backsteps ('..')", 'ValidateVolumeDevices');
    else paths.add(devicePath);
    if (mounts.has(name)) e.invalid([...at, 'name'], name, 'must not already exist in volumeMounts', 'ValidateVolumeDevices');
    if ([...mounts.values()].includes(devicePath)) e.invalid([...at, 'devicePath'], devicePath, 'must not already exist as a path in volumeMounts', 'ValidateVolumeDevices');
    if (name !== '') names.add(name);
  });
}

/** validateResourceRequirements with validateContainerResourceName. */
export function validateResourceRequirements(e: FieldErrors, resources: unknown, path: PathSegment[]): void {
  const r = asObject(resources);
  const limits = asObject(r.limits);
  const requests = asObject(r.requests);
  let cpuOrMemory = false;
  let hugePages = false;
  const check = (kind: 'limits' | 'requests', name: string, raw: unknown) => {
    const at = [...path, kind, name];
    validateContainerResourceName(e, name, at);
    const q = parseQuantity(raw);
    if (!q) return undefined;
    if (compareQuantities(q, { num: 0n, den: 1n }) < 0) e.invalid(at, raw, 'must be greater than or equal to 0', 'ValidateNonnegativeQuantity');
    if (isExtendedResource(name) && ceilMilliValue(q) % 1000n !== 0n) e.invalid(at, raw, 'must be an integer', 'ValidateResourceQuantityValue');
    if (name.startsWith('hugepages-')) {
      hugePages = true;
      if (!hugePageValueDivisible(name, q)) {
        e.invalid(at, raw, `${raw} is not positive integer multiple of ${name}`, 'validateResourceQuantityHugePageValue');
      }
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    return q;
  };
  for (const [name, raw] of Object.entries(limits)) check('limits', name, raw);
  for (const [name, raw] of Object.entries(requests)) {
    const q = check('requests', name, raw);
    const overcommit = isNativeResource(name) && !name.startsWith('hugepages-');
    if (name in limits) {
      const limit = parseQuantity(limits[name]);
      if (!q || !limit) continue;
      if (!overcommit && compareQuantities(q, limit) !== 0) {
        e.invalid([...path, 'requests'], raw, `must be equal to ${name} limit of ${limits[name]}`, 'validateResourceRequirements');
      } else if (compareQuantities(q, limit) > 0) {
        e.invalid([...path, 'requests'], raw, `must be less than or equal to ${name} limit of ${limits[name]}`, 'validateResourceRequirements');
      }
    } else if (!overcommit) {
      e.required([...path, 'limits'], 'Limit must be set for non overcommitable resources', 'validateResourceRequirements');
    }
  }
  if (!cpuOrMemory && hugePages) e.forbidden(path, 'HugePages require cpu or memory', 'validateResourceRequirements');
}

/** IsHugePageResourceValueDivisible: a page size that does not parse, is not positive or not whole fits nothing. */
function hugePageValueDivisible(name: string, q: Quantity): boolean {
  const page = parseQuantity(name.slice('hugepages-'.length));
  if (!page || page.num <= 0n || ceilMilliValue(page) % 1000n !== 0n) return false;
  return ceilValue(q) % ceilValue(page) === 0n;
}

/** IsNativeResource: unprefixed, or prefixed with a kubernetes.io domain. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** IsExtendedResourceName. */
function isExtendedResource(name: string): boolean {
  return !isNativeResource(name) && !name.startsWith('requests.') && qualifiedName(`requests.${name}`).length === 0;
}

/** validateContainerResourceName (via validateResourceName). */
function validateContainerResourceName(e: FieldErrors, name: string, path: PathSegment[]): void {
  const msgs = qualifiedName(name);
  if (msgs.length > 0) {
    e.invalidEach(path, name, msgs, 'validateResourceName');
    return;
  }
  const standard = STANDARD_CONTAINER_RESOURCES.includes(name) || name.startsWith('hugepages-');
  if (!name.includes('/')) {
    if (!standard) e.invalid(path, name, 'must be a standard resource for containers', 'validateContainerResourceName');
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    e.invalid(path, name, "doesn't follow extended resource name standard", 'validateContainerResourceName');
  }
}

/** validateResizePolicy. */
function validateResizePolicy(e: FieldErrors, policies: unknown, ctx: PodContext, path: PathSegment[]): void {
  const seen = new Set<string>();
  asArray(policies).forEach((raw, i) => {
    const p = asObject(raw);
    const resourceName = asString(p.resourceName);
    if (seen.has(resourceName)) e.duplicate([...path, i], resourceName, 'validateResizePolicy');
    seen.add(resourceName);
    if (resourceName === '') e.required(path, '', 'validateResizePolicy');
    else if (!['cpu', 'memory'].includes(resourceName)) e.notSupported(path, resourceName, ['cpu', 'memory'], 'validateResizePolicy');
    const policy = asString(p.restartPolicy);
    if (policy === '') e.required(path, '', 'validateResizePolicy');
    else if (!['NotRequired', 'RestartContainer'].includes(policy)) e.notSupported(path, policy, ['NotRequired', 'RestartContainer'], 'validateResizePolicy');
    if (ctx.restartPolicy === 'Never' && policy !== 'NotRequired') {
      e.invalid(path, policy, "must be 'NotRequired' when `restartPolicy` is 'Never'", 'validateResizePolicy');
    }
  });
}

/** ValidateSecurityContext (the container's). */
function validateSecurityContext(e: FieldErrors, raw: unknown, ctx: PodContext, path: PathSegment[]): void {
  if (!isObject(raw)) return;
  const sc = raw;
  for (const f of ['runAsUser', 'runAsGroup'] as const) {
    if (typeof sc[f] === 'number') e.invalidEach([...path, f], sc[f], unixId(sc[f]), 'ValidateSecurityContext');
  }
  if (typeof sc.procMount === 'string') {
    if (!PROC_MOUNT_TYPES.includes(sc.procMount)) e.notSupported([...path, 'procMount'], sc.procMount, PROC_MOUNT_TYPES, 'ValidateProcMountType');
    if (ctx.hostUsers && sc.procMount === 'Unmasked') e.invalid([...path, 'procMount'], sc.procMount, '`hostUsers` must be false to use `Unmasked`', 'ValidateSecurityContext');
  }
  validateSeccompProfileField(e, sc.seccompProfile, [...path, 'seccompProfile']);
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) e.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true', 'ValidateSecurityContext');
    if (asArray(asObject(sc.capabilities).add).includes('CAP_SYS_ADMIN')) {
      e.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN', 'ValidateSecurityContext');
    }
  }
  validateAppArmorProfileField(e, sc.appArmorProfile, [...path, 'appArmorProfile']);
}

/** validateSeccompProfileField (pod and container). */
export function validateSeccompProfileField(e: FieldErrors, raw: unknown, path: PathSegment[]): void {
  if (!isObject(raw)) return;
  const type = asString(raw.type);
  if (type === '') e.required([...path, 'type'], 'type is required when seccompProfile is set', 'validateSeccompProfileType');
  else if (!SECCOMP_TYPES.includes(type)) e.notSupported([...path, 'type'], type, SECCOMP_TYPES, 'validateSeccompProfileType');
  if (type === 'Localhost') {
    if (typeof raw.localhostProfile !== 'string') e.required([...path, 'localhostProfile'], 'must be set when seccomp type is Localhost', 'validateSeccompProfileField');
    else validateLocalDescendingPath(e, raw.localhostProfile, [...path, 'localhostProfile']);
  } else if (raw.localhostProfile !== undefined) {
    e.invalid([...path, 'localhostProfile'], raw, 'can only be set when seccomp type is Localhost', 'validateSeccompProfileField');
  }
}

/** ValidateAppArmorProfileField (pod and container). */
export function validateAppArmorProfileField(e: FieldErrors, raw: unknown, path: PathSegment[]): void {
  if (!isObject(raw)) return;
  const type = asString(raw.type);
  if (type === 'Localhost') {
    const p = raw.localhostProfile;
    if (typeof p !== 'string') {
      e.required([...path, 'localhostProfile'], 'must be set when AppArmor type is Localhost', 'ValidateAppArmorProfileField');
    } else {
      if (p.trim() !== p) e.invalid([...path, 'localhostProfile'], p, 'must not be padded with whitespace', 'ValidateAppArmorProfileField');
      else if (p === '') e.required([...path, 'localhostProfile'], 'must be set when AppArmor type is Localhost', 'ValidateAppArmorProfileField');
      if (p.length > 4095) e.tooLong([...path, 'localhostProfile'], 4095, 'ValidateAppArmorProfileField');
    }
  } else if (type === 'RuntimeDefault' || type === 'Unconfined') {
    if (raw.localhostProfile !== undefined) e.invalid([...path, 'localhostProfile'], raw.localhostProfile, 'can only be set when AppArmor type is Localhost', 'ValidateAppArmorProfileField');
  } else if (type === '') {
    e.required([...path, 'type'], 'type is required when appArmorProfile is set', 'ValidateAppArmorProfileField');
  } else {
    e.notSupported([...path, 'type'], type, ['Localhost', 'RuntimeDefault', 'Unconfined'], 'ValidateAppArmorProfileField');
  }
}

/** The three probes of a container (or native sidecar). */
function validateProbes(e: FieldErrors, c: Record<string, any>, ctx: PodContext, path: PathSegment[]): void {
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const probe = c[kind];
    if (!isObject(probe)) continue;
    const at = [...path, kind];
    validateProbe(e, probe, ctx, at);
    // SetDefaults_Probe turns 0 into 1.
    const success = isInt(probe.successThreshold) && probe.successThreshold !== 0 ? probe.successThreshold : 1;
    if (kind !== 'readinessProbe' && success !== 1) {
      e.invalid([...at, 'successThreshold'], success, 'must be 1', kind === 'livenessProbe' ? 'validateLivenessProbe' : 'validateStartupProbe');
    }
    if (kind === 'readinessProbe' && probe.terminationGracePeriodSeconds !== undefined) {
      e.invalid([...at, 'terminationGracePeriodSeconds'], probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes', 'validateReadinessProbe');
    }
  }
}

/** validateProbe. */
function validateProbe(e: FieldErrors, probe: Record<string, any>, ctx: PodContext, path: PathSegment[]): void {
  validateHandler(e, { exec: probe.exec, httpGet: probe.httpGet, tcpSocket: probe.tcpSocket, grpc: probe.grpc }, ctx, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (isInt(probe[f]) && probe[f] < 0) e.invalid([...path, f], probe[f], 'must be greater than or equal to 0', 'ValidateNonnegativeField');
  }
  if (isInt(probe.terminationGracePeriodSeconds) && probe.terminationGracePeriodSeconds <= 0) {
    e.invalid([...path, 'terminationGracePeriodSeconds'], probe.terminationGracePeriodSeconds, 'must be greater than 0', 'validateProbe');
  }
}

/** validateLifecycle. */
function validateLifecycle(e: FieldErrors, lifecycle: Record<string, any>, ctx: PodContext, path: PathSegment[]): void {
  for (const hook of ['postStart', 'preStop'] as const) {
    const h = lifecycle[hook];
    if (!isObject(h)) continue;
    // Without PodLifecycleSleepAction the registry drops the sleep handler.
    const sleep = ctx.features.enabled('PodLifecycleSleepAction') ? h.sleep : undefined;
    validateHandler(e, { exec: h.exec, httpGet: h.httpGet, tcpSocket: h.tcpSocket, sleep }, ctx, [...path, hook]);
  }
}

/** validateHandler: exactly one handler type, each valid. */
function validateHandler(e: FieldErrors, handler: Record<string, unknown>, ctx: PodContext, path: PathSegment[]): void {
  let count = 0;
  for (const [kind, raw] of Object.entries(handler)) {
    if (!isObject(raw)) continue;
    if (count > 0) {
      e.forbidden([...path, kind], 'may not specify more than 1 handler type', 'validateHandler');
      continue;
    }
    count++;
    const at = [...path, kind];
    if (kind === 'exec' && asArray(raw.command).length === 0) e.required([...at, 'command'], '', 'validateExecAction');
    if (kind === 'httpGet') {
      validatePortNumOrName(e, raw.port, [...at, 'port']);
      if (typeof raw.scheme === 'string' && !HTTP_SCHEMES.includes(raw.scheme)) e.notSupported([...at, 'scheme'], raw.scheme, HTTP_SCHEMES, 'validateHTTPGetAction');
      for (const h of asArray(raw.httpHeaders)) {
        const name = asString(asObject(h).name);
        if (!/^[-A-Za-z0-9]+$/.test(name)) {
          e.invalid([...at, 'httpHeaders'], name, "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')", 'validateHTTPGetAction');
        }
      }
    }
    if (kind === 'tcpSocket') validatePortNumOrName(e, raw.port, [...at, 'port']);
    if (kind === 'grpc' && isInt(raw.port)) e.invalidEach([...at, 'port'], raw.port, portNum(raw.port), 'validateGRPCAction');
    if (kind === 'sleep' && isInt(raw.seconds)) {
      const s = raw.seconds;
      if (ctx.features.enabled('PodLifecycleSleepActionAllowZero')) {
        if (s < 0 || s > ctx.gracePeriod) e.invalid(at, s, `must be non-negative and less than terminationGracePeriodSeconds (${ctx.gracePeriod})`, 'validateSleepAction');
      } else if (s <= 0 || s > ctx.gracePeriod) {
        e.invalid(at, s, `must be greater than 0 and less than terminationGracePeriodSeconds (${ctx.gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`, 'validateSleepAction');
      }
    }
  }
  if (count === 0) e.required(path, 'must specify a handler type', 'validateHandler');
}

/** ValidatePortNumOrName (an IntOrString port). */
export function validatePortNumOrName(e: FieldErrors, port: unknown, path: PathSegment[]): void {
  if (typeof port === 'number') e.invalidEach(path, port, portNum(port), 'ValidatePortNumOrName');
  else if (typeof port === 'string') e.invalidEach(path, port, portName(port), 'ValidatePortNumOrName');
}

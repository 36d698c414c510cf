/**
 * Pod templates and pod specs, after pkg/apis/core/validation/validation.go: ValidatePodTemplateSpec,
 * ValidatePodSpec, validatePodSpecSecurityContext, validateAffinity (node, pod and anti-affinity
 * terms), ValidateTolerations, validatePodDNSConfig, validateTopologySpreadConstraints,
 * validateReadinessGates, validateSchedulingGates, ValidateHostAliases, validateHostUsers,
 * validatePodHostNetworkDeps and validateImagePullSecrets. Containers and volumes are in
 * container.ts and volumes.ts.
 */
import { FieldErrors, PathSegment, asArray, asObject, asString, isInt, isObject } from './field-errors';
import { PodContext, validateAppArmorProfileField, validateContainers, validateInitContainers, validateSeccompProfileField } from './container';
import { FeatureSet } from './features';
import {
  dns1123Label, dns1123Subdomain, dns1123SubdomainWithUnderscore, inclusiveRange, ipAddress, labelValue, qualifiedName, unixId,
} from './formats';
import { nameIsDNSLabel, validateAnnotations, validateLabelName, validateLabelSelector, validateLabels } from './meta';
import { validateVolumes } from './volumes';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const MAX_INT32 = 2147483647;

/** ValidatePodTemplateSpec. */
export function validatePodTemplateSpec(e: FieldErrors, template: unknown, features: FeatureSet, path: PathSegment[]): void {
  const t = asObject(template);
  const meta = asObject(t.metadata);
  validateLabels(e, meta.labels, [...path, 'metadata', 'labels']);
  validateAnnotations(e, meta.annotations, [...path, 'metadata', 'annotations']);
  validatePodSpec(e, t.spec, features, [...path, 'spec']);
  if (asArray(asObject(t.spec).ephemeralContainers).length > 0) {
    e.forbidden([...path, 'spec', 'ephemeralContainers'], 'ephemeral containers not allowed in pod template', 'ValidatePodTemplateSpec');
  }
}

/** ValidatePodSpec. */
export function validatePodSpec(e: FieldErrors, raw: unknown, features: FeatureSet, path: PathSegment[]): void {
  const spec = asObject(raw);
  const ctx: PodContext = {
    volumes: validateVolumes(e, spec.volumes, [...path, 'volumes']),
    gracePeriod: isInt(spec.terminationGracePeriodSeconds) ? spec.terminationGracePeriodSeconds : 30, // SetDefaults_PodSpec
    restartPolicy: typeof spec.restartPolicy === 'string' ? spec.restartPolicy : 'Always',
    hostUsers: spec.hostUsers !== false,
    features,
  };
  validateContainers(e, spec.containers, ctx, [...path, 'containers']);
  validateInitContainers(e, spec.initContainers, spec.containers, ctx, [...path, 'initContainers']);
  validatePodHostNetworkDeps(e, spec, path);
  if (!RESTART_POLICIES.includes(ctx.restartPolicy)) e.notSupported([...path, 'restartPolicy'], ctx.restartPolicy, RESTART_POLICIES, 'validateRestartPolicy');
  if (typeof spec.dnsPolicy === 'string' && !DNS_POLICIES.includes(spec.dnsPolicy)) e.notSupported([...path, 'dnsPolicy'], spec.dnsPolicy, DNS_POLICIES, 'validateDNSPolicy');
  validateLabels(e, spec.nodeSelector, [...path, 'nodeSelector']);
  validatePodSpecSecurityContext(e, spec, path);
  asArray(spec.imagePullSecrets).forEach((s, i) => {
    if (Object.keys(asObject(s)).some((k) => k !== 'name')) e.invalid([...path, 'imagePullSecrets', i], s, 'only name may be set', 'validateImagePullSecrets');
  });
  validateAffinity(e, spec.affinity, [...path, 'affinity']);
  validatePodDNSConfig(e, spec, features, [...path, 'dnsConfig']);
  asArray(spec.readinessGates).forEach((g, i) => {
    const type = asString(asObject(g).conditionType);
    e.invalidEach([...path, 'readinessGates', i, 'conditionType'], type, qualifiedName(type), 'validateReadinessGates');
  });
  const gates = new Set<string>();
  asArray(spec.schedulingGates).forEach((g, i) => {
    const name = asString(asObject(g).name);
    e.invalidEach([...path, 'schedulingGates', i], name, qualifiedName(name), 'validateSchedulingGates');
    if (gates.has(name)) e.duplicate([...path, 'schedulingGates', i], name, 'validateSchedulingGates');
    gates.add(name);
  });
  validateTopologySpreadConstraints(e, spec.topologySpreadConstraints, [...path, 'topologySpreadConstraints']);
  if (spec.hostUsers === false) {
    for (const f of ['hostNetwork', 'hostPID', 'hostIPC']) {
      if (spec[f] === true) e.forbidden([...path, f], 'when `pod.Spec.HostUsers` is false', 'validateHostUsers');
    }
  }
  for (const f of ['serviceAccountName', 'nodeName', 'priorityClassName', 'runtimeClassName']) {
    if (typeof spec[f] === 'string' && (spec[f] !== '' || f === 'runtimeClassName')) e.invalidEach([...path, f], spec[f], dns1123Subdomain(spec[f]), 'ValidatePodSpec');
  }
  if (isInt(spec.activeDeadlineSeconds) && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > MAX_INT32)) {
    e.invalid([...path, 'activeDeadlineSeconds'], spec.activeDeadlineSeconds, inclusiveRange(1, MAX_INT32), 'ValidatePodSpec');
  }
  for (const f of ['hostname', 'subdomain']) {
    if (asString(spec[f]) !== '') e.invalidEach([...path, f], spec[f], dns1123Label(spec[f]), 'ValidatePodSpec');
  }
  validateTolerations(e, spec.tolerations, [...path, 'tolerations']);
  asArray(spec.hostAliases).forEach((raw, i) => {
    const a = asObject(raw);
    e.invalidEach([...path, 'hostAliases', i, 'ip'], asString(a.ip), ipAddress(asString(a.ip)), 'ValidateHostAliases');
    asArray(a.hostnames).forEach((h, j) => {
      e.invalidEach([...path, 'hostAliases', i, 'hostnames', j], h, dns1123Subdomain(asString(h)), 'ValidateHostAliases');
    });
  });
  if (typeof spec.preemptionPolicy === 'string' && !PREEMPTION_POLICIES.includes(spec.preemptionPolicy)) {
    e.notSupported([...path, 'preemptionPolicy'], spec.preemptionPolicy, PREEMPTION_POLICIES, 'ValidatePreemptionPolicy');
  }
  validateOS(e, spec, path);
}

/** validatePodHostNetworkDeps: with hostNetwork a hostPort, when set, equals the containerPort. */
function validatePodHostNetworkDeps(e: FieldErrors, spec: Record<string, any>, path: PathSegment[]): void {
  if (spec.hostNetwork !== true) return;
  asArray(spec.containers).forEach((c, i) => {
    asArray(asObject(c).ports).forEach((raw, j) => {
      const p = asObject(raw);
      if (isInt(p.hostPort) && p.hostPort !== 0 && p.hostPort !== p.containerPort) {
        e.invalid([...path, 'containers', i, 'ports', j, 'hostPort'], p.hostPort, 'must match `containerPort` when `hostNetwork` is true', 'validatePodHostNetworkDeps');
      }
    });
  });
}

/** validatePodSpecSecurityContext (plus shareProcessNamespace, which v1 keeps on the spec). */
function validatePodSpecSecurityContext(e: FieldErrors, spec: Record<string, any>, path: PathSegment[]): void {
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    e.invalid([...path, 'shareProcessNamespace'], true, 'ShareProcessNamespace and HostPID cannot both be enabled', 'validatePodSpecSecurityContext');
  }
  if (!isObject(spec.securityContext)) return;
  const sc = spec.securityContext;
  const at = [...path, 'securityContext'];
  for (const f of ['fsGroup', 'runAsUser', 'runAsGroup']) {
    if (typeof sc[f] === 'number') e.invalidEach([...at, f], sc[f], unixId(sc[f]), 'validatePodSpecSecurityContext');
  }
  asArray(sc.supplementalGroups).forEach((g, i) => {
    if (typeof g === 'number') e.invalidEach([...at, 'supplementalGroups', i], g, unixId(g), 'validatePodSpecSecurityContext');
  });
  const sysctls = new Set<string>();
  asArray(sc.sysctls).forEach((raw, i) => {
    const name = asString(asObject(raw).name);
    const p = [...at, 'sysctls', i, 'name'];
    if (name === '') e.required(p, '', 'validateSysctls');
    else if (name.length > 253 || !SYSCTL_NAME.test(name)) e.invalid(p, name, `must have at most 253 characters and match regex ${SYSCTL_NAME.source}`, 'validateSysctls');
    else if (sysctls.has(name)) e.duplicate(p, name, 'validateSysctls');
    if (spec.hostNetwork === true && (name.startsWith('net.') || name.startsWith('net/'))) e.invalid(p, name, "may not be specified when 'hostNetwork' is true", 'ValidateHostSysctl');
    if (spec.hostIPC === true && (/^kernel[./](sem|shm|msg)/.test(name) || name.startsWith('fs.mqueue.') || name.startsWith('fs/mqueue/'))) {
      e.invalid(p, name, "may not be specified when 'hostIPC' is true", 'ValidateHostSysctl');
    }
    sysctls.add(name);
  });
  if (typeof sc.fsGroupChangePolicy === 'string' && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy)) {
    e.notSupported([...at, 'fsGroupChangePolicy'], sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES, 'validateFSGroupChangePolicy');
  }
  validateSeccompProfileField(e, sc.seccompProfile, [...at, 'seccompProfile']);
  validateAppArmorProfileField(e, sc.appArmorProfile, [...at, 'appArmorProfile']);
}

/** validateAffinity. */
function validateAffinity(e: FieldErrors, raw: unknown, path: PathSegment[]): void {
  if (!isObject(raw)) return;
  const na = raw.nodeAffinity;
  if (isObject(na)) {
    const at = [...path, 'nodeAffinity'];
    const required = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (isObject(required)) {
      const terms = asArray(required.nodeSelectorTerms);
      const termsPath = [...at, 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'];
      if (terms.length === 0) e.required(termsPath, 'must have at least one node selector term', 'ValidateNodeSelector');
      terms.forEach((t, i) => validateNodeSelectorTerm(e, t, false, [...termsPath, i]));
    }
    asArray(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw2, i) => {
      const term = asObject(raw2);
      const tp = [...at, 'preferredDuringSchedulingIgnoredDuringExecution', i];
      if (!isInt(term.weight) || term.weight <= 0 || term.weight > 100) e.invalid([...tp, 'weight'], term.weight, 'must be in the range 1-100', 'ValidatePreferredSchedulingTerms');
      // Preferred terms tolerate invalid label values (they can still succeed on a one-node cluster).
      validateNodeSelectorTerm(e, term.preference, true, [...tp, 'preference']);
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = raw[kind];
    if (!isObject(pa)) continue;
    const at = [...path, kind];
    asArray(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      validatePodAffinityTerm(e, t, [...at, 'requiredDuringSchedulingIgnoredDuringExecution', i]);
    });
    asArray(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((raw2, i) => {
      const w = asObject(raw2);
      const tp = [...at, 'preferredDuringSchedulingIgnoredDuringExecution', i];
      if (!isInt(w.weight) || w.weight <= 0 || w.weight > 100) e.invalid([...tp, 'weight'], w.weight, 'must be in the range 1-100', 'validateWeightedPodAffinityTerms');
      validatePodAffinityTerm(e, w.podAffinityTerm, [...tp, 'podAffinityTerm']);
    });
  }
}

/** ValidateNodeSelectorTerm with ValidateNodeSelectorRequirement and ValidateNodeFieldSelectorRequirement. */
function validateNodeSelectorTerm(e: FieldErrors, raw: unknown, allowInvalidValues: boolean, path: PathSegment[]): void {
  const term = asObject(raw);
  asArray(term.matchExpressions).forEach((r, i) => {
    const req = asObject(r);
    const at = [...path, 'matchExpressions', i];
    const values = asArray(req.values);
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) e.required([...at, 'values'], "must be specified when `operator` is 'In' or 'NotIn'", 'ValidateNodeSelectorRequirement');
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) e.forbidden([...at, 'values'], "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", 'ValidateNodeSelectorRequirement');
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1) e.required([...at, 'values'], "must be specified single value when `operator` is 'Lt' or 'Gt'", 'ValidateNodeSelectorRequirement');
        break;
      default:
        e.invalid([...at, 'operator'], req.operator, 'not a valid selector operator', 'ValidateNodeSelectorRequirement');
    }
    validateLabelName(e, asString(req.key), [...at, 'key']);
    if (!allowInvalidValues) {
      values.forEach((v, j) => {
        if (typeof v === 'string') e.invalidEach([...at, 'values', j], v, labelValue(v), 'ValidateNodeSelectorRequirement');
      });
    }
  });
  asArray(term.matchFields).forEach((r, i) => {
    const req = asObject(r);
    const at = [...path, 'matchFields', i];
    const values = asArray(req.values);
    if (req.operator === 'In' || req.operator === 'NotIn') {
      if (values.length !== 1) e.required([...at, 'values'], "must be only one value when `operator` is 'In' or 'NotIn' for node field selector", 'ValidateNodeFieldSelectorRequirement');
    } else {
      e.invalid([...at, 'operator'], req.operator, 'not a valid selector operator', 'ValidateNodeFieldSelectorRequirement');
    }
    if (req.key !== 'metadata.name') e.invalid([...at, 'key'], req.key, 'not a valid field selector key', 'ValidateNodeFieldSelectorRequirement');
    else values.forEach((v, j) => e.invalidEach([...at, 'values', j], v, dns1123Subdomain(asString(v)), 'ValidateNodeFieldSelectorRequirement'));
  });
}

/** validatePodAffinityTerm. */
function validatePodAffinityTerm(e: FieldErrors, raw: unknown, path: PathSegment[]): void {
  const term = asObject(raw);
  validateLabelSelector(e, term.labelSelector, [...path, 'labelSelector']);
  validateLabelSelector(e, term.namespaceSelector, [...path, 'namespaceSelector']);
  for (const ns of asArray(term.namespaces)) e.invalidEach([...path, 'namespace'], ns, nameIsDNSLabel(asString(ns), false), 'validatePodAffinityTerm');
  for (const f of ['matchLabelKeys', 'mismatchLabelKeys']) {
    const keys = asArray(term[f]);
    if (keys.length === 0) continue;
    if (!isObject(term.labelSelector)) e.forbidden([...path, f], 'must not be specified when labelSelector is not set', 'validateLabelKeys');
    else keys.forEach((k, i) => validateLabelName(e, asString(k), [...path, f, i]));
  }
  const mismatch = new Set(asArray(term.mismatchLabelKeys));
  asArray(term.matchLabelKeys).forEach((k, i) => {
    if (mismatch.has(k)) e.invalid([...path, 'matchLabelKeys', i], k, 'exists in both matchLabelKeys and mismatchLabelKeys', 'validateMatchLabelKeysAndMismatchLabelKeys');
  });
  const key = asString(term.topologyKey);
  if (key === '') e.required([...path, 'topologyKey'], 'can not be empty', 'validatePodAffinityTerm');
  validateLabelName(e, key, [...path, 'topologyKey']);
}

/** ValidateTolerations. */
function validateTolerations(e: FieldErrors, tolerations: unknown, path: PathSegment[]): void {
  asArray(tolerations).forEach((raw, i) => {
    const t = asObject(raw);
    const at = [...path, i];
    const key = asString(t.key);
    const operator = asString(t.operator);
    if (key !== '') validateLabelName(e, key, [...at, 'key']);
    if (key === '' && operator !== 'Exists') {
      e.invalid([...at, 'operator'], operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"', 'ValidateTolerations');
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      e.invalid([...at, 'effect'], asString(t.effect), "effect must be 'NoExecute' when `tolerationSeconds` is set", 'ValidateTolerations');
    }
    const value = asString(t.value);
    if (operator === 'Equal' || operator === '') {
      const msgs = labelValue(value);
      if (msgs.length > 0) e.invalid([...at, 'operator'], value, msgs.join(';'), 'ValidateTolerations');
    } else if (operator === 'Exists') {
      if (value !== '') e.invalid([...at, 'operator'], value, "value must be empty when `operator` is 'Exists'", 'ValidateTolerations');
    } else {
      e.notSupported([...at, 'operator'], operator, ['Equal', 'Exists'], 'ValidateTolerations');
    }
    if (typeof t.effect === 'string' && t.effect !== '' && !TAINT_EFFECTS.includes(t.effect)) {
      e.notSupported([...at, 'effect'], t.effect, TAINT_EFFECTS, 'validateTaintEffect');
    }
  });
}

/** validatePodDNSConfig. */
function validatePodDNSConfig(e: FieldErrors, spec: Record<string, any>, features: FeatureSet, path: PathSegment[]): void {
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (!isObject(config)) {
      e.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None', 'validatePodDNSConfig');
      return;
    }
    if (asArray(config.nameservers).length === 0) {
      e.required([...path, 'nameservers'], 'must provide at least one DNS nameserver when `dnsPolicy` is None', 'validatePodDNSConfig');
      return;
    }
  }
  if (!isObject(config)) return;
  const nameservers = asArray(config.nameservers);
  if (nameservers.length > 3) e.invalid([...path, 'nameservers'], nameservers, 'must not have more than 3 nameservers', 'validatePodDNSConfig');
  nameservers.forEach((ns, i) => e.invalidEach([...path, 'nameservers', i], ns, ipAddress(asString(ns)), 'validatePodDNSConfig'));
  const searches = asArray(config.searches).map(asString);
  if (searches.length > 32) e.invalid([...path, 'searches'], searches, 'must not have more than 32 search paths', 'validatePodDNSConfig');
  if (searches.join(' ').length > 2048) {
    e.invalid([...path, 'searches'], searches, 'must not have more than 2048 characters (including spaces) in the search list', 'validatePodDNSConfig');
  }
  searches.forEach((s, i) => {
    if (features.enabled('RelaxedDNSSearchValidation')) {
      if (s !== '.') e.invalidEach([...path, 'searches', i], s.replace(/\.$/, ''), dns1123SubdomainWithUnderscore(s.replace(/\.$/, '')), 'validatePodDNSConfig');
    } else {
      e.invalidEach([...path, 'searches', i], s.replace(/\.$/, ''), dns1123Subdomain(s.replace(/\.$/, '')), 'validatePodDNSConfig');
    }
  });
  asArray(config.options).forEach((o, i) => {
    if (asString(asObject(o).name) === '') e.required([...path, 'options', i], 'must not be empty', 'validatePodDNSConfig');
  });
}

/** validateTopologySpreadConstraints. */
function validateTopologySpreadConstraints(e: FieldErrors, constraints: unknown, path: PathSegment[]): void {
  const list = asArray(constraints).map(asObject);
  list.forEach((c, i) => {
    const at = [...path, i];
    if (!isInt(c.maxSkew) || c.maxSkew <= 0) e.invalid([...at, 'maxSkew'], c.maxSkew, 'must be greater than zero', 'ValidateMaxSkew');
    if (asString(c.topologyKey) === '') e.required([...at, 'topologyKey'], 'can not be empty', 'ValidateTopologyKey');
    if (!WHEN_UNSATISFIABLE.includes(asString(c.whenUnsatisfiable))) {
      e.notSupported([...at, 'whenUnsatisfiable'], asString(c.whenUnsatisfiable), WHEN_UNSATISFIABLE, 'ValidateWhenUnsatisfiable');
    }
    if (list.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      e.duplicate([...at, '{topologyKey, whenUnsatisfiable}'], `{${asString(c.topologyKey)}, ${asString(c.whenUnsatisfiable)}}`, 'ValidateSpreadConstraintNotRepeat');
    }
    if (c.minDomains !== undefined) {
      if (!isInt(c.minDomains) || c.minDomains <= 0) e.invalid([...at, 'minDomains'], c.minDomains, 'must be greater than zero', 'validateMinDomains');
      if (c.whenUnsatisfiable !== 'DoNotSchedule') {
        e.invalid([...at, 'minDomains'], c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${asString(c.whenUnsatisfiable)}`, 'validateMinDomains');
      }
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (typeof c[f] === 'string' && !NODE_INCLUSION_POLICIES.includes(c[f])) e.notSupported([...at, f], c[f], NODE_INCLUSION_POLICIES, 'validateNodeInclusionPolicy');
    }
    const keys = asArray(c.matchLabelKeys).map(asString);
    if (keys.length > 0) {
      const selector = asObject(c.labelSelector);
      const selectorKeys = new Set([...Object.keys(asObject(selector.matchLabels)), ...asArray(selector.matchExpressions).map((x) => asString(asObject(x).key))]);
      if (!isObject(c.labelSelector)) e.forbidden([...at, 'matchLabelKeys'], 'must not be specified when labelSelector is not set', 'validateMatchLabelKeysInTopologySpread');
      keys.forEach((k, j) => {
        validateLabelName(e, k, [...at, 'matchLabelKeys', j]);
        if (selectorKeys.has(k)) e.invalid([...at, 'matchLabelKeys', j], k, 'exists in both matchLabelKeys and labelSelector', 'validateMatchLabelKeysInTopologySpread');
      });
    }
    validateLabelSelector(e, c.labelSelector, [...at, 'labelSelector']);
  });
}

/** validateOS, and validateLinux's ban on Windows options. */
function validateOS(e: FieldErrors, spec: Record<string, any>, path: PathSegment[]): void {
  if (!isObject(spec.os)) return;
  const name = asString(spec.os.name);
  if (name === '') {
    e.required([...path, 'os', 'name'], 'cannot be empty', 'validateOS');
    return;
  }
  if (!['linux', 'windows'].includes(name)) {
    e.notSupported([...path, 'os'], name, ['linux', 'windows'], 'validateOS');
    return;
  }
  if (name !== 'linux') return;
  if (isObject(asObject(spec.securityContext).windowsOptions)) {
    e.forbidden([...path, 'securityContext', 'windowsOptions'], 'windows options cannot be set for a linux pod', 'validateLinux');
  }
  for (const kind of ['initContainers', 'containers']) {
    asArray(spec[kind]).forEach((c, i) => {
      if (isObject(asObject(asObject(c).securityContext).windowsOptions)) {
        e.forbidden([...path, kind, i, 'securityContext', 'windowsOptions'], 'windows options cannot be set for a linux pod', 'validateLinux');
      }
    });
  }
}

/**
 * core/v1 Services, after ValidateService, validateServicePort,
 * ValidateServiceClusterIPsRelatedFields, validateServiceExternalTrafficPolicy,
 * validateServiceInternalTrafficFieldsValue, validateServiceTrafficDistribution and
 * validateClientIPAffinityConfig in pkg/apis/core/validation/validation.go, on a Service already
 * defaulted (SetDefaults_Service: type ClusterIP, sessionAffinity None, protocol TCP, targetPort =
 * port) and normalized by the create strategy (clusterIPs from clusterIP).
 */
import { FieldErrors, PathSegment, asArray, asObject, asString, isInt, isObject } from './field-errors';
import { FeatureSet } from './features';
import { dns1123Label, dns1123Subdomain, ipAddress, parseCidr, portNum, qualifiedName } from './formats';
import { nameIsDNS1035Label, validateLabels, validateObjectMeta } from './meta';
import { validatePortNumOrName } from './container';
import * as net from 'net';

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';

/** ValidateService (on create). */
export function validateService(e: FieldErrors, service: Record<string, any>, f: FeatureSet): void {
  validateObjectMeta(e, service.metadata, nameIsDNS1035Label, true);
  const annotations = asObject(asObject(service.metadata).annotations);
  if (TOPOLOGY_HINTS in annotations && TOPOLOGY_MODE in annotations && annotations[TOPOLOGY_HINTS] !== annotations[TOPOLOGY_MODE]) {
    e.invalid(['metadata', 'annotations', TOPOLOGY_MODE], annotations[TOPOLOGY_MODE], `must match annotations[${TOPOLOGY_HINTS}] when both are specified`, 'ValidateService');
  }
  const spec = asObject(service.spec);
  const path: PathSegment[] = ['spec'];
  const type = typeof spec.type === 'string' && spec.type !== '' ? spec.type : 'ClusterIP';
  const clusterIP = asString(spec.clusterIP);
  let clusterIPs = asArray(spec.clusterIPs).map(asString);
  if (clusterIPs.length === 0 && clusterIP !== '') clusterIPs = [clusterIP];
  const headless = clusterIPs.length === 1 && clusterIPs[0] === 'None';
  const ports = asArray(spec.ports).map(asObject);

  if (ports.length === 0 && !headless && type !== 'ExternalName') e.required([...path, 'ports'], '', 'ValidateService');
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    e.invalid([...path, 'clusterIPs', 0], 'None', `may not be set to 'None' for ${type} services`, 'ValidateService');
  }
  if (type === 'ExternalName') {
    if (clusterIPs.length > 0) e.forbidden([...path, 'clusterIPs'], 'may not be set for ExternalName services', 'ValidateService');
    if (asArray(spec.ipFamilies).length > 0) e.forbidden([...path, 'ipFamilies'], 'may not be set for ExternalName services', 'ValidateService');
    if (spec.ipFamilyPolicy !== undefined) e.forbidden([...path, 'ipFamilyPolicy'], 'may not be set for ExternalName services', 'ValidateService');
    const cname = asString(spec.externalName).replace(/\.$/, '');
    if (cname !== '') e.invalidEach([...path, 'externalName'], cname, dns1123Subdomain(cname), 'ValidateService');
    else e.required([...path, 'externalName'], '', 'ValidateService');
  }
  const names = new Set<string>();
  ports.forEach((p, i) => validateServicePort(e, p, ports.length > 1, names, [...path, 'ports', i]));
  if (isObject(spec.selector)) validateLabels(e, spec.selector, [...path, 'selector']);
  validateSessionAffinity(e, spec, path);
  if (type !== 'ExternalName') validateClusterIPs(e, spec, clusterIP, clusterIPs, headless, path);
  asArray(spec.externalIPs).forEach((ip, i) => {
    const at = [...path, 'externalIPs', i];
    const msgs = ipAddress(asString(ip));
    if (msgs.length > 0) e.invalidEach(at, ip, msgs, 'ValidateService');
    else validateNonSpecialIP(e, asString(ip), at);
  });
  if (typeof spec.type === 'string' && spec.type !== '' && !TYPES.includes(spec.type)) e.notSupported([...path, 'type'], spec.type, TYPES, 'ValidateService');
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (isInt(p.nodePort) && p.nodePort !== 0) e.forbidden([...path, 'ports', i, 'nodePort'], "may not be used when `type` is 'ClusterIP'", 'ValidateService');
    });
  }
  const nodePorts = new Set<string>();
  const servicePorts = new Set<string>();
  ports.forEach((p, i) => {
    const protocol = asString(p.protocol) || 'TCP';
    if (isInt(p.nodePort) && p.nodePort !== 0) {
      const key = `${protocol}/${p.nodePort}`;
      if (nodePorts.has(key)) e.duplicate([...path, 'ports', i, 'nodePort'], p.nodePort, 'ValidateService');
      nodePorts.add(key);
    }
    const key = `${protocol}/${p.port}`;
    if (servicePorts.has(key)) e.duplicate([...path, 'ports', i], { port: p.port, protocol }, 'ValidateService');
    servicePorts.add(key);
  });
  const ranges = asArray(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    if (type !== 'LoadBalancer') e.forbidden([...path, 'LoadBalancerSourceRanges'], "may only be used when `type` is 'LoadBalancer'", 'ValidateService');
    ranges.forEach((r, i) => {
      if (!parseCidr(asString(r).trim())) e.invalid([...path, 'LoadBalancerSourceRanges', i], r, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)', 'ValidateService');
    });
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && type !== 'LoadBalancer') {
    e.forbidden([...path, 'allocateLoadBalancerNodePorts'], "may only be used when `type` is 'LoadBalancer'", 'ValidateService');
  }
  const externallyAccessible = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && asArray(spec.externalIPs).length > 0);
  if (!externallyAccessible && asString(spec.externalTrafficPolicy) !== '') {
    e.invalid([...path, 'externalTrafficPolicy'], spec.externalTrafficPolicy, 'may only be set for externally-accessible services', 'validateServiceExternalTrafficPolicy');
  } else if (externallyAccessible && typeof spec.externalTrafficPolicy === 'string' && spec.externalTrafficPolicy !== '' && !['Cluster', 'Local'].includes(spec.externalTrafficPolicy)) {
    e.notSupported([...path, 'externalTrafficPolicy'], spec.externalTrafficPolicy, ['Cluster', 'Local'], 'validateServiceExternalTrafficPolicy');
  }
  if (typeof spec.internalTrafficPolicy === 'string' && !['Cluster', 'Local'].includes(spec.internalTrafficPolicy)) {
    e.notSupported([...path, 'internalTrafficPolicy'], spec.internalTrafficPolicy, ['Cluster', 'Local'], 'validateServiceInternalTrafficFieldsValue');
  }
  if (typeof spec.trafficDistribution === 'string') {
    const allowed = f.enabled('PreferSameTrafficDistribution') ? ['PreferClose', 'PreferSameNode', 'PreferSameZone'] : ['PreferClose'];
    // Before ServiceTrafficDistribution the registry drops the field.
    if (f.enabled('ServiceTrafficDistribution') && !allowed.includes(spec.trafficDistribution)) {
      e.notSupported([...path, 'trafficDistribution'], spec.trafficDistribution, allowed, 'validateServiceTrafficDistribution');
    }
  }
}

/** validateServicePort: names (required when several ports, unique), numbers, protocol, targetPort. */
function validateServicePort(e: FieldErrors, p: Record<string, any>, requireName: boolean, names: Set<string>, path: PathSegment[]): void {
  const name = asString(p.name);
  if (requireName && name === '') e.required([...path, 'name'], '', 'validateServicePort');
  else if (name !== '') {
    e.invalidEach([...path, 'name'], name, dns1123Label(name), 'validateServicePort');
    if (names.has(name)) e.duplicate([...path, 'name'], name, 'validateServicePort');
    else names.add(name);
  }
  if (isInt(p.port)) e.invalidEach([...path, 'port'], p.port, portNum(p.port), 'validateServicePort');
  if (typeof p.protocol === 'string' && p.protocol !== '' && !PROTOCOLS.includes(p.protocol)) e.notSupported([...path, 'protocol'], p.protocol, PROTOCOLS, 'validateServicePort');
  // SetDefaults_Service: an unset, 0 or "" targetPort becomes the port.
  const target = p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '' ? p.port : p.targetPort;
  validatePortNumOrName(e, target, [...path, 'targetPort']);
  if (typeof p.appProtocol === 'string') e.invalidEach([...path, 'appProtocol'], p.appProtocol, qualifiedName(p.appProtocol), 'validateServicePort');
}

/** sessionAffinity and validateClientIPAffinityConfig. */
function validateSessionAffinity(e: FieldErrors, spec: Record<string, any>, path: PathSegment[]): void {
  const affinity = typeof spec.sessionAffinity === 'string' && spec.sessionAffinity !== '' ? spec.sessionAffinity : 'None';
  if (!['ClientIP', 'None'].includes(affinity)) e.notSupported([...path, 'sessionAffinity'], affinity, ['ClientIP', 'None'], 'ValidateService');
  const config = spec.sessionAffinityConfig;
  // SetDefaults_Service drops the config of a None affinity, so ValidateService's "must not be set
  // when session affinity is None" never fires on a create.
  if (affinity === 'ClientIP' && isObject(config)) {
    // SetDefaults_Service fills a missing config or timeout with 10800 seconds.
    const timeout = asObject(config.clientIP).timeoutSeconds;
    if (isInt(timeout) && (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS)) {
      e.invalid([...path, 'sessionAffinityConfig', 'clientIP', 'timeoutSeconds'], timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`, 'validateAffinityTimeout');
    }
  }
}

/** ValidateServiceClusterIPsRelatedFields. */
function validateClusterIPs(e: FieldErrors, spec: Record<string, any>, clusterIP: string, clusterIPs: string[], headless: boolean, path: PathSegment[]): void {
  const rule = 'ValidateServiceClusterIPsRelatedFields';
  const ipsPath = [...path, 'clusterIPs'];
  if (clusterIP !== '' && clusterIPs[0] !== clusterIP) e.invalid(ipsPath, clusterIPs, 'first value must match `clusterIP`', rule);
  if (clusterIP === '' && clusterIPs.length > 0) {
    e.invalid(ipsPath, clusterIPs, 'must be empty when `clusterIP` is not specified', rule);
  }
  const families = asArray(spec.ipFamilies);
  const seen = new Set<unknown>();
  families.forEach((fam, i) => {
    if (!['IPv4', 'IPv6'].includes(fam)) e.notSupported([...path, 'ipFamilies', i], fam, ['IPv4', 'IPv6'], rule);
    if (seen.has(fam)) e.duplicate([...path, 'ipFamilies', i], fam, rule);
    seen.add(fam);
  });
  const policies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
  if (typeof spec.ipFamilyPolicy === 'string' && !policies.includes(spec.ipFamilyPolicy)) e.notSupported([...path, 'ipFamilyPolicy'], spec.ipFamilyPolicy, policies, rule);
  let invalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        invalidIPs = true;
        e.invalid(ipsPath, clusterIPs, "'None' must be the first and only value", rule);
      }
      return;
    }
    const msgs = ipAddress(ip);
    if (msgs.length > 0) {
      invalidIPs = true;
      e.invalidEach([...ipsPath, i], ip, msgs, rule);
    }
  });
  if (clusterIPs.length > 2) e.invalid(ipsPath, clusterIPs, 'may only hold up to 2 values', rule);
  if (invalidIPs) return;
  if (clusterIPs.length > 1 && net.isIP(clusterIPs[0]) === net.isIP(clusterIPs[1])) {
    e.invalid(ipsPath, clusterIPs, 'may specify no more than one IP for each IP family', rule);
  }
  if (!headless) {
    clusterIPs.forEach((ip, i) => {
      if (i >= families.length) return;
      if (families[i] === 'IPv4' && net.isIPv6(ip)) e.invalid([...ipsPath, i], ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``, rule);
      if (families[i] === 'IPv6' && !net.isIPv6(ip)) e.invalid([...ipsPath, i], ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``, rule);
    });
  }
}

/** ValidateNonSpecialIP (externalIPs). */
function validateNonSpecialIP(e: FieldErrors, ip: string, path: PathSegment[]): void {
  const rule = 'ValidateNonSpecialIP';
  if (ip === '0.0.0.0' || ip === '::') e.invalid(path, ip, `may not be unspecified (${ip})`, rule);
  if (ip.startsWith('127.') || ip === '::1') e.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)', rule);
  if (ip.startsWith('169.254.') || /^fe[89ab]/i.test(ip)) e.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)', rule);
  if (ip.startsWith('224.0.0.') || /^ff02:/i.test(ip)) e.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)', rule);
}

/**
 * networking.k8s.io/v1 NetworkPolicies, after pkg/apis/networking/validation/validation.go:
 * ValidateNetworkPolicy, ValidateNetworkPolicySpec, ValidateNetworkPolicyPort (with endPort),
 * ValidateNetworkPolicyPeer and ValidateIPBlock.
 */
import { FieldErrors, PathSegment, asArray, asObject, asString, isInt, isObject } from './field-errors';
import { parseCidr, portName, portNum, strictSubnet } from './formats';
import { nameIsDNSSubdomain, validateLabelSelector, validateObjectMeta } from './meta';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];

/** ValidateNetworkPolicy. */
export function validateNetworkPolicy(e: FieldErrors, np: Record<string, any>): void {
  validateObjectMeta(e, np.metadata, nameIsDNSSubdomain, true);
  const spec = asObject(np.spec);
  const path: PathSegment[] = ['spec'];
  validateLabelSelector(e, spec.podSelector, [...path, 'podSelector']);
  for (const [direction, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    asArray(spec[direction]).forEach((raw, i) => {
      const rule = asObject(raw);
      const at = [...path, direction, i];
      asArray(rule.ports).forEach((p, j) => validatePort(e, asObject(p), [...at, 'ports', j]));
      asArray(rule[peers]).forEach((p, j) => validatePeer(e, asObject(p), [...at, peers, j]));
    });
  }
  const types = asArray(spec.policyTypes);
  if (types.length > 2) {
    e.invalid([...path, 'policyTypes'], types, 'may not specify more than two policyTypes', 'ValidateNetworkPolicySpec');
    return;
  }
  types.forEach((t, i) => {
    if (!['Ingress', 'Egress'].includes(t)) e.notSupported([...path, 'policyTypes', i], t, ['Ingress', 'Egress'], 'ValidateNetworkPolicySpec');
  });
}

/** ValidateNetworkPolicyPort. */
function validatePort(e: FieldErrors, port: Record<string, any>, path: PathSegment[]): void {
  const rule = 'ValidateNetworkPolicyPort';
  if (typeof port.protocol === 'string' && !PROTOCOLS.includes(port.protocol)) e.notSupported([...path, 'protocol'], port.protocol, PROTOCOLS, rule);
  if (typeof port.port === 'number') e.invalidEach([...path, 'port'], port.port, portNum(port.port), rule);
  else if (typeof port.port === 'string') e.invalidEach([...path, 'port'], port.port, portName(port.port), rule);
  if (port.endPort === undefined) return;
  if (port.port === undefined) e.required([...path, 'port'], 'must specify port when endPort is specified', rule);
  else if (typeof port.port === 'string') e.forbidden([...path, 'endPort'], 'may not be specified when port is non-numeric', rule);
  else if (isInt(port.endPort) && port.endPort < port.port) e.invalid([...path, 'endPort'], port.endPort, 'must be greater than or equal to `port`', rule);
}

/** ValidateNetworkPolicyPeer: at least one peer, and an ipBlock alone. */
function validatePeer(e: FieldErrors, peer: Record<string, any>, path: PathSegment[]): void {
  let count = 0;
  for (const selector of ['podSelector', 'namespaceSelector']) {
    if (!isObject(peer[selector])) continue;
    count++;
    validateLabelSelector(e, peer[selector], [...path, selector]);
  }
  if (isObject(peer.ipBlock)) {
    count++;
    validateIPBlock(e, peer.ipBlock, [...path, 'ipBlock']);
  }
  if (count === 0) e.required(path, 'must specify a peer', 'ValidateNetworkPolicyPeer');
  else if (count > 1 && isObject(peer.ipBlock)) e.forbidden(path, 'may not specify both ipBlock and another peer', 'ValidateNetworkPolicyPeer');
}

/** ValidateIPBlock. */
function validateIPBlock(e: FieldErrors, block: Record<string, any>, path: PathSegment[]): void {
  const cidrText = asString(block.cidr);
  if (cidrText === '') {
    e.required([...path, 'cidr'], '', 'ValidateIPBlock');
    return;
  }
  const cidr = parseCidr(cidrText);
  if (!cidr) {
    e.invalid([...path, 'cidr'], cidrText, 'not a valid CIDR', 'ValidateIPBlock');
    return;
  }
  for (const [i, raw] of asArray(block.except).entries()) {
    const except = parseCidr(asString(raw));
    if (!except) {
      e.invalid([...path, 'except', i], raw, 'not a valid CIDR', 'ValidateIPBlock');
      return;
    }
    if (!strictSubnet(cidr, except)) e.invalid([...path, 'except', i], raw, 'must be a strict subset of `cidr`', 'ValidateIPBlock');
  }
}

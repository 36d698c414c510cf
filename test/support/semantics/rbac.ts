/**
 * RBAC objects, after pkg/apis/rbac/validation/validation.go: ValidateRole / ValidateClusterRole
 * (ValidatePolicyRule), ValidateRoleBinding / ValidateClusterRoleBinding
 * (ValidateRoleBindingSubject); names follow ValidateRBACName (a path segment).
 */
import { FieldErrors, PathSegment, asArray, asObject, asString } from './field-errors';
import { dns1123Subdomain, pathSegmentName } from './formats';
import { nameIsPathSegment, validateObjectMeta } from './meta';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** ValidateRole (namespaced) and ValidateClusterRole. */
export function validateRole(e: FieldErrors, role: Record<string, any>, namespaced: boolean): void {
  validateObjectMeta(e, role.metadata, nameIsPathSegment, namespaced);
  asArray(role.rules).forEach((r, i) => validatePolicyRule(e, asObject(r), namespaced, ['rules', i]));
}

/** ValidatePolicyRule: verbs, and either resources (with api groups) or non-resource URLs. */
function validatePolicyRule(e: FieldErrors, rule: Record<string, any>, namespaced: boolean, path: PathSegment[]): void {
  if (asArray(rule.verbs).length === 0) e.required([...path, 'verbs'], 'verbs must contain at least one value', 'ValidatePolicyRule');
  const urls = asArray(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) e.invalid([...path, 'nonResourceURLs'], urls, 'namespaced rules cannot apply to non-resource URLs', 'ValidatePolicyRule');
    if (asArray(rule.apiGroups).length > 0 || asArray(rule.resources).length > 0 || asArray(rule.resourceNames).length > 0) {
      e.invalid([...path, 'nonResourceURLs'], urls, 'rules cannot apply to both regular resources and non-resource URLs', 'ValidatePolicyRule');
    }
    return;
  }
  if (asArray(rule.apiGroups).length === 0) e.required([...path, 'apiGroups'], 'resource rules must supply at least one api group', 'ValidatePolicyRule');
  if (asArray(rule.resources).length === 0) e.required([...path, 'resources'], 'resource rules must supply at least one resource', 'ValidatePolicyRule');
}

/** ValidateRoleBinding (namespaced) and ValidateClusterRoleBinding. */
export function validateRoleBinding(e: FieldErrors, binding: Record<string, any>, namespaced: boolean): void {
  validateObjectMeta(e, binding.metadata, nameIsPathSegment, namespaced);
  const ref = asObject(binding.roleRef);
  const refGroup = defaultedApiGroup(ref.apiGroup, RBAC_GROUP);
  if (refGroup !== RBAC_GROUP) e.notSupported(['roleRef', 'apiGroup'], refGroup, [RBAC_GROUP], 'ValidateRoleBinding');
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(asString(ref.kind))) e.notSupported(['roleRef', 'kind'], asString(ref.kind), kinds, 'ValidateRoleBinding');
  const name = asString(ref.name);
  if (name === '') e.required(['roleRef', 'name'], '', 'ValidateRoleBinding');
  else e.invalidEach(['roleRef', 'name'], name, pathSegmentName(name), 'ValidateRoleBinding');
  asArray(binding.subjects).forEach((s, i) => validateSubject(e, asObject(s), namespaced, ['subjects', i]));
}

/** ValidateRoleBindingSubject. */
function validateSubject(e: FieldErrors, subject: Record<string, any>, namespaced: boolean, path: PathSegment[]): void {
  const rule = 'ValidateRoleBindingSubject';
  const name = asString(subject.name);
  if (name === '') e.required([...path, 'name'], '', rule);
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') e.invalidEach([...path, 'name'], name, dns1123Subdomain(name), rule);
      if (asString(subject.apiGroup) !== '') e.notSupported([...path, 'apiGroup'], subject.apiGroup, [''], rule);
      if (!namespaced && asString(subject.namespace) === '') e.required([...path, 'namespace'], '', rule);
      break;
    case 'User':
    case 'Group': {
      const group = defaultedApiGroup(subject.apiGroup, RBAC_GROUP);
      if (group !== RBAC_GROUP) e.notSupported([...path, 'apiGroup'], group, [RBAC_GROUP], rule);
      break;
    }
    default:
      e.notSupported([...path, 'kind'], asString(subject.kind), ['ServiceAccount', 'User', 'Group'], rule);
  }
}

/** SetDefaults_RoleBinding / SetDefaults_Subject: an empty or unset apiGroup becomes `group` before validation. */
function defaultedApiGroup(apiGroup: unknown, group: string): string {
  const given = asString(apiGroup);
  return given === '' ? group : given;
}

/**
 * Object metadata, labels, annotations and label selectors:
 * apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMetaAccessor, ValidateAnnotations,
 * ValidateOwnerReferences, ValidateFinalizers), apimachinery/pkg/apis/meta/v1/validation
 * (ValidateLabels, ValidateLabelName, ValidateLabelSelector, ValidateLabelSelectorRequirement),
 * and pkg/apis/core/validation (ValidateObjectMeta, validateKubeFinalizerName).
 */
import { FieldErrors, PathSegment, asArray, asObject, asString, isObject } from './field-errors';
import { dns1035Label, dns1123Label, dns1123Subdomain, labelValue, pathSegmentName, qualifiedName } from './formats';

/**
 * maskTrailingDash, verbatim: upstream replaces the last two characters, not one, with 'a' (a quirk
 * kept because diverging would change which names validate), and leaves a lone '-' alone.
 */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, name.length - 2)}a` : name;
}

/** A ValidateNameFunc: messages for a name (prefix: a generateName, whose trailing '-' is masked). */
const masked = (rule: (v: string) => string[]) => (name: string, prefix: boolean) => rule(prefix ? maskTrailingDash(name) : name);

/** NameIsDNSSubdomain: Jobs, ConfigMaps, Secrets, ServiceAccounts, NetworkPolicies, PVCs, Pods. */
export const nameIsDNSSubdomain = masked(dns1123Subdomain);
/** NameIsDNS1035Label: Services. */
export const nameIsDNS1035Label = masked(dns1035Label);
/** NameIsDNSLabel: namespaces. */
export const nameIsDNSLabel = masked(dns1123Label);
/** minimalNameRequirements / ValidateRBACName: Roles and RoleBindings. */
export const nameIsPathSegment = (name: string) => pathSegmentName(name);

/** TotalAnnotationSizeLimitB: 256 KiB of keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Finalizers that need no domain prefix (helper.IsStandardFinalizerName). */
const STANDARD_FINALIZERS = ['kubernetes', 'orphan', 'foregroundDeletion', 'kubernetes.io/pvc-protection', 'kubernetes.io/pv-protection'];

/** ValidateObjectMeta for a create: name (or generateName) by `nameRule`, namespace, labels, annotations, owners, finalizers. */
export function validateObjectMeta(e: FieldErrors, meta: unknown, nameRule: ((name: string, prefix: boolean) => string[]) | undefined, namespaced: boolean): void {
  const m = asObject(meta);
  const path: PathSegment[] = ['metadata'];
  const generateName = asString(m.generateName);
  const name = asString(m.name);
  if (nameRule && generateName) e.invalidEach([...path, 'generateName'], generateName, nameRule(generateName, true), 'ValidateObjectMetaAccessor');
  if (nameRule && name) e.invalidEach([...path, 'name'], name, nameRule(name, false), 'ValidateObjectMetaAccessor');
  // An unset namespace is filled in from the request (kubectl's context) before validation.
  const namespace = asString(m.namespace);
  if (namespace) {
    if (namespaced) e.invalidEach([...path, 'namespace'], namespace, nameIsDNSLabel(namespace, false), 'ValidateObjectMetaAccessor');
    else e.forbidden([...path, 'namespace'], 'not allowed on this type', 'ValidateObjectMetaAccessor');
  }
  validateLabels(e, m.labels, [...path, 'labels']);
  validateAnnotations(e, m.annotations, [...path, 'annotations']);
  validateOwnerReferences(e, m.ownerReferences, [...path, 'ownerReferences']);
  validateFinalizers(e, m.finalizers, [...path, 'finalizers']);
}

/** ValidateLabels: every key a qualified name, every value a label value. */
export function validateLabels(e: FieldErrors, labels: unknown, path: PathSegment[]): void {
  for (const [k, v] of Object.entries(asObject(labels))) {
    validateLabelName(e, k, path);
    if (typeof v === 'string') e.invalidEach(path, v, labelValue(v), 'ValidateLabels');
  }
}

/** ValidateLabelName. */
export function validateLabelName(e: FieldErrors, key: string, path: PathSegment[]): void {
  e.invalidEach(path, key, qualifiedName(key), 'ValidateLabelName');
}

/** ValidateAnnotations: keys are qualified names in any case; all keys and values total at most 256 KiB. */
export function validateAnnotations(e: FieldErrors, annotations: unknown, path: PathSegment[]): void {
  const a = asObject(annotations);
  let size = 0;
  for (const [k, v] of Object.entries(a)) {
    e.invalidEach(path, k, qualifiedName(k.toLowerCase()), 'ValidateAnnotations');
    size += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) e.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT, 'ValidateAnnotations');
}

/** ValidateOwnerReferences. */
function validateOwnerReferences(e: FieldErrors, refs: unknown, path: PathSegment[]): void {
  let controller: string | undefined;
  for (const ref of asArray(refs).map(asObject)) {
    const apiVersion = asString(ref.apiVersion);
    const version = apiVersion.includes('/') ? apiVersion.split('/')[1] : apiVersion;
    if (!version) e.invalid([...path, 'apiVersion'], apiVersion, 'version must not be empty', 'validateOwnerReference');
    if (!asString(ref.kind)) e.invalid([...path, 'kind'], asString(ref.kind), 'must not be empty', 'validateOwnerReference');
    if (!asString(ref.name)) e.invalid([...path, 'name'], asString(ref.name), 'must not be empty', 'validateOwnerReference');
    if (!asString(ref.uid)) e.invalid([...path, 'uid'], asString(ref.uid), 'must not be empty', 'validateOwnerReference');
    if (ref.controller === true) {
      const current = `${asString(ref.kind)}/${asString(ref.name)}`;
      if (controller !== undefined) {
        e.invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${current}`, 'ValidateOwnerReferences');
      } else {
        controller = current;
      }
    }
  }
}

/** ValidateFinalizers plus validateKubeFinalizerName. */
function validateFinalizers(e: FieldErrors, finalizers: unknown, path: PathSegment[]): void {
  const names = asArray(finalizers).filter((f): f is string => typeof f === 'string');
  names.forEach((f, i) => {
    e.invalidEach(path, f, qualifiedName(f), 'ValidateFinalizerName');
    if (!f.includes('/') && !STANDARD_FINALIZERS.includes(f)) {
      e.invalid([...path, i], f, 'name is neither a standard finalizer name nor is it fully qualified', 'validateKubeFinalizerName');
    }
  });
  if (names.includes('orphan') && names.includes('foregroundDeletion')) {
    e.invalid(path, names, 'finalizer orphan and foregroundDeletion cannot be both set', 'ValidateFinalizers');
  }
}

/** ValidateLabelSelector (with AllowInvalidLabelValueInSelector false, as on create). */
export function validateLabelSelector(e: FieldErrors, selector: unknown, path: PathSegment[]): void {
  if (!isObject(selector)) return;
  validateLabels(e, selector.matchLabels, [...path, 'matchLabels']);
  asArray(selector.matchExpressions).forEach((raw, i) => {
    const expr = asObject(raw);
    const at = [...path, 'matchExpressions', i];
    const values = asArray(expr.values);
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) e.required([...at, 'values'], "must be specified when `operator` is 'In' or 'NotIn'", 'ValidateLabelSelectorRequirement');
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) e.forbidden([...at, 'values'], "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", 'ValidateLabelSelectorRequirement');
        break;
      default:
        e.invalid([...at, 'operator'], expr.operator, 'not a valid selector operator', 'ValidateLabelSelectorRequirement');
    }
    validateLabelName(e, asString(expr.key), [...at, 'key']);
    values.forEach((v, j) => {
      if (typeof v === 'string') e.invalidEach([...at, 'values', j], v, labelValue(v), 'ValidateLabelSelectorRequirement');
    });
  });
}

/** metav1.LabelSelectorAsSelector(selector).Matches(labels); an empty selector matches everything. */
export function selectorMatches(selector: unknown, labels: Record<string, string>): boolean {
  const s = asObject(selector);
  for (const [k, v] of Object.entries(asObject(s.matchLabels))) if (labels[k] !== v) return false;
  for (const raw of asArray(s.matchExpressions)) {
    const expr = asObject(raw);
    const key = asString(expr.key);
    const values = asArray(expr.values);
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    const ok = expr.operator === 'In' ? has && values.includes(labels[key])
      : expr.operator === 'NotIn' ? !has || !values.includes(labels[key])
        : expr.operator === 'Exists' ? has
          : expr.operator === 'DoesNotExist' ? !has : false;
    if (!ok) return false;
  }
  return true;
}

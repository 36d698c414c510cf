/**
 * batch/v1 Jobs, after pkg/apis/batch/validation/validation.go (ValidateJob, ValidateJobSpec,
 * validateJobSpec, validateGeneratedSelector, validatePodFailurePolicy, validatePodFailurePolicyRule,
 * validatePodFailurePolicyRuleOnExitCodes, validatePodFailurePolicyRuleOnPodConditions,
 * validatePodReplacementPolicy, validateSuccessPolicy, validateSuccessPolicyRule,
 * validateIndexesFormat, parseIndexInterval) and the create strategy in
 * pkg/registry/batch/job/strategy.go (generateSelector adds the job-name and controller-uid labels
 * before validation; dropDisabledFields drops fields whose feature gate is off).
 */
import { compareMinor } from '../k8s-schema';
import { FieldErrors, PathSegment, asArray, asObject, asString, isInt, isObject } from './field-errors';
import { FeatureSet } from './features';
import { dns1123Label, domainPrefixedPath, qualifiedName } from './formats';
import { nameIsDNSSubdomain, selectorMatches, validateLabelSelector, validateObjectMeta } from './meta';
import { validatePodTemplateSpec } from './pod';

const MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_ON_EXIT_CODES_VALUES = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES = 20;
const NONNEGATIVE = 'must be greater than or equal to 0';

/** The labels generateSelector puts on the pod template (the UID is assigned by the server). */
const JOB_NAME_LABELS = ['job-name', 'batch.kubernetes.io/job-name'];
const CONTROLLER_UID_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'];
/** Stands for the UID the server assigns on create (a valid label value, as a real UID is). */
const SERVER_UID = '00000000-0000-4000-8000-000000000000';

/** A JobSpec with the fields of disabled gates dropped, as the registry leaves it. */
function enabledSpec(raw: unknown, f: FeatureSet): Record<string, any> {
  const spec = { ...asObject(raw) };
  if (!f.enabled('JobBackoffLimitPerIndex')) {
    delete spec.backoffLimitPerIndex;
    delete spec.maxFailedIndexes;
  }
  if (!f.enabled('JobPodReplacementPolicy')) delete spec.podReplacementPolicy;
  if (!f.enabled('JobSuccessPolicy')) delete spec.successPolicy;
  if (!f.enabled('JobManagedBy')) delete spec.managedBy;
  return spec;
}

/** ValidateJob on create, after the create strategy. */
export function validateJob(e: FieldErrors, job: Record<string, any>, f: FeatureSet): void {
  validateObjectMeta(e, job.metadata, nameIsDNSSubdomain, true);
  const name = asString(asObject(job.metadata).name);
  const spec = enabledSpec(job.spec, f);
  const userLabels: Record<string, string> = { ...asObject(asObject(asObject(spec.template).metadata).labels) };
  const manual = spec.manualSelector === true;
  let selector = spec.selector;
  const labels = { ...userLabels };
  if (!manual) {
    // generateSelector
    for (const key of JOB_NAME_LABELS) if (!(key in labels)) labels[key] = name;
    for (const key of CONTROLLER_UID_LABELS) if (!(key in labels)) labels[key] = SERVER_UID;
    const s = asObject(selector);
    selector = { ...s, matchLabels: { [CONTROLLER_UID_LABELS[1]]: SERVER_UID, ...asObject(s.matchLabels) } };
    validateGeneratedSelector(e, userLabels, name, selector);
  }
  const template = { ...asObject(spec.template), metadata: { ...asObject(asObject(spec.template).metadata), labels } };
  validateJobSpec(e, { ...spec, selector, template }, f, ['spec']);
  const completions = spec.completions;
  if (spec.completionMode === 'Indexed' && isInt(completions) && completions > 0) {
    // The Job controller names the pod hostname `<name>-<index>`.
    const host = `${name}-${completions - 1}`;
    if (dns1123Label(host).length > 0) e.invalid(['metadata', 'name'], name, `will not able to create pod with invalid DNS label: ${host}`, 'ValidateJob');
  }
}

/** validateGeneratedSelector: generated labels must not be overridden, the selector must be the generated one. */
function validateGeneratedSelector(e: FieldErrors, userLabels: Record<string, string>, name: string, selector: unknown): void {
  const path = ['spec', 'template', 'metadata', 'labels'];
  for (const key of CONTROLLER_UID_LABELS) {
    if (key in userLabels) e.invalid([...path, key], userLabels, "must be the Job's UID, which the API server assigns on create", 'ValidateHasLabel');
  }
  for (const key of JOB_NAME_LABELS) {
    if (key in userLabels && userLabels[key] !== name) e.invalid([...path, key], userLabels, `must be '${name}'`, 'ValidateHasLabel');
  }
  const expected = Object.fromEntries([...JOB_NAME_LABELS.map((k) => [k, name]), ...CONTROLLER_UID_LABELS.map((k) => [k, SERVER_UID])]);
  if (!selectorMatches(selector, expected)) e.invalid(['spec', 'selector'], selector, '`selector` not auto-generated', 'validateGeneratedSelector');
}

/** ValidateJobSpec: validateJobSpec plus the selector. */
function validateJobSpec(e: FieldErrors, spec: Record<string, any>, f: FeatureSet, path: PathSegment[]): void {
  validateJobSpecFields(e, spec, f, path);
  if (!isObject(spec.selector)) {
    e.required([...path, 'selector'], '', 'ValidateJobSpec');
    return;
  }
  validateLabelSelector(e, spec.selector, [...path, 'selector']);
  const labels = asObject(asObject(asObject(spec.template).metadata).labels);
  if (!selectorMatches(spec.selector, labels)) {
    e.invalid([...path, 'template', 'metadata', 'labels'], labels, '`selector` does not match template `labels`', 'ValidateJobSpec');
  }
}

/** validateJobSpec. */
function validateJobSpecFields(e: FieldErrors, spec: Record<string, any>, f: FeatureSet, path: PathSegment[]): void {
  for (const field of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes']) {
    if (isInt(spec[field]) && spec[field] < 0) e.invalid([...path, field], spec[field], NONNEGATIVE, 'ValidateNonnegativeField');
  }
  const { completions, parallelism, maxFailedIndexes, backoffLimitPerIndex } = spec;
  if (maxFailedIndexes !== undefined && backoffLimitPerIndex === undefined) {
    e.required([...path, 'backoffLimitPerIndex'], 'when maxFailedIndexes is specified', 'validateJobSpec');
  }
  if (spec.managedBy !== undefined) {
    const managedBy = asString(spec.managedBy);
    e.invalidEach([...path, 'managedBy'], managedBy, domainPrefixedPath(managedBy), 'IsDomainPrefixedPath');
    if (managedBy.length > MAX_MANAGED_BY_LENGTH) e.tooLong([...path, 'managedBy'], MAX_MANAGED_BY_LENGTH, 'validateJobSpec');
  }
  const indexed = spec.completionMode === 'Indexed';
  if (spec.completionMode !== undefined && !['NonIndexed', 'Indexed'].includes(spec.completionMode)) {
    e.notSupported([...path, 'completionMode'], spec.completionMode, ['NonIndexed', 'Indexed'], 'validateJobSpec');
  }
  if (indexed) {
    if (completions === undefined) e.required([...path, 'completions'], 'when completion mode is Indexed', 'validateJobSpec');
    if (isInt(parallelism) && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
      e.invalid([...path, 'parallelism'], parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`, 'validateJobSpec');
    }
    if (isInt(completions) && isInt(maxFailedIndexes) && maxFailedIndexes > completions) {
      e.invalid([...path, 'maxFailedIndexes'], maxFailedIndexes, 'must be less than or equal to completions', 'validateJobSpec');
    }
    if (isInt(maxFailedIndexes) && maxFailedIndexes > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
      e.invalid([...path, 'maxFailedIndexes'], maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`, 'validateJobSpec');
    }
    if (isInt(completions) && completions > COMPLETIONS_SOFT_LIMIT && backoffLimitPerIndex !== undefined) {
      if (maxFailedIndexes === undefined) e.required([...path, 'maxFailedIndexes'], `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`, 'validateJobSpec');
      if (isInt(parallelism) && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
        e.invalid([...path, 'parallelism'], parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`, 'validateJobSpec');
      }
      if (isInt(maxFailedIndexes) && maxFailedIndexes > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
        e.invalid([...path, 'maxFailedIndexes'], maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`, 'validateJobSpec');
      }
    }
  } else {
    if (backoffLimitPerIndex !== undefined) e.invalid([...path, 'backoffLimitPerIndex'], backoffLimitPerIndex, 'requires indexed completion mode', 'validateJobSpec');
    if (maxFailedIndexes !== undefined) e.invalid([...path, 'maxFailedIndexes'], maxFailedIndexes, 'requires indexed completion mode', 'validateJobSpec');
  }
  if (isObject(spec.podFailurePolicy)) validatePodFailurePolicy(e, spec, f, [...path, 'podFailurePolicy']);
  if (spec.successPolicy !== undefined) {
    if (!indexed) e.invalid([...path, 'successPolicy'], spec.successPolicy, 'requires indexed completion mode', 'validateJobSpec');
    else validateSuccessPolicy(e, spec, [...path, 'successPolicy']);
  }
  validatePodReplacementPolicy(e, spec, [...path, 'podReplacementPolicy']);
  validatePodTemplateSpec(e, spec.template, f, [...path, 'template']);
  // SetDefaults_PodSpec makes an unset restartPolicy Always.
  const restartPolicy = asObject(asObject(spec.template).spec).restartPolicy;
  const restartPath = [...path, 'template', 'spec', 'restartPolicy'];
  if (restartPolicy === undefined || restartPolicy === '' || restartPolicy === 'Always') {
    e.required(restartPath, 'valid values: "OnFailure", "Never"', 'validateJobSpec');
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    e.notSupported(restartPath, restartPolicy, ['OnFailure', 'Never'], 'validateJobSpec');
  } else if (isObject(spec.podFailurePolicy) && restartPolicy !== 'Never') {
    e.invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified', 'validateJobSpec');
  }
}

/** validatePodFailurePolicy. */
function validatePodFailurePolicy(e: FieldErrors, spec: Record<string, any>, f: FeatureSet, path: PathSegment[]): void {
  const rules = asArray(spec.podFailurePolicy.rules);
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) e.tooMany([...path, 'rules'], rules.length, MAX_POD_FAILURE_POLICY_RULES, 'validatePodFailurePolicy');
  const podSpec = asObject(asObject(spec.template).spec);
  const containerNames = new Set([...asArray(podSpec.containers), ...asArray(podSpec.initContainers)].map((c) => asString(asObject(c).name)));
  // FailIndex entered the API with JobBackoffLimitPerIndex in 1.28.
  const actions = compareMinor(f.version, '1.28') >= 0 ? ['Count', 'FailIndex', 'FailJob', 'Ignore'] : ['Count', 'FailJob', 'Ignore'];
  rules.forEach((raw, i) => {
    const rule = asObject(raw);
    const at = [...path, 'rules', i];
    const action = asString(rule.action);
    if (action === '') e.required([...at, 'action'], `valid values: [${actions.map((a) => JSON.stringify(a)).join(' ')}]`, 'validatePodFailurePolicyRule');
    else if (action === 'FailIndex' && actions.includes(action)) {
      if (spec.backoffLimitPerIndex === undefined) e.invalid([...at, 'action'], action, 'requires the backoffLimitPerIndex to be set', 'validatePodFailurePolicyRule');
    } else if (!actions.includes(action)) e.notSupported([...at, 'action'], action, actions, 'validatePodFailurePolicyRule');
    const onExitCodes = isObject(rule.onExitCodes);
    const onPodConditions = asArray(rule.onPodConditions).length > 0;
    if (onExitCodes) validateOnExitCodes(e, rule.onExitCodes, containerNames, [...at, 'onExitCodes']);
    if (onPodConditions) validateOnPodConditions(e, rule.onPodConditions, [...at, 'onPodConditions']);
    if (onExitCodes && onPodConditions) e.invalid(at, 'object', 'specifying both OnExitCodes and OnPodConditions is not supported', 'validatePodFailurePolicyRule');
    if (!onExitCodes && !onPodConditions) e.invalid(at, 'object', 'specifying one of OnExitCodes and OnPodConditions is required', 'validatePodFailurePolicyRule');
  });
}

/** validatePodFailurePolicyRuleOnExitCodes. */
function validateOnExitCodes(e: FieldErrors, req: Record<string, any>, containerNames: Set<string>, path: PathSegment[]): void {
  const rule = 'validatePodFailurePolicyRuleOnExitCodes';
  const operator = asString(req.operator);
  if (operator === '') e.required([...path, 'operator'], 'valid values: ["In" "NotIn"]', rule);
  else if (!['In', 'NotIn'].includes(operator)) e.notSupported([...path, 'operator'], operator, ['In', 'NotIn'], rule);
  if (typeof req.containerName === 'string' && !containerNames.has(req.containerName)) {
    e.invalid([...path, 'containerName'], req.containerName, 'must be one of the container or initContainer names in the pod template', rule);
  }
  const values = asArray(req.values).filter(isInt);
  const valuesPath = [...path, 'values'];
  if (values.length === 0) e.invalid(valuesPath, values, 'at least one value is required', rule);
  else if (values.length > MAX_ON_EXIT_CODES_VALUES) e.tooMany(valuesPath, values.length, MAX_ON_EXIT_CODES_VALUES, rule);
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) e.invalid([...valuesPath, j], v, 'must not be 0 for the In operator', rule);
    if (seen.has(v)) e.duplicate([...valuesPath, j], v, rule);
    seen.add(v);
    if (j > 0 && values[j - 1] > v) ordered = false;
  });
  if (!ordered) e.invalid(valuesPath, values, 'must be ordered', rule);
}

/** validatePodFailurePolicyRuleOnPodConditions. */
function validateOnPodConditions(e: FieldErrors, patterns: unknown, path: PathSegment[]): void {
  const rule = 'validatePodFailurePolicyRuleOnPodConditions';
  const list = asArray(patterns);
  if (list.length > MAX_ON_POD_CONDITIONS_PATTERNS) e.tooMany(path, list.length, MAX_ON_POD_CONDITIONS_PATTERNS, rule);
  list.forEach((raw, j) => {
    const p = asObject(raw);
    const type = asString(p.type);
    e.invalidEach([...path, j, 'type'], type, qualifiedName(type), rule);
    const status = asString(p.status);
    if (status === '') e.required([...path, j, 'status'], 'valid values: ["False" "True" "Unknown"]', rule);
    else if (!['False', 'True', 'Unknown'].includes(status)) e.notSupported([...path, j, 'status'], status, ['False', 'True', 'Unknown'], rule);
  });
}

/** validatePodReplacementPolicy: only Failed alongside a podFailurePolicy. */
function validatePodReplacementPolicy(e: FieldErrors, spec: Record<string, any>, path: PathSegment[]): void {
  const policy = spec.podReplacementPolicy;
  if (policy === undefined) return;
  if (isObject(spec.podFailurePolicy)) {
    if (policy !== 'Failed') e.notSupported(path, policy, ['Failed'], 'validatePodReplacementPolicy');
  } else if (!['Failed', 'TerminatingOrFailed'].includes(policy)) {
    e.notSupported(path, policy, ['Failed', 'TerminatingOrFailed'], 'validatePodReplacementPolicy');
  }
}

/** validateSuccessPolicy and validateSuccessPolicyRule. */
function validateSuccessPolicy(e: FieldErrors, spec: Record<string, any>, path: PathSegment[]): void {
  const rules = asArray(asObject(spec.successPolicy).rules);
  if (rules.length === 0) e.required([...path, 'rules'], 'at least one rules must be specified when the successPolicy is specified', 'validateSuccessPolicy');
  if (rules.length > MAX_SUCCESS_POLICY_RULES) e.tooMany([...path, 'rules'], rules.length, MAX_SUCCESS_POLICY_RULES, 'validateSuccessPolicy');
  const completions = isInt(spec.completions) ? spec.completions : undefined;
  rules.forEach((raw, i) => {
    const rule = asObject(raw);
    const at = [...path, 'rules', i];
    if (rule.succeededCount === undefined && rule.succeededIndexes === undefined) {
      e.required(at, 'at least one of succeededCount or succeededIndexes must be specified', 'validateSuccessPolicyRule');
    }
    let total = 0;
    if (typeof rule.succeededIndexes === 'string') {
      const p = [...at, 'succeededIndexes'];
      if (rule.succeededIndexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) e.tooLong(p, MAX_SUCCEEDED_INDEXES_LENGTH, 'validateSuccessPolicyRule');
      if (completions !== undefined) {
        const parsed = indexesFormat(rule.succeededIndexes, completions);
        if (typeof parsed === 'string') e.invalid(p, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed}`, 'validateSuccessPolicyRule');
        else total = parsed;
      }
    }
    if (isInt(rule.succeededCount)) {
      const p = [...at, 'succeededCount'];
      if (rule.succeededCount < 0) e.invalid(p, rule.succeededCount, NONNEGATIVE, 'ValidateNonnegativeField');
      if (completions !== undefined && rule.succeededCount > completions) {
        e.invalid(p, rule.succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`, 'validateSuccessPolicyRule');
      }
      if (rule.succeededIndexes !== undefined && rule.succeededCount > total) {
        e.invalid(p, rule.succeededCount, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`, 'validateSuccessPolicyRule');
      }
    }
  });
}

/** validateIndexesFormat: the number of indexes, or the parse error. */
export function indexesFormat(text: string, completions: number): number | string {
  if (text === '') return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of text.split(',')) {
    const parsed = indexInterval(interval, completions);
    if (typeof parsed === 'string') return parsed;
    const [x, y] = parsed;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

/** parseIndexInterval (Go's strconv.Atoi accepts a sign). */
function indexInterval(interval: string, completions: number): [number, number] | string {
  const limits = interval.split('-');
  if (limits.length > 2) return `the fragment "${interval}" violates the requirement that an index interval can have at most two parts separated by '-'`;
  const atoi = (s: string) => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);
  const x = atoi(limits[0]);
  if (x === undefined) return `cannot convert string to integer for index: "${limits[0]}"`;
  if (x >= completions) return `too large index: "${limits[0]}"`;
  if (limits.length === 1) return [x, x];
  const y = atoi(limits[1]);
  if (y === undefined) return `cannot convert string to integer for index: "${limits[1]}"`;
  if (y >= completions) return `too large index: "${limits[1]}"`;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

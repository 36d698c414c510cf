/**
 * Offline validation of synthesized Kubernetes manifests, for every test that synthesizes objects.
 *
 * Each document is checked by
 *  1. a strict JSON Schema generated from kubernetes-types (the newest installed types not newer than
 *     the target minor): unknown fields at any depth, wrong types, int vs string, missing required
 *     fields, quantity syntax, apiVersion/kind pairs;
 *  2. kubernetes-models@4 `.validate()`: enums, required fields and formats (one fixed, newer API
 *     schema, so it is not used for version gating);
 *  3. k8s-version-rules.ts: alpha fields and values the target minor does not accept by default, and
 *     init-container-only restartPolicy;
 *  4. k8s-semantics.ts: the API server's semantic validation (cross-field rules, names per kind,
 *     uniqueness, sizes), as on create in the target minor. A semantic finding at a path the checks
 *     above already reported is left out: that value is already wrong in shape, type or version.
 */
import type { ErrorObject } from 'ajv';
import { K8sSchema, compareMinor, definitionAt, loadSchema, schemaFor, schemaMinors, strictValidator } from './k8s-schema';
import { Finding, PathSegment, versionFindings } from './k8s-version-rules';
import { semanticFindings } from './k8s-semantics';

/** Oldest and newest Kubernetes minor the validator accepts as a target. */
export const MIN_KUBERNETES_VERSION = '1.27';
export const MAX_KUBERNETES_VERSION = '1.36';
export const DEFAULT_KUBERNETES_VERSION = '1.34';

export interface ValidateOptions {
  /**
   * Target Kubernetes minor, 'MAJOR.MINOR', from MIN_KUBERNETES_VERSION to MAX_KUBERNETES_VERSION.
   * @default '1.34'
   */
  readonly kubernetesVersion?: string;
}

/**
 * Every problem in every document, each as `<kind>/<metadata.name>: <json path>: <problem>`;
 * an empty array means all documents are valid for the target Kubernetes minor.
 * Throws only for a bad `kubernetesVersion`.
 */
export function validateManifests(docs: any[], opts: ValidateOptions = {}): string[] {
  const version = targetVersion(opts.kubernetesVersion);
  const schema = schemaFor(version);
  const problems: string[] = [];
  docs.forEach((doc, index) => {
    const prefix = `${label(doc?.kind)}/${label(doc?.metadata?.name, `<unnamed document ${index}>`)}`;
    const lines = validateDocument(doc, schema, version).map((f) => `${prefix}: ${formatPath(f.path)}: ${f.message}`);
    // Sorted by path (then message) so both validators' findings interleave readably; deduplicated
    // because both report missing required fields and wrong types alike.
    problems.push(...[...new Set(lines)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
  return problems;
}

/** Fails (throws) with every problem listed when any document is invalid. */
export function expectValidManifests(docs: any[], opts: ValidateOptions = {}): void {
  const problems = validateManifests(docs, opts);
  if (problems.length > 0) {
    const version = opts.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
    throw new Error(`${problems.length} problem(s) in ${docs.length} manifest(s) for Kubernetes ${version}:\n  ${problems.join('\n  ')}`);
  }
}

function targetVersion(version: string | undefined): string {
  const v = version ?? DEFAULT_KUBERNETES_VERSION;
  if (!/^\d+\.\d+$/.test(v) || compareMinor(v, MIN_KUBERNETES_VERSION) < 0 || compareMinor(v, MAX_KUBERNETES_VERSION) > 0) {
    throw new Error(`kubernetesVersion must be a 'MAJOR.MINOR' string from ${MIN_KUBERNETES_VERSION} to ${MAX_KUBERNETES_VERSION}, got ${JSON.stringify(version)}`);
  }
  return v;
}

function label(value: unknown, fallback = '<no kind>'): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

function validateDocument(doc: any, schema: K8sSchema, version: string): Finding[] {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return [{ path: [], message: `a manifest must be an object, got ${describe(doc)}` }];
  }
  const findings: Finding[] = [];
  for (const field of ['apiVersion', 'kind'] as const) {
    if (typeof doc[field] !== 'string' || doc[field] === '') findings.push({ path: [field], message: `required string, got ${describe(doc[field])}` });
  }
  if (findings.length > 0) return findings;
  const definition = schema.kinds[doc.apiVersion]?.[doc.kind];
  if (!definition) return [{ path: ['kind'], message: unknownKind(doc.apiVersion, doc.kind, schema, version) }];
  const named = definitionAt(schema, definition, ['metadata']) === 'meta.v1.ObjectMeta'; // not *List kinds
  if (named && typeof doc.metadata?.name !== 'string' && typeof doc.metadata?.generateName !== 'string') {
    findings.push({ path: ['metadata', 'name'], message: 'required field is missing (or metadata.generateName)' });
  }
  const strict = strictValidator(schema, definition);
  const strictErrors = strict(doc) ? [] : strict.errors!;
  findings.push(...strictErrors.map((e) => strictFinding(withData(e, doc), schema, definition, version)));
  const strictPaths = new Set(strictErrors.map((e) => e.instancePath));
  findings.push(...modelFindings(doc, strictPaths, schema, definition));
  findings.push(...versionFindings(schema, definition, doc, version));
  const reported = new Set(findings.map((f) => formatPath(f.path)));
  findings.push(...semanticFindings(doc, version).filter((f) => !reported.has(formatPath(f.path))));
  return findings;
}

function unknownKind(apiVersion: string, kind: string, schema: K8sSchema, version: string): string {
  const where = `${JSON.stringify(`${apiVersion} ${kind}`)} is not a GA kind of Kubernetes ${version} (kubernetes-types ${schema.kubernetesTypes})`;
  const elsewhere = Object.keys(schema.kinds).filter((av) => schema.kinds[av][kind]);
  if (elsewhere.length > 0) return `${where}; kind ${kind} is served as apiVersion ${elsewhere.join(', ')}`;
  const newest = loadSchema(schemaMinors().pop()!);
  if (newest.kinds[apiVersion]?.[kind]) return `${where}; it exists in kubernetes-types ${newest.kubernetesTypes}, newer than the target`;
  return where;
}

/** JSON pointer '/spec/containers/0/name' -> segments ['spec', 'containers', 0, 'name']. */
function pointerSegments(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** Segments -> 'spec.template.spec.containers[0].name', quoting keys that are not identifiers. */
function formatPath(path: PathSegment[]): string {
  if (path.length === 0) return '(document)';
  return path
    .map((s, i) => {
      if (typeof s === 'number') return `[${s}]`;
      if (!/^[A-Za-z_$][\w$-]*$/.test(s)) return `[${JSON.stringify(s)}]`;
      return i === 0 ? s : `.${s}`;
    })
    .join('');
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function strictFinding(e: ErrorObject, schema: K8sSchema, root: string, version: string): Finding {
  const path = pointerSegments(e.instancePath);
  const definition = definitionAt(schema, root, path);
  if (e.keyword === 'additionalProperties') {
    const field = (e.params as { additionalProperty: string }).additionalProperty;
    let message = `unknown field (not in kubernetes-types ${schema.kubernetesTypes}, the newest installed types not newer than Kubernetes ${version})`;
    const newest = loadSchema(schemaMinors().pop()!);
    if (definition && newest !== schema && newest.definitions[definition]?.properties?.[field]) {
      message += `; it is a newer field (present in kubernetes-types ${newest.kubernetesTypes})`;
    }
    return { path: [...path, field], message };
  }
  return commonFinding(e, path, definition === QUANTITY);
}

const QUANTITY = 'api.resource.Quantity';

/** Messages shared by both ajv-based validators, so identical findings de-duplicate. */
function commonFinding(e: ErrorObject, path: PathSegment[], quantity: boolean): Finding {
  switch (e.keyword) {
    case 'required':
      return { path: [...path, (e.params as { missingProperty: string }).missingProperty], message: 'required field is missing' };
    case 'type':
      return { path, message: `must be ${String((e.params as { type: string | string[] }).type).split(',').join(' or ')}, got ${describe(e.data)}` };
    case 'enum':
      return { path, message: `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}, got ${describe(e.data)}` };
    case 'pattern':
    case 'format':
      if (quantity) return { path, message: `must be a quantity like 500m, 2 or 1.5Gi, got ${describe(e.data)}` };
      if ((e.params as { format?: string }).format === 'byte') return { path, message: `must be base64, got ${describe(e.data)}` };
      return { path, message: `${e.message ?? 'is invalid'}, got ${describe(e.data)}` };
    default:
      return { path, message: `${e.message ?? e.keyword}${e.data === undefined ? '' : `, got ${describe(e.data)}`}` };
  }
}

type ModelClass = new (data: unknown) => { validate(): void };

const modelClasses = new Map<string, ModelClass>();

function modelClass(apiVersion: string, kind: string): ModelClass {
  const key = `${apiVersion}/${kind}`;
  let cls = modelClasses.get(key);
  if (!cls) {
    // Only reached for apiVersion/kind pairs found in the generated schema, never arbitrary input.
    cls = (require(`kubernetes-models/${apiVersion}/${kind}`) as Record<string, ModelClass>)[kind];
    if (!cls) throw new Error(`kubernetes-models has no class for ${key}`);
    modelClasses.set(key, cls);
  }
  return cls;
}

/**
 * kubernetes-models findings the strict schema did not already report at the same path (it owns
 * shapes and types; kubernetes-models adds enums, formats and required fields).
 */
function modelFindings(doc: any, strictPaths: Set<string>, schema: K8sSchema, root: string): Finding[] {
  const Model = modelClass(doc.apiVersion, doc.kind);
  let errors: ErrorObject[];
  try {
    new Model(doc).validate();
    return [];
  } catch (err) {
    if (!(err as { errors?: ErrorObject[] }).errors) throw err;
    errors = (err as { errors: ErrorObject[] }).errors;
  }
  const fresh = errors.filter((e) => e.keyword === 'required' || !strictPaths.has(e.instancePath));
  return fresh
    .filter((e) => !isAlternativeNoise(e, fresh))
    .map((e) => {
      const path = pointerSegments(e.instancePath);
      return commonFinding(withData(e, doc), path, definitionAt(schema, root, path) === QUANTITY);
    });
}

/**
 * A failed oneOf (IntOrString, Quantity) yields one error per branch plus the oneOf itself; keep
 * the telling one (format, enum) when there is one, else only the oneOf.
 */
function isAlternativeNoise(e: ErrorObject, all: ErrorObject[]): boolean {
  const here = all.filter((o) => o.instancePath === e.instancePath);
  if (!here.some((o) => o.keyword === 'oneOf' || o.keyword === 'anyOf')) return false;
  const telling = here.some((o) => ['format', 'enum', 'pattern'].includes(o.keyword));
  return telling ? !['format', 'enum', 'pattern'].includes(e.keyword) : e.keyword !== 'oneOf' && e.keyword !== 'anyOf';
}

/** Adds the offending value (neither validator is compiled with ajv's `verbose`). */
function withData(e: ErrorObject, doc: unknown): ErrorObject {
  let node: any = doc;
  for (const s of pointerSegments(e.instancePath)) node = node?.[s];
  return { ...e, data: node };
}

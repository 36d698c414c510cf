/**
 * Checks a parsed MiniCluster resource against CRD_FIELDS the way the API server would (types,
 * required fields, defaults, nulls pruned) and applies the converter's decisions: unknown fields
 * and rejected fields are problems, no-effect fields are warnings. Returns a cleaned copy holding
 * only mapped fields, with the CRD defaults applied.
 */
import { QUANTITY } from '../core/k8s-formats';
import { CRD_FIELDS, CrdField, FieldDecision, FieldType, REMOVED_FIELDS } from './crd-fields';
import { Problem, PathSegment, formatPath } from './problems';

interface SchemaNode {
  readonly field: CrdField;
  readonly properties: Map<string, SchemaNode>;
  items?: SchemaNode;
  values?: SchemaNode;
}

/** Result of checkResource. */
export interface CheckedResource {
  /** The resource with unknown, rejected and no-effect fields removed and defaults applied. */
  readonly value: Record<string, any>;
  readonly problems: Problem[];
  readonly warnings: Problem[];
  /** Lists that lost invalid items, so later indexes no longer match the resource's. */
  readonly shiftedLists: string[];
}

const ROOT_FIELD: CrdField = { path: '', type: FieldType.OBJECT, decision: FieldDecision.MAPPED, prop: '(props)' };
let schemaRoot: SchemaNode | undefined;

/** The CRD_FIELDS table as a tree (built once). */
function schema(): SchemaNode {
  if (schemaRoot) return schemaRoot;
  const root: SchemaNode = { field: ROOT_FIELD, properties: new Map() };
  for (const field of CRD_FIELDS) {
    const tokens = pathTokens(field.path);
    let node = root;
    tokens.slice(0, -1).forEach((t, i) => {
      const next = t === '[]' ? node.items : t === '{}' ? node.values : node.properties.get(t);
      if (!next) throw new Error(`CRD_FIELDS: ${field.path} comes before its parent ${tokens.slice(0, i + 1).join('.')}`);
      node = next;
    });
    const child: SchemaNode = { field, properties: new Map() };
    const last = tokens[tokens.length - 1];
    if (last === '[]') node.items = child;
    else if (last === '{}') node.values = child;
    else node.properties.set(last, child);
  }
  schemaRoot = root;
  return root;
}

/** `spec.containers[].volumes{}.path` → ['spec', 'containers', '[]', 'volumes', '{}', 'path']. */
export function pathTokens(path: string): string[] {
  return path.match(/\[\]|\{\}|[^.[\]{}]+/g) ?? [];
}

/** Checks `resource` (any parsed YAML value). */
export function checkResource(resource: unknown): CheckedResource {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const shiftedLists: string[] = [];
  const walk = (value: unknown, node: SchemaNode, segments: PathSegment[]): unknown => {
    const field = node.field;
    const problem = (v: unknown, rule: string) => problems.push(at(segments, SECRET_FIELDS.includes(field.path) ? '(certificate)' : v, rule));
    const typeError = typeProblem(value, field.type);
    if (typeError) {
      problem(value, typeError);
      return undefined;
    }
    if (field.decision !== FieldDecision.MAPPED) {
      if (!isInert(value, field)) {
        if (field.decision === FieldDecision.REJECTED) problem(value, field.note!);
        else if (!field.path.startsWith('status')) warnings.push(at(segments, value, `no effect: ${field.note}`));
      }
      return undefined;
    }
    switch (field.type) {
      case FieldType.QUANTITY:
        return String(value);
      case FieldType.ARRAY: {
        // A null item is a type error too: list items are not pruned.
        const items = (value as unknown[]).map((item, i) => walk(item, node.items!, [...segments, i]));
        if (items.includes(undefined)) shiftedLists.push(formatPath(segments));
        return items.filter((item) => item !== undefined);
      }
      case FieldType.MAP: {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value as object)) {
          if (!present(v)) continue;
          const checked = walk(v, node.values!, [...segments, k]);
          if (checked !== undefined) out[k] = checked;
        }
        return out;
      }
      case FieldType.OBJECT:
        return node.properties.size === 0 ? value : walkObject(value as Record<string, unknown>, node, segments);
      default:
        return value;
    }
  };
  const walkObject = (value: Record<string, unknown>, node: SchemaNode, segments: PathSegment[]) => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const child = node.properties.get(key);
      if (!child) {
        problems.push(at([...segments, key], v, unknownFieldRule(node, key)));
        continue;
      }
      if (!present(v)) continue; // the API server prunes nulls of non-nullable fields
      const checked = walk(v, child, [...segments, key]);
      if (checked !== undefined) out[key] = checked;
    }
    for (const [key, child] of node.properties) {
      const mapped = child.field.decision === FieldDecision.MAPPED;
      if (mapped && child.field.default !== undefined && !present(value[key])) out[key] = child.field.default;
      if (child.field.required && !present(value[key])) problems.push(at([...segments, key], undefined, 'required'));
    }
    return out;
  };
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) {
    problems.push(at([], resource, `must be a mapping (a MiniCluster resource), got ${describe(resource)}`));
    return { value: {}, problems, warnings, shiftedLists };
  }
  const value = walkObject(resource as Record<string, unknown>, schema(), []);
  return { value, problems, warnings, shiftedLists };
}

/** Fields whose value is never quoted in a message. */
const SECRET_FIELDS = ['spec.flux.curveCert'];

function at(segments: PathSegment[], value: unknown, rule: string): Problem {
  return { path: formatPath(segments), segments, value, rule };
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function typeProblem(value: unknown, type: FieldType): string | undefined {
  switch (type) {
    case FieldType.STRING:
      return typeof value === 'string' ? undefined : `must be a string, got ${describe(value)}`;
    case FieldType.BOOLEAN:
      if (typeof value === 'boolean') return undefined;
      // kubectl reads YAML 1.1, where these words are booleans; here (YAML 1.2) they are strings.
      return typeof value === 'string' && /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/.test(value)
        ? `must be true or false, got the string '${value}' (a YAML 1.1 boolean; write true or false)`
        : `must be true or false, got ${describe(value)}`;
    case FieldType.INT32:
      return Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX
        ? undefined : `must be an integer (int32), got ${describe(value)}`;
    case FieldType.INT64:
      return Number.isSafeInteger(value) ? undefined : `must be an integer (int64), got ${describe(value)}`;
    case FieldType.QUANTITY:
      return (Number.isInteger(value) || (typeof value === 'string' && QUANTITY.test(value)))
        ? undefined : `must be a quantity such as '500m', '2Gi' or 4, got ${describe(value)}`;
    case FieldType.ARRAY:
      return Array.isArray(value) ? undefined : `must be a list, got ${describe(value)}`;
    case FieldType.OBJECT:
    case FieldType.MAP:
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : `must be a mapping, got ${describe(value)}`;
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number with a fraction';
  return `a ${typeof v}`;
}

/** True when a rejected or no-effect field holds nothing that would change the cluster. */
function isInert(value: unknown, field: CrdField): boolean {
  if (field.default !== undefined && value === field.default) return true;
  return isEmpty(value);
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every(isEmpty);
  return false;
}

function unknownFieldRule(node: SchemaNode, key: string): string {
  const pattern = node.field.path === '' ? key : `${node.field.path}.${key}`;
  const removed = REMOVED_FIELDS[pattern];
  if (removed) return `unknown field: ${removed}`;
  const known = [...node.properties.keys()];
  const close = known.filter((k) => k.toLowerCase() === key.toLowerCase() || editDistance(k, key) <= 2);
  if (close.length > 0) return `unknown field: not in the MiniCluster v1alpha2 schema (did you mean ${close.map((k) => `'${k}'`).join(' or ')}?)`;
  return `unknown field: not in the MiniCluster v1alpha2 schema, which has ${known.join(', ')} here`;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

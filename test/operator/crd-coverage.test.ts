/**
 * Every field of the operator's CRD schema has a decision in CRD_FIELDS (mapped, no effect, or
 * rejected with a reason), with the CRD's own type, default and required flag; and the table is
 * well-formed on its own (the part that runs without the operator data).
 */
import { CRD_FIELDS, CrdField, FieldDecision, FieldType } from '../../lib/operator';
import { crdSchema, describeWithOperatorData } from './support/operator-data';

interface SchemaField {
  type: FieldType;
  default?: unknown;
  required?: boolean;
}

/** Walks an OpenAPI v3 schema the way the converter sees it: `.prop`, `[]` items, `{}` map values. */
function walk(schema: any, path: string, out: Map<string, SchemaField>, required = false) {
  const field: SchemaField = { type: typeOf(schema) };
  if (schema.default !== undefined) field.default = schema.default;
  if (required) field.required = true;
  if (path !== '') out.set(path, field);
  const prefix = path === '' ? '' : `${path}.`;
  for (const [key, child] of Object.entries<any>(schema.properties ?? {})) {
    walk(child, `${prefix}${key}`, out, (schema.required ?? []).includes(key));
  }
  if (schema.items) walk(schema.items, `${path}[]`, out);
  if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${path}{}`, out);
}

function typeOf(schema: any): FieldType {
  if (schema['x-kubernetes-int-or-string']) return FieldType.QUANTITY;
  switch (schema.type) {
    case 'string': return FieldType.STRING;
    case 'boolean': return FieldType.BOOLEAN;
    case 'integer': return schema.format === 'int32' ? FieldType.INT32 : FieldType.INT64;
    case 'array': return FieldType.ARRAY;
    case 'object': return typeof schema.additionalProperties === 'object' ? FieldType.MAP : FieldType.OBJECT;
    default: throw new Error(`unexpected schema type ${JSON.stringify(schema.type)}`);
  }
}

function tableField(f: CrdField): SchemaField {
  const out: SchemaField = { type: f.type };
  if (f.default !== undefined) out.default = f.default;
  if (f.required) out.required = true;
  return out;
}

describeWithOperatorData('CRD coverage (every field of miniclusters.crd.yaml)', () => {
  test('the decision table has exactly the paths of the CRD schema, with its types, defaults and required flags', () => {
    // GIVEN
    const schema = new Map<string, SchemaField>();
    walk(crdSchema(), '', schema);
    const table = new Map(CRD_FIELDS.map((f) => [f.path, tableField(f)]));
    // THEN
    expect([...table.keys()].filter((p) => !schema.has(p))).toEqual([]);
    expect([...schema.keys()].filter((p) => !table.has(p))).toEqual([]);
    const differences = [...schema].filter(([path, field]) => JSON.stringify(table.get(path)) !== JSON.stringify(field))
      .map(([path, field]) => ({ path, crd: field, table: table.get(path) }));
    expect(differences).toEqual([]);
    // nested shapes are covered too, not only the top level
    expect(schema.size).toBeGreaterThan(300);
    expect(schema.has('spec.containers[].volumes{}.emptyDirMedium')).toBe(true);
    expect(schema.has('spec.flux.container.securityContext.seccompProfile.type')).toBe(true);
    expect(schema.has('spec.pod.nodeAffinity{}[]')).toBe(true);
  });
});

describe('CRD field table', () => {
  test('paths are unique and every parent comes before its children', () => {
    const seen = new Set<string>();
    for (const f of CRD_FIELDS) {
      expect(seen.has(f.path)).toBe(false);
      const parent = f.path.replace(/(\.[^.[\]{}]+|\[\]|\{\})$/, '');
      if (parent !== f.path) expect({ path: f.path, parentSeen: seen.has(parent) }).toEqual({ path: f.path, parentSeen: true });
      seen.add(f.path);
    }
  });

  test('every rejected or no-effect field says why, every mapped field names its prop', () => {
    for (const f of CRD_FIELDS) {
      if (f.decision === FieldDecision.MAPPED) expect({ path: f.path, prop: f.prop }).toEqual({ path: f.path, prop: expect.stringMatching(/\S/) });
      else expect({ path: f.path, note: f.note }).toEqual({ path: f.path, note: expect.stringMatching(/\S{3}/) });
    }
  });

  test('the fields the reference marks dead or broken upstream are rejected or have no effect, with the reason', () => {
    const decision = (p: string) => CRD_FIELDS.find((f) => f.path === p)!;
    expect(decision('spec.flux.arch')).toMatchObject({ decision: FieldDecision.REJECTED, note: expect.stringContaining('unused by the operator') });
    expect(decision('spec.flux.mungeSecret')).toMatchObject({ decision: FieldDecision.REJECTED, note: expect.stringContaining('unused in v1alpha2') });
    expect(decision('spec.flux.bursting')).toMatchObject({ decision: FieldDecision.REJECTED, note: expect.stringContaining('broken in the operator') });
    expect(decision('spec.flux.bursting.leadBroker.port')).toMatchObject({ decision: FieldDecision.REJECTED, note: 'part of spec.flux.bursting (rejected)' });
    expect(decision('spec.services')).toMatchObject({ decision: FieldDecision.REJECTED, note: expect.stringContaining('<name>-services') });
    expect(decision('spec.cleanup')).toMatchObject({ decision: FieldDecision.REJECTED, note: expect.stringContaining('ttlSecondsAfterFinished') });
    expect(decision('spec.pod.resources')).toMatchObject({ decision: FieldDecision.REJECTED, note: expect.stringContaining('overhead') });
    expect(decision('spec.flux.minimalService')).toMatchObject({ decision: FieldDecision.NO_EFFECT, note: expect.stringContaining('publishNotReadyAddresses') });
    expect(decision('spec.flux.noWaitSocket')).toMatchObject({ decision: FieldDecision.NO_EFFECT });
    expect(decision('spec.flux.container.imagePullSecret')).toMatchObject({ decision: FieldDecision.MAPPED, note: expect.stringContaining('ignores it') });
    expect(decision('spec.flux.disableSocket')).toMatchObject({ decision: FieldDecision.MAPPED, prop: 'flux.disableSocket' });
  });
});

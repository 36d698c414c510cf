/**
 * Rules the generated schemas cannot express: fields and values that the installed kubernetes-types
 * know but that the target Kubernetes minor does not accept with its default feature gates (the
 * types carry alpha fields, and enums are plain strings there), plus value rules that depend on
 * where a type is used (a Container as an init container or not).
 *
 * How this scales: the schema for target V is the newest installed kubernetes-types <= V, so a field
 * newer than those types is already an unknown-field error. When a newer kubernetes-types is
 * published, add the alias (`npm i -D kubernetes-types-1.3X@npm:kubernetes-types@1.3X.0`) and run
 * `node tools/gen-k8s-schema.js`; then list here every field of the new types that is alpha (off by
 * default) in the minor that introduced it, with the minor where it became enabled by default.
 * kubernetes-types 1.30.0 is the newest on npm today, so for targets 1.31+ a field added after 1.30
 * (e.g. image volumes, pod-level resources) is rejected. If one is needed before newer types exist,
 * the approach is: a table in the generator that adds `{ definition, field, schema }` to the newest
 * schema, plus a GATES entry here with the minor it became default-on, so it is accepted only from
 * that minor.
 */
import { K8sSchema, SchemaNode, compareMinor, refName } from './k8s-schema';

export type PathSegment = string | number;

/** One problem at a path inside a document. */
export interface Finding {
  readonly path: PathSegment[];
  readonly message: string;
}

/** A field, or one value of a field, that needs a minimum Kubernetes minor. */
interface Gate {
  /** Schema definition holding the field, e.g. 'batch.v1.JobSpec'. */
  readonly definition: string;
  readonly field: string;
  /** Only this value is gated (the field itself is older). */
  readonly value?: string;
  /** First minor whose API server accepts it with default feature gates. */
  readonly since: string;
  /** Feature gate and its stages, shown in the message. */
  readonly why: string;
}

/**
 * Alpha-in-the-types fields and values (sources: kubernetes.io feature-gates reference and release
 * notes). Only what the installed types (1.26, 1.29, 1.30) contain matters; a field the mapped types
 * do not have is already rejected by the schema.
 */
const GATES: readonly Gate[] = [
  { definition: 'batch.v1.PodFailurePolicyRule', field: 'action', value: 'FailIndex', since: '1.29', why: 'JobBackoffLimitPerIndex: alpha 1.28, beta (on) 1.29' },
  { definition: 'batch.v1.JobSpec', field: 'successPolicy', since: '1.31', why: 'JobSuccessPolicy: alpha 1.30, beta (on) 1.31' },
  { definition: 'batch.v1.JobSpec', field: 'managedBy', since: '1.32', why: 'JobManagedBy: alpha 1.30, beta (on) 1.32' },
  { definition: 'core.v1.LifecycleHandler', field: 'sleep', since: '1.30', why: 'PodLifecycleSleepAction: alpha 1.29, beta (on) 1.30' },
  { definition: 'core.v1.ServiceSpec', field: 'trafficDistribution', since: '1.31', why: 'ServiceTrafficDistribution: alpha 1.30, beta (on) 1.31' },
  { definition: 'core.v1.PodAffinityTerm', field: 'matchLabelKeys', since: '1.31', why: 'MatchLabelKeysInPodAffinity: alpha 1.29, beta (on) 1.31' },
  { definition: 'core.v1.PodAffinityTerm', field: 'mismatchLabelKeys', since: '1.31', why: 'MatchLabelKeysInPodAffinity: alpha 1.29, beta (on) 1.31' },
  { definition: 'core.v1.Container', field: 'resizePolicy', since: '1.33', why: 'InPlacePodVerticalScaling: alpha 1.27, beta (on) 1.33' },
  { definition: 'core.v1.PodSpec', field: 'hostUsers', since: '1.33', why: 'UserNamespacesSupport: on by default from 1.33' },
  { definition: 'core.v1.PodSpec', field: 'resourceClaims', since: '1.34', why: 'DynamicResourceAllocation: GA (on) 1.34' },
  { definition: 'core.v1.ResourceRequirements', field: 'claims', since: '1.34', why: 'DynamicResourceAllocation: GA (on) 1.34' },
  { definition: 'core.v1.PersistentVolumeClaimSpec', field: 'volumeAttributesClassName', since: '1.34', why: 'VolumeAttributesClass: beta (off) 1.31, GA 1.34' },
];

type Visit = (definition: string, field: string, value: unknown, path: PathSegment[]) => void;

/** Walks `value` alongside its schema, calling `visit` for every field of every typed object. */
function walk(schema: K8sSchema, node: SchemaNode | boolean | undefined, value: unknown, path: PathSegment[], visit: Visit, definition?: string): void {
  if (node === undefined || typeof node === 'boolean') return;
  if (node.$ref) {
    const name = refName(node.$ref);
    walk(schema, schema.definitions[name], value, path, visit, name);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(schema, node.items, item, [...path, i], visit));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [field, child] of Object.entries(value as Record<string, unknown>)) {
    const fieldNode = node.properties?.[field] ?? node.additionalProperties;
    if (definition && node.properties?.[field]) visit(definition, field, child, [...path, field]);
    walk(schema, fieldNode, child, [...path, field], visit);
  }
}

/** Native sidecars: only init containers take `restartPolicy`, and only `Always`. */
function containerRestartPolicy(field: string, value: unknown, path: PathSegment[]): Finding[] {
  if (!Array.isArray(value)) return [];
  const findings: Finding[] = [];
  value.forEach((container, i) => {
    const policy = (container as Record<string, unknown> | null)?.restartPolicy;
    if (policy === undefined) return;
    const at = [...path, i, 'restartPolicy'];
    if (field !== 'initContainers') {
      findings.push({ path: at, message: `only init containers may set restartPolicy (native sidecar), got ${JSON.stringify(policy)}` });
    } else if (policy !== 'Always') {
      findings.push({ path: at, message: `the only allowed value for an init container is "Always", got ${JSON.stringify(policy)}` });
    }
  });
  return findings;
}

/** Findings of the version gates and context rules for one document against target minor `version`. */
export function versionFindings(schema: K8sSchema, definition: string, doc: unknown, version: string): Finding[] {
  const findings: Finding[] = [];
  walk(schema, { $ref: `#/definitions/${definition}` }, doc, [], (def, field, value, path) => {
    for (const gate of GATES) {
      if (gate.definition !== def || gate.field !== field || compareMinor(version, gate.since) >= 0) continue;
      if (gate.value === undefined) {
        findings.push({ path, message: `field not accepted by Kubernetes ${version} with default feature gates (needs ${gate.since}+; ${gate.why})` });
      } else if (value === gate.value) {
        findings.push({ path, message: `value ${JSON.stringify(value)} not accepted by Kubernetes ${version} with default feature gates (needs ${gate.since}+; ${gate.why})` });
      }
    }
    if (def === 'core.v1.PodSpec' && ['containers', 'initContainers', 'ephemeralContainers'].includes(field)) {
      findings.push(...containerRestartPolicy(field, value, path));
    }
  });
  return findings;
}

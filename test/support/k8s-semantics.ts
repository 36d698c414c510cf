/**
 * The API server's semantic validation of the kinds this project emits: the rules an OpenAPI schema
 * cannot express (cross-field rules, name formats per kind, uniqueness, size limits, feature gates
 * by Kubernetes minor). A port, written from scratch, of the create-time validation in
 * kubernetes/kubernetes (pkg/apis/batch/validation, pkg/apis/core/validation,
 * pkg/apis/rbac/validation, pkg/apis/networking/validation, apimachinery's objectmeta and format
 * checks) and of the create strategies that default and drop fields before it runs. Each message
 * ends with the upstream function that raises it; semantics/*.ts hold the rules by kind.
 *
 * Not ported: checks that need cluster state (quota, admission, name collisions), update-only
 * rules (immutability), and checks of kinds the project does not emit (other kinds get the
 * metadata rules only).
 */
import { Finding } from './k8s-version-rules';
import { validateConfigMap, validateSecret, validateServiceAccount } from './semantics/config';
import { FeatureSet } from './semantics/features';
import { FieldErrors, asString, isObject } from './semantics/field-errors';
import { validateJob } from './semantics/job';
import { nameIsDNSSubdomain, validateObjectMeta } from './semantics/meta';
import { validateNetworkPolicy } from './semantics/network-policy';
import { validatePodSpec } from './semantics/pod';
import { validateRole, validateRoleBinding } from './semantics/rbac';
import { validateService } from './semantics/service';

type KindRule = (e: FieldErrors, doc: Record<string, any>, features: FeatureSet) => void;

const RULES: Record<string, KindRule> = {
  'batch/v1 Job': validateJob,
  'v1 Service': validateService,
  'v1 ConfigMap': (e, d) => validateConfigMap(e, d),
  'v1 Secret': (e, d) => validateSecret(e, d),
  'v1 ServiceAccount': (e, d) => validateServiceAccount(e, d),
  'v1 Pod': (e, d, f) => {
    validateObjectMeta(e, d.metadata, nameIsDNSSubdomain, true);
    validatePodSpec(e, d.spec, f, ['spec']);
  },
  'rbac.authorization.k8s.io/v1 Role': (e, d) => validateRole(e, d, true),
  'rbac.authorization.k8s.io/v1 ClusterRole': (e, d) => validateRole(e, d, false),
  'rbac.authorization.k8s.io/v1 RoleBinding': (e, d) => validateRoleBinding(e, d, true),
  'rbac.authorization.k8s.io/v1 ClusterRoleBinding': (e, d) => validateRoleBinding(e, d, false),
  'networking.k8s.io/v1 NetworkPolicy': (e, d) => validateNetworkPolicy(e, d),
};

/** The kinds with kind-specific rules ('apiVersion Kind'). */
export const SEMANTIC_KINDS = Object.keys(RULES);

/**
 * Every semantic problem of one manifest for Kubernetes minor `version` ('1.27'..'1.36'), as the
 * API server would report it on create. Tolerates any shape: fields of the wrong type are skipped
 * (the schema reports them).
 */
export function semanticFindings(doc: unknown, version: string): Finding[] {
  if (!isObject(doc)) return [];
  const e = new FieldErrors();
  const rule = RULES[`${asString(doc.apiVersion)} ${asString(doc.kind)}`];
  if (rule) rule(e, doc, new FeatureSet(version));
  else validateObjectMeta(e, doc.metadata, undefined, true);
  return e.list;
}

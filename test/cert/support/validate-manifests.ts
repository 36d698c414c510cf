/**
 * Interim manifest check with kubernetes-models (required fields, enums, formats), used until the
 * shared test/support/k8s-validate.ts (`expectValidManifests`, strict unknown-field checks too) is
 * on main; then this file becomes a one-line re-export of it.
 */
import { Job } from 'kubernetes-models/batch/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ConfigMap, Secret, ServiceAccount } from 'kubernetes-models/v1';

const MODELS: { [kind: string]: new (data: any) => { validate(): void } } = { ConfigMap, Job, Role, RoleBinding, Secret, ServiceAccount };

export function expectValidManifests(docs: any[]): void {
  const problems: string[] = [];
  for (const doc of docs) {
    const Model = MODELS[doc.kind];
    if (!Model) {
      problems.push(`${doc.kind}/${doc.metadata?.name}: no validator for this kind`);
      continue;
    }
    try {
      new Model(doc).validate();
    } catch (e) {
      problems.push(`${doc.kind}/${doc.metadata?.name}: ${(e as Error).message}`);
    }
  }
  if (problems.length > 0) throw new Error(`invalid manifests:\n  ${problems.join('\n  ')}`);
}

/** The objects a case creates on a real cluster: its manifests and what the user adds, in its namespace. */
import { E2eCase } from '../case';
import { certificateSecret } from '../certificate';
import { JobFacts, readDocs } from '../manifests';
import { moveToNamespace } from './namespace';

/** Whether the output makes its certificate Secret itself (a CurveCertJob), as it does by default. */
export function makesOwnCertificate(docs: any[], facts: JobFacts): boolean {
  return docs.some((d) => d?.kind === 'Job' && (d.spec?.template?.spec?.containers ?? [])
    .some((c: any) => (c.env ?? []).some((e: any) => e.name === 'CERTGEN_SECRET_NAME' && e.value === facts.certificateSecret)));
}

/**
 * The case's objects in namespace `namespace`, in the order to create them: what the user makes
 * first (their ConfigMaps and Secrets; the certificate Secret, made with `cdk8s-minicluster cert`
 * as docs/production.md says, unless the output has its certificate Job), then the manifests.
 */
export function kubeObjects(c: E2eCase, docs: any[], facts: JobFacts, dir: string, namespace: string): any[] {
  const user = [...c.userObjects ?? []];
  const hasSecret = docs.some((d) => d.kind === 'Secret' && d.metadata?.name === facts.certificateSecret);
  if (facts.certificateSecret && !hasSecret && !makesOwnCertificate(docs, facts)) {
    user.push(...readDocs([certificateSecret(dir, { secret: facts.certificateSecret, cluster: facts.cluster, namespace: facts.namespace })]));
  }
  const moved = moveToNamespace([...user.map((u) => ({ ...u, metadata: { ...u.metadata, namespace: u.metadata?.namespace ?? facts.namespace } })), ...docs], namespace);
  return moved;
}

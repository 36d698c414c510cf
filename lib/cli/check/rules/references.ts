/**
 * The namespaces, Secrets, ConfigMaps, PersistentVolumeClaims and ServiceAccounts the output's pods
 * use but the output does not create. A Secret a Job of the output creates (the certificate Job's,
 * by the certgen contract) is created by the output.
 */
import type { Reference } from '../facts';
import type { Finding } from '../findings';
import { Manifest, objectKey, Obj, PodTemplate } from '../manifest';
import { cannotTell, Rule } from './context';

/** A reference with where it is made, e.g. `volumes (data).persistentVolumeClaim`. */
export interface Use extends Reference {
  readonly owner: string;
  readonly where: string;
}

function uses(t: PodTemplate): Use[] {
  const out: Use[] = [];
  const add = (kind: Reference['kind'], name: unknown, where: string, optional?: boolean): void => {
    if (typeof name === 'string' && name && !optional) out.push({ kind, name, namespace: t.namespace, owner: t.owner, where });
  };
  const s = t.spec;
  for (const v of s.volumes ?? []) {
    add('Secret', v.secret?.secretName, `volume ${v.name}`, v.secret?.optional);
    add('ConfigMap', v.configMap?.name, `volume ${v.name}`, v.configMap?.optional);
    add('PersistentVolumeClaim', v.persistentVolumeClaim?.claimName, `volume ${v.name}`);
    for (const p of v.projected?.sources ?? []) {
      add('Secret', p.secret?.name, `volume ${v.name}`, p.secret?.optional);
      add('ConfigMap', p.configMap?.name, `volume ${v.name}`, p.configMap?.optional);
    }
  }
  for (const c of [...(s.initContainers ?? []), ...(s.containers ?? [])] as Obj[]) {
    for (const e of c.env ?? []) {
      add('Secret', e.valueFrom?.secretKeyRef?.name, `container ${c.name} env ${e.name}`, e.valueFrom?.secretKeyRef?.optional);
      add('ConfigMap', e.valueFrom?.configMapKeyRef?.name, `container ${c.name} env ${e.name}`, e.valueFrom?.configMapKeyRef?.optional);
    }
    for (const e of c.envFrom ?? []) {
      add('Secret', e.secretRef?.name, `container ${c.name} envFrom`, e.secretRef?.optional);
      add('ConfigMap', e.configMapRef?.name, `container ${c.name} envFrom`, e.configMapRef?.optional);
    }
  }
  for (const p of s.imagePullSecrets ?? []) add('Secret', p.name, 'imagePullSecrets');
  // The namespace's default ServiceAccount is made by the cluster.
  if (s.serviceAccountName !== 'default') add('ServiceAccount', s.serviceAccountName, 'serviceAccountName');
  return out;
}

/** What the output uses and does not create: what `check` looks up. */
export function externalUses(m: Manifest): Use[] {
  return m.podTemplates.flatMap(uses).filter((u) => !m.creates.has(objectKey(u.kind, u.namespace, u.name)));
}

/** The namespaces of the output's namespaced objects. */
export function namespacesOf(m: Manifest): string[] {
  return [...new Set(m.objects.map((o) => o.metadata.namespace).filter((n): n is string => typeof n === 'string'))].sort();
}

const FIX: Record<Reference['kind'], (u: Use) => string> = {
  Secret: (u) => (u.where === 'imagePullSecrets'
    ? `create it (kubectl create secret docker-registry ${u.name} -n ${u.namespace} ...), or drop it from the props if the images are public`
    : `create it before the pods start (kubectl create secret generic ${u.name} -n ${u.namespace} ...), or add it to the output`),
  ConfigMap: (u) => `create it (kubectl create configmap ${u.name} -n ${u.namespace} ...), or add it to the output`,
  PersistentVolumeClaim: (u) => `create it (a PersistentVolumeClaim ${u.name} in ${u.namespace}), or add it to the output (a cdk8s-plus PersistentVolumeClaim in the chart)`,
  ServiceAccount: (u) => `create it (kubectl create serviceaccount ${u.name} -n ${u.namespace}), or add it to the output`,
};

/** What a missing object does to the pods. */
const EFFECT: Record<Reference['kind'], string> = {
  Secret: 'the pods wait in ContainerCreating (FailedMount) or fail to start their containers (CreateContainerConfigError)',
  ConfigMap: 'the pods wait in ContainerCreating (FailedMount) or fail to start their containers (CreateContainerConfigError)',
  PersistentVolumeClaim: 'the pods stay Pending (unbound PersistentVolumeClaim)',
  ServiceAccount: 'the Job controller cannot create the pods (the ServiceAccount admission refuses them)',
};

export const MISSING_OBJECT: Rule = {
  id: 'missing-object',
  checks: 'every Secret, ConfigMap, PersistentVolumeClaim and ServiceAccount the pods use (volumes, env, envFrom, imagePullSecrets, serviceAccountName; not those marked optional) exists, or the output creates it (a Secret made by a Job of the output, such as the certificate Job, counts); one GET per name',
  run: (ctx) => {
    const out: Finding[] = [];
    const byKey = new Map<string, Use[]>();
    for (const u of externalUses(ctx.manifest)) byKey.set(objectKey(u.kind, u.namespace, u.name), [...byKey.get(objectKey(u.kind, u.namespace, u.name)) ?? [], u]);
    for (const [key, all] of byKey) {
      const u = all[0];
      const got = ctx.facts.objects.get(key);
      const users = [...new Set(all.map((x) => `${x.owner} (${x.where})`))].join(', ');
      if (!got || !got.ok) {
        out.push(cannotTell('missing-object', `whether ${u.kind} ${u.name} exists`, got && !got.ok ? got.why : 'not read', `${u.kind}/${u.name}`, u.namespace));
      } else if (!got.value) {
        out.push({ rule: 'missing-object', severity: 'error', object: `${u.kind}/${u.name}`, namespace: u.namespace,
          message: `does not exist and the output does not create it; used by ${users}: ${EFFECT[u.kind]}`, fix: FIX[u.kind](u) });
      }
    }
    return out;
  },
};

export const NAMESPACE: Rule = {
  id: 'namespace',
  checks: 'every namespace of the output exists, or the output creates it (a Namespace object)',
  run: (ctx) => namespacesOf(ctx.manifest).flatMap((ns): Finding[] => {
    const own = ctx.manifest.objects.find((o) => o.kind === 'Namespace' && o.metadata.name === ns);
    const live = ctx.facts.namespaces.get(ns);
    if (live?.ok && live.value) return [];
    if (own) return [{ rule: 'namespace', severity: 'info', object: `Namespace/${ns}`, namespace: null, message: 'does not exist yet: the output creates it', fix: null }];
    if (!live || !live.ok) return [cannotTell('namespace', `whether namespace ${ns} exists`, live && !live.ok ? live.why : 'not read', `Namespace/${ns}`)];
    return [{ rule: 'namespace', severity: 'error', object: `Namespace/${ns}`, namespace: null, message: 'does not exist, and the output does not create it: kubectl apply refuses every object of it',
      fix: `kubectl create namespace ${ns} (with its Pod Security labels), or add a Namespace to the output` }];
  }),
};

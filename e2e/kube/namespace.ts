/**
 * Each case runs in a namespace of its own on a real cluster: the synthesized objects are moved
 * there, the namespace is created before and deleted after, and a namespace that does not finish
 * deleting within NAMESPACE_DELETE_SECONDS fails the case.
 */
import { KubeTarget, statusOf } from './target';

/** How long `kubectl delete namespace` may take before the case fails (issue: a stuck Job finalizer). */
export const NAMESPACE_DELETE_SECONDS = 60;

/** A DNS-label namespace name for a case (and run), unique per case id. */
export function caseNamespace(id: string, run = 1): string {
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const words = id.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return `e2e-${words}-${hash.toString(36)}${run > 1 ? `-r${run}` : ''}`.slice(0, 63);
}

/**
 * The objects, moved from the namespace they were synthesized for into `to`: every namespaced
 * object's metadata.namespace, RoleBinding subjects, and the broker config's host names
 * (`.<from>.svc.`), the only place the output spells its namespace out (the scripts and programs
 * read it from the downward API). Throws if the old namespace is still spelled out anywhere.
 */
export function moveToNamespace(docs: any[], to: string): any[] {
  const from = new Set(docs.map((d) => d?.metadata?.namespace).filter((n): n is string => typeof n === 'string'));
  if (from.size > 1) throw new Error(`the manifests use several namespaces (${[...from].join(', ')}); a case runs in one`);
  const old = [...from][0];
  const moved = JSON.parse(JSON.stringify(docs));
  if (old === undefined) return moved;
  const rename = (text: string) => text.split(`.${old}.svc.`).join(`.${to}.svc.`);
  for (const d of moved) {
    if (d.metadata?.namespace !== undefined) d.metadata.namespace = to;
    for (const s of d.subjects ?? []) if (s.namespace === old) s.namespace = to;
    if (d.kind === 'ConfigMap') for (const k of Object.keys(d.data ?? {})) d.data[k] = rename(d.data[k]);
  }
  const left = JSON.stringify(moved).match(new RegExp(`[^A-Za-z0-9-]${old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.svc\\b`));
  if (left) throw new Error(`the manifests still name namespace ${old} after the move to ${to}: ...${left[0]}...`);
  return moved;
}

/** The Pod Security level every pod template of the output meets, as a namespace label; none when not restricted. */
export function podSecurityLabels(docs: any[]): Record<string, string> {
  const templates = docs.filter((d) => d?.kind === 'Job').map((d) => d.spec?.template?.spec ?? {});
  const restricted = templates.length > 0 && templates.every((s) => s.securityContext?.runAsNonRoot === true && s.securityContext?.seccompProfile?.type === 'RuntimeDefault');
  return restricted ? { 'pod-security.kubernetes.io/enforce': 'restricted' } : {};
}

/** Creates the case's namespace (a leftover one of the same name is deleted first). */
export async function createNamespace(target: KubeTarget, name: string, labels: Record<string, string>): Promise<void> {
  try {
    await target.core.readNamespace({ name });
    const left = await deleteNamespace(target, name);
    if (left) throw new Error(`a namespace ${name} from an earlier run is still there: ${left}`);
  } catch (e) {
    if (statusOf(e) !== 404) throw e;
  }
  await target.core.createNamespace({ body: { metadata: { name, labels: { 'app.kubernetes.io/part-of': 'cdk8s-minicluster-e2e', ...labels } } } });
}

/**
 * Deletes the namespace as `kubectl delete namespace` does and waits up to
 * NAMESPACE_DELETE_SECONDS for it to be gone; returns a problem (what still holds it), or undefined.
 */
export async function deleteNamespace(target: KubeTarget, name: string, seconds = NAMESPACE_DELETE_SECONDS): Promise<string | undefined> {
  return (await deleteNamespaceTimed(target, name, seconds)).problem;
}

/** deleteNamespace, with the seconds the namespace took to go (undefined when it did not go). */
export async function deleteNamespaceTimed(target: KubeTarget, name: string, seconds = NAMESPACE_DELETE_SECONDS): Promise<{ problem?: string; seconds?: number }> {
  const started = Date.now();
  const took = () => Math.round((Date.now() - started) / 100) / 10;
  try {
    await target.core.deleteNamespace({ name });
  } catch (e) {
    if (statusOf(e) === 404) return { seconds: 0 };
    throw e;
  }
  const deadline = started + seconds * 1000;
  let last: any;
  while (Date.now() < deadline) {
    try {
      last = await target.core.readNamespace({ name });
    } catch (e) {
      if (statusOf(e) === 404) return { seconds: took() };
      throw e;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const pods = await target.core.listNamespacedPod({ namespace: name }).then((l) => l.items, () => []);
  const held = pods.map((p) => `${p.metadata?.name} (${p.status?.phase}, finalizers ${JSON.stringify(p.metadata?.finalizers ?? [])})`);
  const conditions = (last?.status?.conditions ?? []).filter((c: any) => c.status === 'True').map((c: any) => `${c.type}: ${c.message}`);
  return { problem: `namespace ${name} still ${last?.status?.phase ?? 'there'} ${seconds} s after its deletion; pods left: ${held.join(', ') || 'none'}; ${conditions.join('; ')}` };
}

/**
 * What `check` reads from the cluster, with GET and LIST only: the server's version, the nodes, the
 * namespaces the output uses, each object it refers to but does not create (a GET by name: no list
 * of Secrets is needed), and the kube-dns Service. A read the account may not do is kept as
 * "cannot tell"; no answer at all from the server ends the check (exit 2).
 */
import { KUEUE_GROUP, KUEUE_VERSION } from '../../core/kueue-contract';
import type * as k8s from '@kubernetes/client-node';
import { Day2Error, EXIT } from '../day2/errors';
import { apiError, Kube } from '../day2/kube';
import { CHECK_EXIT } from './findings';

/** A read's outcome: the value (undefined: the object does not exist), or why it cannot tell. */
export type Read<T> = { readonly ok: true; readonly value: T | undefined } | { readonly ok: false; readonly why: string };

export interface ServerVersion {
  readonly gitVersion: string;
  readonly minor: number;
}

export interface ClusterFacts {
  readonly server: string;
  readonly version: Read<ServerVersion>;
  readonly nodes: Read<k8s.V1Node[]>;
  /** By namespace name. */
  readonly namespaces: Map<string, Read<k8s.V1Namespace>>;
  /** By `Kind/namespace/name` (manifest.objectKey): whether it exists. */
  readonly objects: Map<string, Read<true>>;
  /** The kube-dns Service of kube-system. */
  readonly dns: Read<k8s.V1Service>;
  /** Kueue LocalQueues the Jobs name, by `namespace/name`; ClusterQueues they point at, by name. */
  readonly localQueues: Map<string, Read<any>>;
  readonly clusterQueues: Map<string, Read<any>>;
}

/** An object the output refers to, to look up. */
export interface Reference {
  readonly kind: 'Secret' | 'ConfigMap' | 'PersistentVolumeClaim' | 'ServiceAccount';
  readonly namespace: string;
  readonly name: string;
}

const RESOURCE: Record<Reference['kind'], string> = { Secret: 'secrets', ConfigMap: 'configmaps', PersistentVolumeClaim: 'persistentvolumeclaims', ServiceAccount: 'serviceaccounts' };

/** Runs one read: 404 is "absent", 403 (and any other answer) "cannot tell"; no answer or a 401 stops the check. */
async function read<T>(kube: Kube, verb: string, resource: string, call: () => Promise<T>): Promise<Read<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (e) {
    const err = apiError(kube, { verb, resource }, e);
    if (err.exitCode === EXIT.UNREACHABLE || err.message.startsWith('unauthorized')) throw new Day2Error(CHECK_EXIT.USAGE, err.message);
    if (err.exitCode === EXIT.NOT_FOUND) return { ok: true, value: undefined };
    return { ok: false, why: err.exitCode === EXIT.FORBIDDEN ? `forbidden (needs RBAC verb '${verb}' on '${resource}')` : err.message };
  }
}

export async function readFacts(kube: Kube, namespaces: string[], references: Reference[], queues: Array<{ namespace: string; name: string }> = []): Promise<ClusterFacts> {
  const versionApi = kube.config.makeApiClient(kube.lib.VersionApi);
  const info = await read(kube, 'get', '/version', () => versionApi.getCode());
  const version: Read<ServerVersion> = info.ok ? { ok: true, value: info.value && serverVersion(info.value) } : info;
  const nodes = await read(kube, 'list', 'nodes', async () => (await kube.core.listNode()).items);
  const nsFacts = new Map<string, Read<k8s.V1Namespace>>();
  for (const name of namespaces) nsFacts.set(name, await read(kube, 'get', 'namespaces', () => kube.core.readNamespace({ name })));
  const objects = new Map<string, Read<true>>();
  for (const r of references) {
    const key = `${r.kind}/${r.namespace}/${r.name}`;
    if (objects.has(key)) continue;
    const args = { name: r.name, namespace: r.namespace };
    const get = {
      Secret: () => kube.core.readNamespacedSecret(args),
      ConfigMap: () => kube.core.readNamespacedConfigMap(args),
      PersistentVolumeClaim: () => kube.core.readNamespacedPersistentVolumeClaim(args),
      ServiceAccount: () => kube.core.readNamespacedServiceAccount(args),
    }[r.kind];
    const got = await read(kube, 'get', RESOURCE[r.kind], get);
    // Only existence is kept: a Secret's data is never held longer than the answer.
    objects.set(key, got.ok ? { ok: true, value: got.value ? true : undefined } : got);
  }
  const dns = await read(kube, 'get', 'services', () => kube.core.readNamespacedService({ name: 'kube-dns', namespace: 'kube-system' }));
  const localQueues = new Map<string, Read<any>>();
  const clusterQueues = new Map<string, Read<any>>();
  const kueue = { group: KUEUE_GROUP, version: KUEUE_VERSION };
  for (const q of queues) {
    const lq = await read(kube, 'get', 'localqueues', () => kube.custom.getNamespacedCustomObject({ ...kueue, namespace: q.namespace, plural: 'localqueues', name: q.name }));
    localQueues.set(`${q.namespace}/${q.name}`, lq);
    const cq = lq.ok ? (lq.value as any)?.spec?.clusterQueue : undefined;
    if (typeof cq === 'string' && !clusterQueues.has(cq)) clusterQueues.set(cq, await read(kube, 'get', 'clusterqueues', () => kube.custom.getClusterCustomObject({ ...kueue, plural: 'clusterqueues', name: cq })));
  }
  return { server: kube.server, version, nodes, namespaces: nsFacts, objects, dns, localQueues, clusterQueues };
}

/** The minor of a /version answer: `minor` ('34', or '34+' on some managed clusters), else gitVersion. */
function serverVersion(v: k8s.VersionInfo): ServerVersion | undefined {
  const m = /^(\d+)/.exec(v.minor ?? '') ?? /^v?1\.(\d+)/.exec(v.gitVersion ?? '');
  return m ? { gitVersion: v.gitVersion ?? `1.${m[1]}`, minor: Number(m[1]) } : undefined;
}

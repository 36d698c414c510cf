/**
 * Volumes a case's Job mounts but its manifests do not create, on a real cluster: a claim gets a
 * hostPath PersistentVolume bound to it (a single-node cluster has no provisioner), and the files
 * a user's data would hold are written by a one-off pod that mounts the volume, as a user would.
 */
import { VolumeSeed } from '../case';
import { indexedJob } from '../manifests';
import { KubeTarget } from './target';

/** Where the hostPath PersistentVolumes live on the node. */
export const PV_ROOT = '/var/tmp/cdk8s-minicluster-e2e';
const SEED_IMAGE = 'ubuntu:noble';

/** What a case's volumes need: claims to create (with their PersistentVolumes) and a seeding pod. */
export interface VolumePlan {
  readonly claims: any[];
  readonly volumes: any[];
  /** The seeding pod, or undefined when nothing is seeded. */
  readonly seedPod?: any;
}

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * The claims, PersistentVolumes and seeding pod for `docs` (already in `namespace`) and the case's
 * seeds. Each run's volume is a new directory (`run`), empty as a provisioned volume is: a case's
 * namespace has the same name every run, and an earlier run's files would be there.
 */
export function volumePlan(docs: any[], namespace: string, seeds: VolumeSeed[] = [], run = Date.now().toString(36)): VolumePlan {
  const spec = indexedJob(docs).spec.template.spec;
  const made = new Set(docs.filter((d) => d?.kind === 'PersistentVolumeClaim').map((d) => d.metadata.name));
  const claims: any[] = [];
  const volumes: any[] = [];
  for (const v of spec.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (!claim || made.has(claim) || claims.some((c) => c.metadata.name === claim)) continue;
    const pv = `${namespace}-${claim}`.slice(0, 253);
    claims.push({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: claim, namespace }, spec: { accessModes: ['ReadWriteMany'], storageClassName: '', volumeName: pv, resources: { requests: { storage: '1Gi' } } } });
    volumes.push({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: pv, labels: { 'app.kubernetes.io/part-of': 'cdk8s-minicluster-e2e' } },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany'], persistentVolumeReclaimPolicy: 'Retain', storageClassName: '', claimRef: { namespace, name: claim }, hostPath: { path: `${PV_ROOT}/${pv}-${run}`, type: 'DirectoryOrCreate' } },
    });
  }
  // hostPath volumes of type Directory must exist on the node: the seeding pod makes them.
  const hostPaths = (spec.volumes ?? []).filter((v: any) => v.hostPath && (v.hostPath.type ?? '') !== 'DirectoryOrCreate');
  const targets: Array<{ key: string; files: Record<string, string> }> = [
    ...seeds.map((s) => ({ key: s.podemuKey, files: s.files as Record<string, string> })),
    ...hostPaths.map((v: any) => ({ key: `hostpath${v.hostPath.path.replace(/\//g, '_')}`, files: {} as Record<string, string> })),
  ];
  if (!targets.length) return { claims, volumes };
  const mounts: any[] = [];
  const podVolumes: any[] = [];
  const script: string[] = ['set -e'];
  for (const [i, t] of targets.entries()) {
    if (podVolumes.some((v) => v.key === t.key)) continue;
    const volume = t.key.startsWith('pvc-') ? { persistentVolumeClaim: { claimName: t.key.slice(4) } }
      : t.key.startsWith('hostpath') ? { hostPath: { path: t.key.slice('hostpath'.length).replace(/_/g, '/'), type: 'DirectoryOrCreate' } } : undefined;
    if (!volume) throw new Error(`volume seed ${t.key}: not pvc-<claim> or hostpath<path>`);
    podVolumes.push({ name: `v${i}`, key: t.key, ...volume });
    mounts.push({ name: `v${i}`, mountPath: `/seed/v${i}` });
    script.push(`chmod a+rwx /seed/v${i}`);
    for (const [name, text] of Object.entries(t.files)) script.push(`echo ${b64(text)} | base64 -d > /seed/v${i}/${name} && chmod a+r /seed/v${i}/${name}`);
  }
  const seedPod = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'e2e-volume-seed', namespace },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      containers: [{ name: 'seed', image: SEED_IMAGE, imagePullPolicy: 'IfNotPresent', command: ['/bin/sh', '-c', script.join('\n')], volumeMounts: mounts }],
      volumes: podVolumes.map(({ key: _key, ...v }) => v),
    },
  };
  return { claims, volumes, seedPod };
}

/** Creates the plan's objects and waits (up to 120 s) for the seeding pod to succeed; then deletes it. */
export async function prepareVolumes(target: KubeTarget, plan: VolumePlan): Promise<void> {
  for (const o of [...plan.volumes, ...plan.claims]) await target.objects.create(o);
  if (!plan.seedPod) return;
  await target.objects.create(plan.seedPod);
  const { name, namespace } = plan.seedPod.metadata;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const pod = await target.core.readNamespacedPod({ name, namespace });
    if (pod.status?.phase === 'Succeeded') break;
    if (pod.status?.phase === 'Failed' || Date.now() > deadline) {
      const log = await target.core.readNamespacedPodLog({ name, namespace }).catch(() => '');
      throw new Error(`the volume seeding pod ${pod.status?.phase === 'Failed' ? 'failed' : 'did not finish in 120 s'}: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await target.core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 });
}

/** Deletes the case's PersistentVolumes (after its namespace is gone). */
export async function deleteVolumes(target: KubeTarget, plan: VolumePlan): Promise<void> {
  for (const pv of plan.volumes) await target.core.deletePersistentVolume({ name: pv.metadata.name }).catch(() => undefined);
}

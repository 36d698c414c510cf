/** A case on a real cluster: its namespace, volumes and objects, the run, and the cleanup after. */
import * as path from 'path';
import { E2eCase } from '../case';
import { AUTOSCALER_CONTAINER } from '../../lib/core/autoscale-contract';
import { FLUX_VIEW_ANNOTATION, MAX_SIZE_ANNOTATION } from '../../lib/core/day2-contract';
import { JobFacts, indexedJob, writeDocs } from '../manifests';
import { Day2Connection, Day2StepResult, runDay2Steps } from './day2';
import { createNamespace, deleteNamespaceTimed, podSecurityLabels } from './namespace';
import { cpuMillis, fitCpuRequests, grownSize } from './fit';
import { NodeControl, keepOffProtectedNodes } from './node-faults';
import { kubeObjects } from './objects';
import { queueNameOf } from './kueue';
import { KubeRun } from './run';
import { KubeTarget } from './target';
import { deleteVolumes, prepareVolumes, volumePlan } from './volumes';

export interface KubeCaseRun {
  readonly run: KubeRun;
  /** What the runner changed for this cluster (requests scaled down), for the report. */
  readonly notes: string[];
  /** Where the case's day-2 commands connect to. */
  readonly day2: Day2Connection;
  /** The day-2 steps run before the objects were created (check -f): their problems and results. */
  readonly beforeApply: { readonly problems: string[]; readonly results: Day2StepResult[] };
  /** Deletes the namespace (and the case's PersistentVolumes): the seconds it took, or a problem when it did not go within the limit. */
  cleanup(): Promise<{ problem?: string; seconds?: number }>;
}

export async function startKubeCase(c: E2eCase, target: KubeTarget, namespace: string, docs: any[], facts: JobFacts, dir: string, timeout: number, nodeControl?: NodeControl): Promise<KubeCaseRun> {
  const nodes = (await target.core.listNode()).items;
  const allocatable = Math.max(0, ...nodes.map((n) => cpuMillis(n.status?.allocatable?.cpu) ?? 0));
  // An autoscaled Job may grow to its maxSize on its own: it must fit at that size.
  const autoscaledTo = indexedJob(docs).spec.template.spec.initContainers?.some((x: any) => x.name === AUTOSCALER_CONTAINER)
    ? Number(indexedJob(docs).metadata.annotations?.[MAX_SIZE_ANNOTATION]) : undefined;
  const fitted = fitCpuRequests(docs, allocatable, grownSize(c) ?? autoscaledTo);
  const keptOff = keepOffProtectedNodes(indexedJob(docs), c, nodeControl?.protectedNodes ?? []);
  const objects = kubeObjects(c, docs, facts, dir, namespace);
  const plan = volumePlan(objects, namespace, c.volumes);
  await createNamespace(target, namespace, podSecurityLabels(docs));
  await prepareVolumes(target, plan);
  const day2: Day2Connection = { kubeconfig: target.kubeconfig, context: target.context, namespace, manifests: writeDocs(path.join(dir, 'objects.yaml'), objects) };
  // As a user checks the output once the namespace is there, before kubectl apply.
  const beforeApply = c.day2?.beforeApply ? await runDay2Steps(c.day2.beforeApply, day2) : { problems: [], results: [] };
  const run = new KubeRun(target, {
    namespace,
    objects,
    job: facts.name,
    runner: facts.runner,
    logs: path.join(dir, 'logs'),
    timeout,
    evict: c.faults?.evict,
    crash: c.faults?.crash,
    faultsAfterBringUp: c.faults !== undefined && c.faults.afterBringUp !== false,
    nodes: c.faults?.nodes,
    nodeControl,
    viewScript: indexedJob(docs).metadata?.annotations?.[FLUX_VIEW_ANNOTATION],
    grow: c.kube?.grow,
    kueue: c.kueue ? { plan: c.kueue, queue: queueNameOf(indexedJob(docs)) ?? 'e2e-queue' } : undefined,
  });
  return {
    run,
    notes: [fitted, keptOff].filter((n): n is string => !!n),
    day2,
    beforeApply,
    cleanup: async () => {
      const gone = await deleteNamespaceTimed(target, namespace);
      await deleteVolumes(target, plan);
      await run.kueue?.cleanup();
      return gone;
    },
  };
}

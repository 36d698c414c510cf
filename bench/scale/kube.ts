/**
 * `npm run bench:scale -- --kubeconfig FILE [--context NAME]`: the scale benchmark on a real
 * cluster. The e2e scale cluster (hello world, `flux run -N<N> hostname`) at each SCALE_CASES
 * size and view source, SCALE_RUNS times, each run in a new namespace with its certificate Secret
 * made beforehand. CPU requests are scaled down when the pods cannot all fit the largest node (said
 * in the output). Measured: seconds from apply to every broker up (the lead's log through the
 * day-2 `flux` command, else the pods' Ready times) and to the Job's success. Each run is paired with
 * a run of the floor (bench/floor.ts: a bare Indexed Job of as many pods running `true`, apply to
 * Complete), the two in alternating order, and both figures are also printed over it (x floor).
 */
import * as path from 'path';
import { FluxViewSource } from '../../lib';
import { FLUX_VIEW_ANNOTATION } from '../../lib/core/day2-contract';
import { scaleCluster } from '../../e2e/cases/scale';
import { certificateSecret } from '../../e2e/certificate';
import { cpuMillis, fitCpuRequests } from '../../e2e/kube/fit';
import { createNamespace, deleteNamespace, moveToNamespace, podSecurityLabels } from '../../e2e/kube/namespace';
import { KubeRun } from '../../e2e/kube/run';
import { KubeTarget, connectTarget } from '../../e2e/kube/target';
import { indexedJob, readDocs } from '../../e2e/manifests';
import { floorInput, measure } from '../bringup/kube';
import { runnerImage } from '../floor';
import { floorCell, xFloorCell } from '../floor-ratio';
import { ScaleCase } from './cases';
import { median } from '../stats';
import { reportKubeTable } from '../kube-table';

interface KubeScaleRun {
  /** Apply to every broker up; null when the run could not date the brokers. */
  readonly brokers: number | null;
  readonly success: number;
}

async function runOnce(target: KubeTarget, size: number, source: FluxViewSource, dir: string, ns: string, allocatable: number): Promise<{ run: KubeScaleRun; fitted?: string }> {
  const docs = readDocs(scaleCluster(dir, size, source));
  const fitted = fitCpuRequests(docs, allocatable);
  const secret = readDocs([certificateSecret(dir, { secret: 'flux-scale-curve', cluster: 'flux-scale', namespace: 'default' })]);
  await createNamespace(target, ns, podSecurityLabels(docs));
  try {
    for (const o of moveToNamespace(secret, ns)) await target.objects.create(o);
    const run = new KubeRun(target, {
      namespace: ns, objects: moveToNamespace(docs, ns), job: 'flux-scale', runner: 'flux-scale', logs: path.join(dir, 'logs', ns), timeout: 900,
      viewScript: indexedJob(docs).metadata?.annotations?.[FLUX_VIEW_ANNOTATION],
    });
    const s = await run.finished();
    if (s.result !== 'Succeeded' || s.apply_to_success_s == null) throw new Error(`${size} pods, ${source}, ${ns}: ${s.result} (${s.reason})`);
    // flux_instance_up_s counts from the first pod; apply came (apply_to_success_s - wall_time_s) before it.
    const offset = s.apply_to_success_s - (s.wall_time_s ?? s.apply_to_success_s);
    return { run: { brokers: s.flux_instance_up_s == null ? null : s.flux_instance_up_s + offset, success: s.apply_to_success_s }, fitted };
  } finally {
    const left = await deleteNamespace(target, ns);
    if (left) throw new Error(left);
  }
}

const f1 = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(1));

export async function kubeScale(kubeconfig: string, context: string | undefined, cases: ScaleCase[], work: string, writeDocs = false): Promise<void> {
  const target = connectTarget(kubeconfig, context);
  const nodes = (await target.core.listNode()).items;
  const allocatable = Math.max(0, ...nodes.map((n) => cpuMillis(n.status?.allocatable?.cpu) ?? 0));
  const rows: string[] = [];
  for (const { size, source, runs } of cases) {
    const dir = path.join(work, `kube-${size}-${source}`);
    const floor = floorInput(size, runnerImage(readDocs(scaleCluster(dir, size, source))));
    const got: KubeScaleRun[] = [];
    /** The floor's apply -> Complete of each run. */
    const floors: number[] = [];
    let note: string | undefined;
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so a drift in the cluster's load hits both alike.
      for (const which of i % 2 ? ['floor', 'cluster'] : ['cluster', 'floor']) {
        if (which === 'floor') {
          // Polled as often as the cluster's run (KubeRun's default), so both are timed alike.
          const ns = `scale-${size}-${source}-floor-${i}`;
          floors.push(await measure(target, floor, ns, path.join(dir, 'logs', ns), 900, 500));
          continue;
        }
        const { run, fitted } = await runOnce(target, size, source, dir, `scale-${size}-${source}-${i}`, allocatable);
        note = fitted;
        got.push(run);
      }
      const run = got[i];
      console.log(`${size} pods, ${source}, run ${i + 1}: brokers up ${f1(run.brokers)} s, Job success ${f1(run.success)} s, floor ${f1(floors[i])} s (from apply)${note ? `; ${note}` : ''}`);
    }
    const up = got.map((r) => r.brokers).filter((b): b is number => b !== null);
    rows.push(`| ${size} | ${source} | ${got.map((r) => f1(r.brokers)).join(', ')} | ${up.length ? f1(median(up)) : 'n/a'} | ${got.map((r) => f1(r.success)).join(', ')} | ${f1(median(got.map((r) => r.success)))} `
      + `| ${floorCell(floors, 1)} | ${xFloorCell(got.map((r) => r.brokers), floors)} | ${xFloorCell(got.map((r) => r.success), floors)} | ${note ?? ''} |`);
  }
  await reportKubeTable(target, {
    id: 'scale-kube',
    heading: `, ${nodes.length} node(s)`,
    about: `${cases.map((c) => `${c.runs} run${c.runs > 1 ? 's' : ''} at ${c.size} pods`).join(', ')}; seconds from apply. floor: a bare Indexed Job of as many pods running \`true\` `
      + '(bench/floor.ts), apply to Complete; x floor: the median of the per-run ratios of the figure to the floor run beside it.',
    columns: ['pods', 'view', 'every broker up (runs)', 'median', 'Job success (runs)', 'median', 'floor (s)', 'x floor (every broker up)', 'x floor (Job success)', 'note'],
    align: 'rllrlrrrrl',
    rows,
    command: `SCALE_CASES=${cases.map((c) => `${c.size}:${c.source}:${c.runs}`).join(',')} npm run bench:scale -- --kubeconfig FILE --write-docs`,
  }, writeDocs);
}

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
import { FLUX_VIEW_ANNOTATION } from '../../lib/core/day2-contract';
import { HANDSHAKE_CONTAINER } from '../../lib/core/handshake-contract';
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
import { ScaleCase, scaleCaseName } from './cases';
import { median } from '../stats';
import { reportKubeTable } from '../kube-table';
import { PhaseTimes, phaseCells, phases } from '../bringup/phases';
import { ContainerUsage, ContainerUsageSampler } from './container-usage';
import { FLUX_PHASE_COLUMNS, FluxDurations, fluxDurations, fluxPhaseCells } from './flux-phases';

interface KubeScaleRun {
  /** Apply to every broker up; null when the run could not date the brokers. */
  readonly brokers: number | null;
  readonly success: number;
  /** When the last pod ended each phase, from the first pod's creation (the API's times, 1 s resolution). */
  readonly phases?: PhaseTimes;
  /** Flux's own phases, from the lead broker's log. */
  readonly flux: FluxDurations;
  /** The handshake sidecar per pod, from the kubelets' stats. */
  readonly sidecar: ContainerUsage;
}

/** The phases a real cluster dates: it shows the Flux container's start, not the broker process's. */
const KUBE_PHASES: Array<keyof PhaseTimes> = ['lastPod', 'init', 'mainStart', 'connected', 'mainEnd', 'success'];

async function runOnce(target: KubeTarget, c: ScaleCase, dir: string, ns: string, allocatable: number, nodes: string[]): Promise<{ run: KubeScaleRun; fitted?: string }> {
  const { size, source } = c;
  const docs = readDocs(scaleCluster(dir, size, source, undefined, c.sidecar));
  const fitted = fitCpuRequests(docs, allocatable);
  const secret = readDocs([certificateSecret(dir, { secret: 'flux-scale-curve', cluster: 'flux-scale', namespace: 'default' })]);
  await createNamespace(target, ns, podSecurityLabels(docs));
  try {
    for (const o of moveToNamespace(secret, ns)) await target.objects.create(o);
    const run = new KubeRun(target, {
      namespace: ns, objects: moveToNamespace(docs, ns), job: 'flux-scale', runner: 'flux-scale', logs: path.join(dir, 'logs', ns), timeout: 900,
      viewScript: indexedJob(docs).metadata?.annotations?.[FLUX_VIEW_ANNOTATION],
    });
    // Where the runner runs the handshake there is nothing to sample: the kubelets' stats summary
    // (every pod's stats, every 3 s) would only load the node being measured.
    const sampler = hasSidecar(docs) ? new ContainerUsageSampler(target, nodes, ns, HANDSHAKE_CONTAINER) : undefined;
    let s: Awaited<ReturnType<KubeRun['finished']>>;
    let sidecar: ContainerUsage;
    try {
      s = await run.finished();
    } finally {
      sidecar = (await sampler?.stop()) ?? { pods: 0, peakMiB: null, maxPeakMiB: null, cpuSeconds: null };
    }
    if (s.result !== 'Succeeded' || s.apply_to_success_s == null) throw new Error(`${size} pods, ${source}, ${ns}: ${s.result} (${s.reason})`);
    // flux_instance_up_s counts from the first pod; apply came (apply_to_success_s - wall_time_s) before it.
    const offset = s.apply_to_success_s - (s.wall_time_s ?? s.apply_to_success_s);
    return { run: { brokers: s.flux_instance_up_s == null ? null : s.flux_instance_up_s + offset, success: s.apply_to_success_s, phases: phases(s), flux: fluxDurations(s), sidecar }, fitted };
  } finally {
    const left = await deleteNamespace(target, ns);
    if (left) throw new Error(left);
  }
}

/** Whether the pods run the handshake in a sidecar (else the runner runs it: nothing to sample). */
function hasSidecar(docs: any[]): boolean {
  return (indexedJob(docs).spec.template.spec.initContainers ?? []).some((x: any) => x.name === HANDSHAKE_CONTAINER);
}

const f1 = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(1));
const f2 = (x: number | null): string => (x === null ? 'n/a' : x.toFixed(2));

export async function kubeScale(kubeconfig: string, context: string | undefined, cases: ScaleCase[], work: string, writeDocs = false): Promise<void> {
  const target = connectTarget(kubeconfig, context);
  const nodes = (await target.core.listNode()).items;
  const allocatable = Math.max(0, ...nodes.map((n) => cpuMillis(n.status?.allocatable?.cpu) ?? 0));
  const schedulable = nodes.filter((n) => !n.spec?.unschedulable).map((n) => n.metadata!.name!);
  const command = `SCALE_CASES=${cases.map((c) => `${c.size}:${c.source}:${c.runs}${c.sidecar ? ':sidecar' : ''}`).join(',')} npm run bench:scale -- --kubeconfig FILE --write-docs`;
  const rows: string[] = [];
  const phaseRows: string[] = [];
  const fluxRows: string[] = [];
  for (const c of cases) {
    const { size, runs } = c;
    const source = scaleCaseName(c);
    const dir = path.join(work, `kube-${size}-${source}`);
    const docs = readDocs(scaleCluster(dir, size, c.source, undefined, c.sidecar));
    const floor = floorInput(size, runnerImage(docs));
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
        const { run, fitted } = await runOnce(target, c, dir, `scale-${size}-${source}-${i}`, allocatable, schedulable);
        note = fitted;
        got.push(run);
      }
      const run = got[i];
      console.log(`${size} pods, ${source}, run ${i + 1}: brokers up ${f1(run.brokers)} s, Job success ${f1(run.success)} s, floor ${f1(floors[i])} s (from apply); `
        + `handshake sidecar per pod: peak working set ${f1(run.sidecar.peakMiB)} MiB (largest ${f1(run.sidecar.maxPeakMiB)}), CPU ${f2(run.sidecar.cpuSeconds)} s, ${run.sidecar.pods} pods sampled${note ? `; ${note}` : ''}`);
    }
    const up = got.map((r) => r.brokers).filter((b): b is number => b !== null);
    rows.push(`| ${size} | ${source} | ${got.map((r) => f1(r.brokers)).join(', ')} | ${up.length ? f1(median(up)) : 'n/a'} | ${got.map((r) => f1(r.success)).join(', ')} | ${f1(median(got.map((r) => r.success)))} `
      + `| ${floorCell(floors, 1)} | ${xFloorCell(got.map((r) => r.brokers), floors)} | ${xFloorCell(got.map((r) => r.success), floors)} | ${note ?? ''} |`);
    const ps = got.map((r) => r.phases).filter((p): p is PhaseTimes => p !== undefined);
    const sc = (pick: (u: ContainerUsage) => number | null, fmt: (x: number | null) => string): string => {
      const v = got.map((r) => pick(r.sidecar)).filter((x): x is number => x !== null);
      return v.length ? fmt(median(v)) : 'n/a';
    };
    const usage = hasSidecar(docs) ? `${sc((u) => u.peakMiB, f1)} (${sc((u) => u.maxPeakMiB, f1)}) | ${sc((u) => u.cpuSeconds, f2)}` : '– (in the runner) | –';
    phaseRows.push(`| ${size} | ${source} | ${phaseCells(ps, 1, KUBE_PHASES)} | ${f1(median(floors))} | ${usage} |`);
    fluxRows.push(`| ${size} | ${source} | ${fluxPhaseCells(got.map((r) => r.flux))} |`);
  }
  await reportKubeTable(target, {
    id: 'scale-kube',
    heading: `, ${nodes.length} node(s)`,
    about: `${cases.map((c) => `${c.runs} run${c.runs > 1 ? 's' : ''} at ${c.size} pods`).join(', ')}; seconds from apply. floor: a bare Indexed Job of as many pods running \`true\` `
      + '(bench/floor.ts), apply to Complete; x floor: the median of the per-run ratios of the figure to the floor run beside it.',
    columns: ['pods', 'view', 'every broker up (runs)', 'median', 'Job success (runs)', 'median', 'floor (s)', 'x floor (every broker up)', 'x floor (Job success)', 'note'],
    align: 'rllrlrrrrl',
    rows,
    command,
  }, writeDocs);
  await reportKubeTable(target, {
    id: 'scale-kube-phases',
    heading: ': where the time goes',
    about: 'medians over the runs above; seconds from the first pod\'s creation until the last pod ended each phase (container times from the API, 1 s resolution; '
      + 'every broker connected from the lead\'s log); the floor\'s whole run (apply to Complete) beside them; the handshake sidecar\'s memory and CPU from the '
      + 'kubelets\' stats summary, sampled every 3 s (median over the pods of each pod\'s peak, then over the runs).',
    columns: ['pods', 'view', 'last pod created', 'init containers done', 'Flux container started', 'every broker connected', 'Flux container ended', 'Job success', 'floor (s)',
      'handshake sidecar: peak working set per pod, MiB (largest pod)', 'its CPU per pod (s)'],
    align: 'rlrrrrrrrrr',
    rows: phaseRows,
    command,
  }, writeDocs);
  await reportKubeTable(target, {
    id: 'scale-kube-flux',
    heading: ': Flux\'s phases on the lead',
    about: 'medians over the runs above; seconds the lead broker spent in each phase, from the changes of state it logs (`flux dmesg`, its own clock), '
      + 'and from its rc3\'s end to the Job\'s success (the runner\'s poll of the Job, every 0.5 s).',
    columns: ['pods', 'view', ...FLUX_PHASE_COLUMNS],
    align: 'rlrrrrrr',
    rows: fluxRows,
    command,
  }, writeDocs);
}

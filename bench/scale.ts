/**
 * Scale benchmark: `npm run bench:scale`. The e2e scale cluster (hello world: `flux run -N<N>
 * hostname`, e2e/cases/scale.ts) run with real Flux in the pod emulator at several sizes, with the
 * view as an image volume and with the default copy to disk. For each run: first pod -> every broker
 * connected, first pod -> Job success, whether every broker connected on its first try, the peak RSS
 * of one broker and of one handshake sidecar, and where the time goes (the last pod of each phase).
 * Each run is paired with a run of the floor (bench/floor.ts: a bare Indexed Job of as many pods
 * running `true`), the two in alternating order; each figure is also printed over the floor (x
 * floor: the median of the per-run ratios).
 * Needs what `npm run e2e` needs (root, podemu, FLUX_PREFIX). SCALE_RUNS sets the runs (default 3),
 * SCALE_CASES the cases as size:source[:runs] entries (default 16:image-volume,16:copy-to-disk,
 * 64:image-volume,64:copy-to-disk,128:image-volume).
 * With `-- --kubeconfig FILE [--context NAME]` it runs on that cluster instead (scale/kube.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { FluxViewSource } from '../lib';
import { scaleCluster } from '../e2e/cases/scale';
import { certificateSecret } from '../e2e/certificate';
import { readDocs } from '../e2e/manifests';
import { Engines, PodemuRun, Summary, findEngines } from '../e2e/podemu';
import { RssSampler } from './bringup/rss';
import { kubeScale } from './scale/kube';
import { phaseCells, phases } from './bringup/phases';
import { runnerImage } from './floor';
import { floorFile, podemuFloor } from './floor-podemu';
import { floorCell, xFloorCell } from './floor-ratio';
import { parseScaleCase, scaleCaseName } from './scale/cases';
import { median } from './stats';
import { printTable } from './table';

const WORK = process.env.SCALE_DIR ?? '/tmp/cdk8s-minicluster-scale';
const RUNS = Number(process.env.SCALE_RUNS ?? 3);
const CASES = (process.env.SCALE_CASES ?? '16:image-volume,16:copy-to-disk,64:image-volume,64:copy-to-disk,128:image-volume')
  .split(',').map((c) => parseScaleCase(c, RUNS));

interface Row {
  /** null when podemu's broker monitor did not see every connection (see sampleGap). */
  readonly brokers: number | null;
  /** podemu's largest spacing of its broker samples (s): under load it can miss a connection. */
  readonly sampleGap: number;
  readonly success: number;
  /** Of the connections podemu saw, the share that was a broker's first and only one; null when it saw none. */
  readonly firstTry: number | null;
  readonly brokerRssMiB: number;
  readonly sidecarRssMiB: number;
  readonly summary: Summary;
}

/** A case's cluster, synthesized once for its runs, and its certificate Secret. */
interface Prepared {
  readonly dir: string;
  readonly manifests: string[];
  readonly secret: string;
}

function prepare(size: number, source: FluxViewSource, sidecar = false): Prepared {
  const dir = path.join(WORK, `${size}-${scaleCaseName({ source, sidecar })}`);
  // A fresh directory for the case; its runs keep their logs side by side in it.
  fs.rmSync(dir, { recursive: true, force: true });
  const manifests = scaleCluster(dir, size, source, undefined, sidecar);
  return { dir, manifests, secret: certificateSecret(dir, { secret: 'flux-scale-curve', cluster: 'flux-scale' }) };
}

async function runOnce(engines: Engines, size: number, source: FluxViewSource, { dir, manifests, secret }: Prepared, run: number): Promise<Row> {
  const logs = path.join(dir, `logs-${run}`);
  const broker = new RssSampler('flux-broker');
  const sidecar = new RssSampler('handshake.js');
  const podemu = new PodemuRun(engines, { manifests, job: 'flux-scale', extraSecrets: [secret], logs, timeout: 900 });
  broker.start();
  sidecar.start();
  let summary: Summary;
  try {
    summary = await podemu.finished();
  } finally {
    broker.stop();
    sidecar.stop();
  }
  // The Job's own check is the hostname of every broker; podemu's connect time can be missing when
  // its sampling of the brokers' sockets falls behind the load (tcp_sample_interval_max_s).
  if (summary.result !== 'Succeeded' || summary.wall_time_s === null) {
    throw new Error(`${size} pods, ${source}: ${summary.result} (${summary.reason}); logs in ${logs}\n${podemu.console}`);
  }
  // Rank 0 has no parent; every other broker should have connected to its parent exactly once.
  // Of the connections podemu saw, the share that was a broker's first and only one.
  const seen = summary.pods.filter((p) => p.index !== 0 && (p.broker?.connects?.length ?? 0) > 0);
  const firstTry = seen.filter((p) => p.broker!.connects!.length === 1).length;
  return {
    brokers: summary.flux_instance_up_s,
    sampleGap: summary.tcp_sample_interval_max_s ?? 0,
    success: summary.wall_time_s,
    firstTry: seen.length ? firstTry / seen.length : null,
    brokerRssMiB: broker.peakKiB / 1024,
    sidecarRssMiB: sidecar.peakKiB / 1024,
    summary,
  };
}

const f1 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(1));

/** In how many runs every connection podemu saw was a first and only one, of the runs where it saw any. */
function firstTryCell(rows: readonly Row[]): string {
  const seen = rows.filter((r) => r.firstTry !== null);
  const unseen = rows.length - seen.length;
  return `${seen.filter((r) => r.firstTry === 1).length} of ${seen.length}${unseen ? ` (${unseen} run${unseen > 1 ? 's' : ''}: no connection seen)` : ''}`;
}

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => argv[argv.indexOf(name) + 1];
  if (argv.includes('--kubeconfig')) {
    await kubeScale(flag('--kubeconfig'), argv.includes('--context') ? flag('--context') : undefined, CASES, WORK, argv.includes('--write-docs'));
    return;
  }
  const engines = findEngines();
  if (engines.missing.length) {
    console.log(`bench:scale skipped: ${engines.missing.join('; ')}`);
    return;
  }
  const table: string[] = [];
  const phaseRows: string[] = [];
  for (const c of CASES) {
    const { size, runs } = c;
    const source = scaleCaseName(c);
    const prepared = prepare(size, c.source, c.sidecar);
    const floor = floorFile(path.join(prepared.dir, 'floor'), size, runnerImage(readDocs(prepared.manifests)));
    const rows: Row[] = [];
    /** The floor's Job success of each run (first pod -> success, as the cluster's). */
    const floors: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so a drift in the machine's load hits both alike.
      for (const which of i % 2 ? ['floor', 'cluster'] : ['cluster', 'floor']) {
        if (which === 'floor') floors.push(await podemuFloor(engines, floor, { logs: path.join(prepared.dir, `logs-floor-${i + 1}`), timeout: 900 }));
        else rows.push(await runOnce(engines, size, c.source, prepared, i + 1));
      }
      const r = rows[i];
      console.log(`${size} pods, ${source}, run ${i + 1}: brokers connected ${f1(r.brokers)} s, Job success ${f1(r.success)} s, `
        + `first-try connects ${r.firstTry === null ? 'not seen' : `${Math.round(r.firstTry * 100)}%`} (of those podemu saw; largest sample gap ${f1(r.sampleGap)} s), `
        + `peak RSS broker ${f1(r.brokerRssMiB)} MiB, sidecar ${f1(r.sidecarRssMiB)} MiB; floor ${f1(floors[i])} s`);
    }
    const all = (k: 'brokers' | 'success') => rows.map((r) => f1(r[k])).join(', ');
    const seen = rows.map((r) => r.brokers).filter((b): b is number => b !== null);
    table.push(`| ${size} | ${source} | ${all('brokers')} | ${seen.length ? f1(median(seen)) : 'n/a'} | ${all('success')} | ${f1(median(rows.map((r) => r.success)))} `
      + `| ${floorCell(floors, 1)} | ${xFloorCell(rows.map((r) => r.brokers), floors)} | ${xFloorCell(rows.map((r) => r.success), floors)} `
      + `| ${firstTryCell(rows)} | ${f1(Math.max(...rows.map((r) => r.brokerRssMiB)))} | ${f1(Math.max(...rows.map((r) => r.sidecarRssMiB)))} |`);
    const ps = rows.map((r) => phases(r.summary)).filter((p): p is NonNullable<typeof p> => p !== undefined);
    phaseRows.push(`| ${size} | ${source} | ${phaseCells(ps, 1)} |`);
  }
  console.log(`\n${CASES.map((c) => c.runs).join(', ')} runs; seconds from the first pod's start; RSS is VmHWM, the largest of any one process. floor: a bare Indexed Job of as many pods `
    + 'running `true` (bench/floor.ts), its Job success; x floor: the median of the per-run ratios of the figure to the floor run beside it.\n');
  printTable(['pods', 'view', 'brokers connected (runs)', 'median', 'Job success (runs)', 'median', 'floor (s)', 'x floor (brokers connected)', 'x floor (Job success)',
    'every broker connected on its first try', 'peak RSS, one broker (MiB)', 'peak RSS, one sidecar (MiB)'], 'rllrlrrrrlrr', table);
  console.log('\nWhere the time goes (medians; seconds from the first pod\'s start until the last pod ended each phase):\n');
  printTable(['pods', 'view', 'last pod created', 'init containers done', 'Flux container started', 'broker started', 'brokers connected', 'Job success'], 'rlrrrrrr', phaseRows);
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

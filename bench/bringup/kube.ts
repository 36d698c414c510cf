/**
 * `npm run bench:bringup -- --kubeconfig FILE [--context NAME]`: the bring-up benchmark on a real
 * cluster. Hello world (`flux resource list; flux run -N<N> hostname`) as the naive operator-style
 * Job (podemu's testdata/fluxtest.yaml, resized) and as this library's MiniCluster (view copied to
 * disk, the default; and the view as an image volume), alternating in rotating order, each run in
 * a new namespace with its certificate Secret made beforehand (untimed). Measured: seconds from the
 * objects' creation (`kubectl apply`) to the Job's success; printed: medians, and the medians of
 * the per-round ratios to the naive Job and to the floor (bench/floor.ts: a bare Indexed Job of N
 * pods running `true`, one more Job of each round). BRINGUP_RUNS rounds (default 5), BRINGUP_SIZES (4,16).
 * Slow DNS cannot be made on a real cluster: those scenarios run in the emulator only.
 */
import * as path from 'path';
import { CertificateSource, FluxViewSource, MiniCluster } from '../../lib';
import { App, Chart } from 'cdk8s';
import { certificateSecret } from '../../e2e/certificate';
import { createNamespace, deleteNamespace, moveToNamespace } from '../../e2e/kube/namespace';
import { KubeRun } from '../../e2e/kube/run';
import { KubeTarget, connectTarget } from '../../e2e/kube/target';
import { readDocs } from '../../e2e/manifests';
import { floorJob, runnerImage } from '../floor';
import { floorCell, xFloorCell } from '../floor-ratio';
import { median } from '../stats';
import { naiveDocs, naiveSecretFile } from './naive';
import { reportKubeTable } from '../kube-table';

const JOBS = ['naive', 'library', 'library, image volume', 'floor'] as const;
type JobKind = typeof JOBS[number];

export interface KubeJob {
  readonly job: string;
  /** Created before the timer starts: the certificate Secret. */
  readonly before: any[];
  readonly objects: any[];
}

function library(dir: string, n: number, source: FluxViewSource): KubeJob {
  const app = new App({ outdir: dir });
  new MiniCluster(new Chart(app, 'bringup', { namespace: 'default' }), 'fluxlib', {
    size: n,
    logging: { quiet: true },
    kubernetesVersion: source === FluxViewSource.IMAGE_VOLUME ? '1.35' : undefined,
    flux: source === FluxViewSource.COPY_TO_DISK ? undefined : { container: { source } },
    // Made beforehand, as for the naive Job: the timed part is the cluster's own bring-up.
    certificate: CertificateSource.fromExistingSecret('fluxlib-curve'),
    containers: [{ image: 'ubuntu:noble', launcher: true, command: `sh -c 'flux resource list; flux run -N${n} hostname'` }],
  });
  app.synth();
  return { job: 'fluxlib', before: readDocs([certificateSecret(dir, { secret: 'fluxlib-curve', cluster: 'fluxlib', namespace: 'default' })]), objects: readDocs([path.join(dir, 'bringup.k8s.yaml')]) };
}

function naive(n: number, testdata: string): KubeJob {
  return { job: 'fluxtest', before: readDocs([naiveSecretFile(testdata)]), objects: naiveDocs(testdata, n) };
}

/** The floor (bench/floor.ts) of `n` pods in `image`: nothing made beforehand. Also bench:scale's. */
export function floorInput(n: number, image: string): KubeJob {
  return { job: 'floor', before: [], objects: [floorJob('floor', 'default', n, image)] };
}

/**
 * One timed run in namespace `ns`: seconds from apply to the Job's success. Also bench:scale's
 * floor (scale/kube.ts), with its timeout and polling.
 */
export async function measure(target: KubeTarget, input: KubeJob, ns: string, logs: string, timeout = 300, pollMs = 200): Promise<number> {
  await createNamespace(target, ns, {});
  try {
    for (const o of moveToNamespace(input.before, ns)) await target.objects.create(o);
    const run = new KubeRun(target, { namespace: ns, objects: moveToNamespace(input.objects, ns), job: input.job, runner: '', logs, timeout, pollMs });
    const s = await run.finished();
    if (s.result !== 'Succeeded' || s.apply_to_success_s == null) throw new Error(`${input.job} in ${ns}: ${s.result} (${s.reason}); logs in ${logs}`);
    return s.apply_to_success_s;
  } finally {
    const left = await deleteNamespace(target, ns);
    if (left) throw new Error(left);
  }
}

const f2 = (x: number) => x.toFixed(2);

export async function kubeBringup(kubeconfig: string, context: string | undefined, podemu: string | undefined, work: string, writeDocs = false): Promise<void> {
  const target = connectTarget(kubeconfig, context);
  if (!podemu) throw new Error('the naive Job is podemu\'s testdata/fluxtest.yaml: put ../shared/tools/podemu beside the checkout or set PODEMU');
  const runs = Number(process.env.BRINGUP_RUNS ?? 5);
  const sizes = (process.env.BRINGUP_SIZES ?? '4,16').split(',').map(Number);
  const rows: string[] = [];
  for (const n of sizes) {
    const lib = library(path.join(work, `kube-lib-${n}`), n, FluxViewSource.COPY_TO_DISK);
    const inputs: Record<JobKind, KubeJob> = {
      'naive': naive(n, path.join(path.dirname(podemu), 'testdata')),
      'library': lib,
      'library, image volume': library(path.join(work, `kube-lib-image-${n}`), n, FluxViewSource.IMAGE_VOLUME),
      'floor': floorInput(n, runnerImage(lib.objects)),
    };
    const rounds: Array<Record<JobKind, number>> = [];
    for (let i = 0; i < runs; i++) {
      const order = JOBS.map((_, k) => JOBS[(k + i) % JOBS.length]);
      const got: Partial<Record<JobKind, number>> = {};
      for (const which of order) got[which] = await measure(target, inputs[which], `bringup-${n}-${which.replace(/[^a-z]+/g, '-')}-${i}`.replace(/-+/g, '-'), path.join(work, `kube-logs-${n}-${i}`));
      const round = got as Record<JobKind, number>;
      rounds.push(round);
      console.log(`N=${n} run ${i + 1}: ${JOBS.map((j) => `${j} ${f2(round[j])} s`).join(', ')} (apply -> Job success)`);
    }
    for (const which of JOBS) {
      const ratio = which === 'naive' ? '1.00' : f2(median(rounds.map((r) => r[which] / r.naive)));
      const floors = rounds.map((r) => r.floor);
      rows.push(`| ${n} | ${which} | ${f2(median(rounds.map((r) => r[which])))} | ${rounds.map((r) => f2(r[which])).join(', ')} | ${ratio} | ${floorCell(floors, 2)} | ${xFloorCell(rounds.map((r) => r[which]), floors)} |`);
    }
  }
  await reportKubeTable(target, {
    id: 'bringup-kube',
    heading: '',
    about: `Seconds from apply to Job success, ${runs} rotating rounds; ratio = median of the per-round ratios to the naive Job; `
      + 'floor: a bare Indexed Job of N pods running `true` (bench/floor.ts), x floor = median of the per-round ratios to it.',
    columns: ['N', 'Job', 'median (s)', 'each round (s)', 'ratio to naive', 'floor (s)', 'x floor'],
    align: 'rlrlrrr',
    rows,
    command: `BRINGUP_RUNS=${runs} BRINGUP_SIZES=${sizes.join(',')} npm run bench:bringup -- --kubeconfig FILE --write-docs`,
  }, writeDocs);
}

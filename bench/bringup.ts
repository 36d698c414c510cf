/**
 * Bring-up benchmark: `npm run bench:bringup`. A MiniCluster of this library against podemu's
 * naive operator-style Job (../shared/tools/podemu/testdata/fluxtest.yaml, resized), both run with
 * real Flux in the pod emulator, alternating, in the same run: at N = 4 and 16 pods, with healthy
 * DNS and with slow DNS (records 10 s late, 30 s negative cache), pods 1 s apart and all at once.
 *
 * The library runs three times, with its defaults (the view copied to disk), with the view copied
 * into memory and with the view as an image volume (flux.container.source). All run the same initial program (`flux resource list; flux run -N<N>
 * hostname`) from the same flux-view and ubuntu images. Prints medians of the per-round ratios to
 * the naive Job (first pod -> every broker connected, first pod -> Job success), where the time
 * goes, and a sidecar's peak RSS. With slow DNS it also prints each Job's success counted from the
 * last pod's creation (with pods 1 s apart, the stagger alone puts it (N-1) s late), and each
 * library variant's slow-DNS time over its own healthy-DNS time (when both scenarios ran).
 * Each round also runs the floor (bench/floor.ts: a bare Indexed Job of N pods running `true`, under
 * the same scenario) and prints each library figure over it (x floor: the median of the per-round
 * ratios), beside the ratio to the naive Job.
 * With `-- --kubeconfig FILE [--context NAME]` it runs on that cluster instead (bringup/kube.ts).
 * Needs what `npm run e2e` needs (root, podemu, FLUX_PREFIX). BRINGUP_RUNS sets the rounds (default 3),
 * BRINGUP_SIZES the pod counts (default 4,16), BRINGUP_SCENARIOS which scenarios (indexes into
 * SCENARIOS, default all), so that a long benchmark can run in parts. The image volume's content is
 * prepared by an untimed run before the timed ones (bringup/image-root.ts); BRINGUP_IMAGE_ROOT=podemu
 * leaves it to podemu, which builds it when the first pod mounts it, inside the measured time.
 */
import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';
import { FluxViewSource } from '../lib';
import { synthCluster } from '../e2e/cases/synth';
import { certificateSecret } from '../e2e/certificate';
import { readDocs } from '../e2e/manifests';
import { Engines, PodemuRun, Summary, findEngines } from '../e2e/podemu';
import { JobInput, prepareImageRoots } from './bringup/image-root';
import { kubeBringup } from './bringup/kube';
import { naiveDocs, naiveSecretFile } from './bringup/naive';
import { RssSampler } from './bringup/rss';
import { phaseCells, phases, PhaseTimes } from './bringup/phases';
import { runnerImage } from './floor';
import { floorFile, podemuFloor } from './floor-podemu';
import { floorCell, xFloorCell } from './floor-ratio';
import { median } from './stats';
import { printTable } from './table';

const WORK = process.env.BRINGUP_DIR ?? '/tmp/cdk8s-minicluster-bringup';
const RUNS = Number(process.env.BRINGUP_RUNS ?? 3);
const SIZES = (process.env.BRINGUP_SIZES ?? '4,16').split(',').map(Number);
const SCENARIO_PICK = process.env.BRINGUP_SCENARIOS?.split(',').map(Number);
/** `prepared` (default): the image volume's content is built before the timed runs (bringup/image-root.ts); `podemu`: by podemu, at the first pod. */
const IMAGE_ROOT = process.env.BRINGUP_IMAGE_ROOT ?? 'prepared';

interface Scenario {
  readonly name: string;
  readonly dnsDelay?: number;
  readonly negTtl?: number;
  readonly stagger?: number;
}
const SCENARIOS: Scenario[] = [
  { name: 'healthy DNS' },
  { name: 'slow DNS (--dns-delay 10 --neg-ttl 30 --stagger 1)', dnsDelay: 10, negTtl: 30, stagger: 1 },
  // The same DNS with every pod at once: the stagger alone puts the last pod (N-1) s late, a floor
  // under the library's time that no handshake can lower.
  { name: 'slow DNS, pods together (--dns-delay 10 --neg-ttl 30)', dnsDelay: 10, negTtl: 30 },
];

/** One run's measurements, seconds from the first pod's start. */
interface Measure {
  readonly brokers: number;
  readonly success: number;
  /** Job success counted from the last pod's creation. */
  readonly afterLastPod: number;
  readonly phases?: PhaseTimes;
}

/** The Jobs of one round, in the order of the first round (later rounds rotate it). */
const JOBS = ['library', 'library, view in memory', 'library, image volume', 'naive'] as const;
type JobKind = typeof JOBS[number];
const LIBRARY_JOBS = ['library', 'library, view in memory', 'library, image volume'] as const;
/** What one round runs, in rotating order: the Jobs and the floor (bench/floor.ts). */
const ROUND = [...JOBS, 'floor'] as const;
/** Each Job's directory under WORK: its manifests in `<dir>-<N>`, its last run's logs in `logs-<dir>`. */
const JOB_DIRS: Record<JobKind, string> = { 'library': 'lib', 'library, view in memory': 'lib-memory', 'library, image volume': 'lib-image', 'naive': 'naive' };

/** The library's side: a MiniCluster running the naive Job's initial program as its own. */
function libraryManifests(dir: string, n: number, source: FluxViewSource): JobInput {
  const manifests = synthCluster('bringup', 'default', 'fluxlib', {
    size: n,
    logging: { quiet: true },
    // Image volumes are on by default from Kubernetes 1.35.
    kubernetesVersion: source === FluxViewSource.IMAGE_VOLUME ? '1.35' : undefined,
    flux: source === FluxViewSource.COPY_TO_DISK ? undefined : { container: { source } },
    containers: [{ image: 'ubuntu:noble', launcher: true, command: `sh -c 'flux resource list; flux run -N${n} hostname'` }],
  })(dir);
  return { manifests, secrets: [certificateSecret(dir, { secret: 'fluxlib-curve', cluster: 'fluxlib' })], job: 'fluxlib' };
}

/** podemu's naive Job, resized from 4 to n pods, as a file. */
function naiveManifests(dir: string, n: number, podemu: string): JobInput {
  const testdata = path.join(path.dirname(podemu), 'testdata');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'naive.yaml');
  fs.writeFileSync(file, naiveDocs(testdata, n).map((d) => stringify(d)).join('---\n'));
  return { manifests: [file], secrets: [naiveSecretFile(testdata)], job: 'fluxtest' };
}

async function measure(engines: Engines, input: JobInput, s: Scenario, logs: string, rss?: RssSampler, imageRoots?: Record<string, string>): Promise<Measure> {
  fs.rmSync(logs, { recursive: true, force: true });
  const run = new PodemuRun(engines, {
    manifests: input.manifests, job: input.job, extraSecrets: input.secrets, logs, timeout: 300,
    dnsDelay: s.dnsDelay, negTtl: s.negTtl, stagger: s.stagger, imageRoots,
  });
  rss?.start();
  let summary: Summary;
  try {
    summary = await run.finished();
  } finally {
    rss?.stop();
  }
  if (summary.result !== 'Succeeded' || summary.wall_time_s === null || summary.flux_instance_up_s === null) {
    throw new Error(`${input.job}: ${summary.result} (${summary.reason}); logs in ${logs}\n${run.console}`);
  }
  const p = phases(summary);
  return { brokers: summary.flux_instance_up_s, success: summary.wall_time_s, afterLastPod: summary.wall_time_s - (p?.lastPod ?? 0), phases: p };
}

const f2 = (x: number) => x.toFixed(2);

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => argv[argv.indexOf(name) + 1];
  if (argv.includes('--kubeconfig')) {
    await kubeBringup(flag('--kubeconfig'), argv.includes('--context') ? flag('--context') : undefined, findEngines().podemu, WORK, argv.includes('--write-docs'));
    return;
  }
  const engines = findEngines();
  if (engines.missing.length) {
    console.log(`bench:bringup skipped: ${engines.missing.join('; ')}`);
    return;
  }
  if (IMAGE_ROOT !== 'prepared' && IMAGE_ROOT !== 'podemu') throw new Error(`BRINGUP_IMAGE_ROOT must be prepared or podemu, got '${IMAGE_ROOT}'`);
  const rss = new RssSampler('handshake.js');
  /** The image volume's content, prepared once by an untimed run (its Flux install is the same at every size). */
  let imageRoots: Record<string, string> | undefined;
  const rows: string[] = [];
  const phaseRows: string[] = [];
  const lastPodRows: string[] = [];
  const scenarios = SCENARIO_PICK ? SCENARIO_PICK.map((i) => SCENARIOS[i]) : SCENARIOS;
  for (const n of SIZES) {
    const inputs: Record<JobKind, JobInput> = {
      'library': libraryManifests(path.join(WORK, `${JOB_DIRS.library}-${n}`), n, FluxViewSource.COPY_TO_DISK),
      'library, view in memory': libraryManifests(path.join(WORK, `${JOB_DIRS['library, view in memory']}-${n}`), n, FluxViewSource.COPY_TO_MEMORY),
      'library, image volume': libraryManifests(path.join(WORK, `${JOB_DIRS['library, image volume']}-${n}`), n, FluxViewSource.IMAGE_VOLUME),
      'naive': naiveManifests(path.join(WORK, `${JOB_DIRS.naive}-${n}`), n, engines.podemu!),
    };
    const floor = floorFile(path.join(WORK, `floor-${n}`), n, runnerImage(readDocs(inputs.library.manifests)));
    if (IMAGE_ROOT === 'prepared' && !imageRoots) {
      imageRoots = await prepareImageRoots(engines, inputs['library, image volume'], path.join(WORK, 'image-root'));
      console.log(`The image volume's content, built by podemu in an untimed run: ${Object.entries(imageRoots).map(([ref, dir]) => `${ref} -> ${dir}`).join(', ')} (BRINGUP_IMAGE_ROOT=podemu builds it at the first pod instead)`);
    }
    /** Median Job success of each Job under each scenario of this size, for the slow / healthy ratios. */
    const successOf = new Map<string, number>();
    for (const s of scenarios) {
      const rounds: Array<Record<JobKind, Measure>> = [];
      /** The floor's Job success of each round (first pod -> success, as the Jobs'). */
      const floors: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        // Rotate which goes first, so a drift in the machine's load hits all alike.
        const order = ROUND.map((_, k) => ROUND[(k + i) % ROUND.length]);
        const got: Partial<Record<JobKind, Measure>> = {};
        for (const which of order) {
          if (which === 'floor') {
            floors.push(await podemuFloor(engines, floor, { logs: path.join(WORK, 'logs-floor'), timeout: 300, dnsDelay: s.dnsDelay, negTtl: s.negTtl, stagger: s.stagger }));
            continue;
          }
          got[which] = await measure(engines, inputs[which], s, path.join(WORK, `logs-${JOB_DIRS[which]}`), which === 'naive' ? undefined : rss,
            which === 'library, image volume' ? imageRoots : undefined);
        }
        const round = got as Record<JobKind, Measure>;
        rounds.push(round);
        console.log(`N=${n} ${s.name} run ${i + 1}: ${JOBS.map((j) => `${j} ${f2(round[j].brokers)} / ${f2(round[j].success)} s`).join(', ')} (brokers connected / Job success), floor ${f2(floors[i])} s`);
      }
      const med = (which: JobKind, key: 'brokers' | 'success') => median(rounds.map((r) => r[which][key]));
      for (const which of JOBS) successOf.set(`${s.name}/${which}`, med(which, 'success'));
      for (const which of LIBRARY_JOBS) {
        const ratio = (key: 'brokers' | 'success') => median(rounds.map((r) => r[which][key] / r.naive[key]));
        const xFloor = (key: 'brokers' | 'success') => xFloorCell(rounds.map((r) => r[which][key]), floors);
        rows.push(`| ${n} | ${s.name} | ${which} | ${f2(med(which, 'brokers'))} | ${f2(med('naive', 'brokers'))} | ${f2(med(which, 'success'))} | ${f2(med('naive', 'success'))} | ${f2(ratio('brokers'))} | ${f2(ratio('success'))} | ${f2(1 / ratio('success'))} `
          + `| ${floorCell(floors, 2)} | ${xFloor('brokers')} | ${xFloor('success')} |`);
      }
      for (const which of JOBS) {
        const ps = rounds.map((r) => r[which].phases).filter((p): p is PhaseTimes => !!p);
        phaseRows.push(`| ${n} | ${s.name} | ${which} | ${phaseCells(ps, 2)} |`);
      }
      if (s.dnsDelay !== undefined) {
        const healthy = SCENARIOS[0].name;
        for (const which of LIBRARY_JOBS) {
          const after = median(rounds.map((r) => r[which].afterLastPod));
          const naiveOverLib = median(rounds.map((r) => r.naive.success / r[which].success));
          const own = successOf.get(`${healthy}/${which}`);
          const overHealthy = own === undefined ? '(healthy DNS not run)' : f2(med(which, 'success') / own);
          lastPodRows.push(`| ${n} | ${s.name} | ${which} | ${f2(after)} | ${f2(median(rounds.map((r) => r.naive.afterLastPod)))} | ${overHealthy} | ${f2(naiveOverLib)} |`);
        }
      }
    }
  }
  console.log(`\nMedians of ${RUNS} rotating rounds each; seconds from the first pod's start. floor: a bare Indexed Job of N pods running \`true\` (bench/floor.ts), `
    + 'its Job success; x floor: the median of the per-round ratios of the library\'s figure to the floor of the same round.\n');
  printTable(['N', 'DNS', 'library', 'library: brokers connected', 'naive: brokers connected', 'library: Job success', 'naive: Job success', 'library / naive (brokers)', 'library / naive (success)', 'naive / library (success)',
    'floor (s)', 'x floor (brokers)', 'x floor (success)'], 'rllrrrrrrrrrr', rows);
  console.log('\nWhere the time goes (medians, seconds from the first pod\'s start, the last pod of each phase):\n');
  printTable(['N', 'DNS', 'Job', 'last pod created', 'init containers done', 'Flux container started', 'broker started', 'brokers connected', 'Job success'], 'rllrrrrrr', phaseRows);
  if (lastPodRows.length) {
    console.log('\nSlow DNS: Job success counted from the last pod\'s creation (medians), and against the same Job with healthy DNS:\n');
    printTable(['N', 'DNS', 'library', 'library: success after the last pod', 'naive: success after the last pod', 'library: slow / healthy DNS (success)', 'naive / library (success)'], 'rllrrrr', lastPodRows);
  }
  console.log(`\nPeak RSS of one handshake sidecar (VmHWM, largest over all library runs): ${(rss.peakKiB / 1024).toFixed(1)} MiB`);
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

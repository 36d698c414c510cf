/**
 * `npm run bench:shape -- --kubeconfig FILE [--context NAME] [--write-docs]`: what a MiniCluster's
 * pod costs a real cluster before Flux does anything (issue 37). In rotating rounds, at each
 * SHAPE_SIZES size (default 64), SHAPE_RUNS rounds (default 3), apply to `Complete` of:
 * - the floor (bench/floor.ts): pods running `true`;
 * - the gang floor (bench/gang-floor.ts): pods that find pod 0 by DNS name and end together;
 * - the gang floor with the volumes the image-volume MiniCluster's runner mounts (its two image
 *   volumes, their subPath mounts, ConfigMaps, Secret and emptyDirs), and with those but the image
 *   volumes.
 * Each in a new namespace; the table (median, each round, x floor) is written into docs/scale.md
 * with --write-docs. bench:scale measures the MiniCluster itself against the same floor.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FluxViewSource } from '../lib';
import { DEFAULT_NODE_IMAGE } from '../lib/core/images';
import { scaleCluster } from '../e2e/cases/scale';
import { certificateSecret } from '../e2e/certificate';
import { connectTarget } from '../e2e/kube/target';
import { readDocs } from '../e2e/manifests';
import { KubeJob, floorInput, measure } from './bringup/kube';
import { runnerImage } from './floor';
import { floorCell, xFloorCell } from './floor-ratio';
import { GangVolumes, gangFloorObjects, miniClusterVolumes } from './gang-floor';
import { reportKubeTable } from './kube-table';
import { median } from './stats';

const WORK = process.env.SHAPE_DIR ?? '/tmp/cdk8s-minicluster-shape';
const JOBS = ['floor', 'gang', 'gang, the cluster\'s volumes', 'gang, its volumes but no image volume'] as const;
type JobKind = typeof JOBS[number];

function inputs(size: number): Record<JobKind, KubeJob> {
  const dir = path.join(WORK, `${size}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const docs = readDocs(scaleCluster(dir, size, FluxViewSource.IMAGE_VOLUME));
  const secrets = readDocs([certificateSecret(dir, { secret: 'flux-scale-curve', cluster: 'flux-scale', namespace: 'default' })]);
  const gang = (volumes?: GangVolumes): KubeJob =>
    ({ job: 'gang', before: [], objects: gangFloorObjects('gang', 'default', size, DEFAULT_NODE_IMAGE, volumes) });
  return {
    'floor': floorInput(size, runnerImage(docs)),
    'gang': gang(),
    'gang, the cluster\'s volumes': gang(miniClusterVolumes(docs, secrets)),
    'gang, its volumes but no image volume': gang(miniClusterVolumes(docs, secrets, false)),
  };
}

const f2 = (x: number) => x.toFixed(2);

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => argv[argv.indexOf(name) + 1];
  if (!argv.includes('--kubeconfig')) throw new Error('bench:shape runs on a real cluster: npm run bench:shape -- --kubeconfig FILE [--context NAME] [--write-docs]');
  const target = connectTarget(flag('--kubeconfig'), argv.includes('--context') ? flag('--context') : undefined);
  const runs = Number(process.env.SHAPE_RUNS ?? 3);
  const sizes = (process.env.SHAPE_SIZES ?? '64').split(',').map(Number);
  const rows: string[] = [];
  for (const n of sizes) {
    const jobs = inputs(n);
    const rounds: Array<Record<JobKind, number>> = [];
    for (let i = 0; i < runs; i++) {
      // Rotating order, so a drift of the cluster's load hits every Job alike.
      const got: Partial<Record<JobKind, number>> = {};
      for (const which of JOBS.map((_, k) => JOBS[(k + i) % JOBS.length])) {
        const ns = `shape-${n}-${JOBS.indexOf(which)}-${i}`;
        got[which] = await measure(target, jobs[which], ns, path.join(WORK, 'logs', ns), 900, 500);
      }
      const round = got as Record<JobKind, number>;
      rounds.push(round);
      console.log(`N=${n} run ${i + 1}: ${JOBS.map((j) => `${j} ${f2(round[j])} s`).join(', ')} (apply -> Complete)`);
    }
    const floors = rounds.map((r) => r.floor);
    for (const which of JOBS) {
      rows.push(`| ${n} | ${which} | ${f2(median(rounds.map((r) => r[which])))} | ${rounds.map((r) => f2(r[which])).join(', ')} | ${floorCell(floors, 2)} | ${xFloorCell(rounds.map((r) => r[which]), floors)} |`);
    }
  }
  await reportKubeTable(target, {
    id: 'shape-kube',
    heading: ': what the pod\'s shape costs',
    about: `Seconds from apply to Complete, ${runs} rotating rounds; floor: pods running \`true\` (bench/floor.ts); gang: pods that reach pod 0 by DNS name and `
      + 'end together (bench/gang-floor.ts), alone and with the volumes the image-volume MiniCluster\'s runner mounts; x floor = median of the per-round ratios.',
    columns: ['N', 'Job', 'median (s)', 'each round (s)', 'floor (s)', 'x floor'],
    align: 'rlrlrr',
    rows,
    command: `SHAPE_RUNS=${runs} SHAPE_SIZES=${sizes.join(',')} npm run bench:shape -- --kubeconfig FILE --write-docs`,
  }, argv.includes('--write-docs'));
}

main(process.argv.slice(2)).catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

/**
 * Synth benchmark: time and YAML size of a MiniCluster for size 1 to 16384, each beside a plain
 * cdk8s chart holding the same number of objects, measured in the same run. Both must stay flat.
 *
 * Run: npm run bench:synth
 */
import { ApiObject, App, Chart } from 'cdk8s';
import { MiniCluster } from '../lib';

const SIZES = [1, 64, 1024, 16384];
const ROUNDS = 20;

function miniClusterYaml(size: number): string {
  const app = new App({ outdir: '/tmp/cdk8s-minicluster-bench' });
  new MiniCluster(new Chart(app, 'bench'), 'flux-sample', {
    size,
    containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
  });
  return app.synthYaml();
}

/** The baseline: a chart with as many objects (Job, Service, ConfigMap), written by hand. */
function plainChartYaml(objects: number): string {
  const app = new App({ outdir: '/tmp/cdk8s-minicluster-bench' });
  const chart = new Chart(app, 'plain');
  for (let i = 0; i < objects; i++) {
    new ApiObject(chart, `o${i}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `plain-${i}` }, data: { key: 'value' } });
  }
  return app.synthYaml();
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => string): { ms: number; bytes: number } {
  let bytes = 0;
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    bytes = fn().length;
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: median(samples), bytes };
}

export function runSynthBench(): void {
  // Warm up module loading and the JIT on every size, so no row pays for it.
  for (let i = 0; i < 5; i++) for (const size of SIZES) miniClusterYaml(size);
  const objects = miniClusterYaml(1).split(/^---$/m).length;
  const rows: string[][] = [];
  let first: { ms: number; bytes: number } | undefined;
  for (const size of SIZES) {
    const mc = time(() => miniClusterYaml(size));
    const plain = time(() => plainChartYaml(objects));
    first ??= mc;
    rows.push([String(size), mc.ms.toFixed(2), plain.ms.toFixed(2), (mc.ms / plain.ms).toFixed(2),
      (mc.ms / first.ms).toFixed(2), String(mc.bytes), (mc.bytes / first.bytes).toFixed(3)]);
  }
  const header = ['size', 'synth ms (median)', 'plain chart ms', 'ratio to plain', 'time vs size 1', 'YAML bytes', 'bytes vs size 1'];
  console.log(`MiniCluster synth, ${objects} objects, median of ${ROUNDS} rounds, node ${process.version}`);
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

if (require.main === module) runSynthBench();

/**
 * Synth benchmark: time and YAML size of a MiniCluster for size 1 to 16384, each beside a plain
 * cdk8s chart holding the same number of objects, measured in the same run. Both must stay flat.
 * Then the YAML bytes of a chart with 1 and with 10 four-pod clusters in one namespace: the runtime
 * programs are shared, so ten clusters cost far less than ten times one.
 *
 * Run: npm run bench:synth
 */
import { ApiObject, App, Chart, Yaml } from 'cdk8s';
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

const CLUSTER_COUNTS = [1, 10];

/** The documents of a chart with `clusters` four-pod MiniClusters in namespace hpc. */
function clustersChart(clusters: number): any[] {
  const chart = new Chart(new App({ outdir: '/tmp/cdk8s-minicluster-bench' }), 'bench', { namespace: 'hpc' });
  for (let i = 0; i < clusters; i++) {
    new MiniCluster(chart, `flux-${i}`, { size: 4, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] });
  }
  return chart.toJson();
}

export function runChartSizeBench(): void {
  const bytes = (docs: any[]) => Buffer.byteLength(Yaml.stringify(...docs));
  const shared = (d: any) => d.metadata.labels?.['app.kubernetes.io/component'] === 'runtime-program';
  const one = clustersChart(1);
  console.log(`\nChart YAML bytes with N four-pod MiniClusters in one namespace (runtime programs shared: ${bytes(one.filter(shared))} bytes, once)`);
  const header = ['clusters', 'chart YAML bytes', 'bytes vs 1 cluster', "one cluster's own bytes"];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const n of CLUSTER_COUNTS) {
    const docs = clustersChart(n);
    console.log(`| ${n} | ${bytes(docs)} | ${(bytes(docs) / bytes(one)).toFixed(2)} | ${bytes(one.filter((d) => !shared(d)))} |`);
  }
}

if (require.main === module) {
  runSynthBench();
  runChartSizeBench();
}

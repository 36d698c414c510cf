/**
 * Cost of the production options: synth time of a MiniCluster with a content-hashed Job name (which
 * synthesizes the cluster a second time to hash it), the restricted level and a NetworkPolicy,
 * against the same cluster without them, measured in the same run.
 *
 * Run: npm run bench:hardening
 */
import { App, Chart } from 'cdk8s';
import { MiniCluster, MiniClusterProps, PodSecurityLevel } from '../lib';

const SIZES = [1, 1024, 16384];
const ROUNDS = 20;

const VARIANTS: [string, Partial<MiniClusterProps>][] = [
  ['plain (baseline)', {}],
  ['restricted + NetworkPolicy', { podSecurity: PodSecurityLevel.RESTRICTED, networkPolicy: {} }],
  ['hashJobName', { gitOps: { hashJobName: true } }],
  ['all of them + Flux CD', { podSecurity: PodSecurityLevel.RESTRICTED, networkPolicy: {}, gitOps: { hashJobName: true, fluxCd: {} } }],
];

function synthYaml(size: number, extra: Partial<MiniClusterProps>): string {
  const app = new App({ outdir: '/tmp/cdk8s-minicluster-bench' });
  new MiniCluster(new Chart(app, 'bench'), 'flux-sample', {
    size,
    containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
    ...extra,
  });
  return app.synthYaml();
}

function medianMs(fn: () => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
}

export function runHardeningBench(): void {
  for (const [, extra] of VARIANTS) synthYaml(1, extra); // warm up module loading and the JIT
  console.log(`MiniCluster synth with the production options, median of ${ROUNDS} rounds, node ${process.version}`);
  const header = ['size', ...VARIANTS.map(([name]) => `${name} ms`), ...VARIANTS.slice(1).map(([name]) => `${name} / plain`)];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const size of SIZES) {
    const ms = VARIANTS.map(([, extra]) => medianMs(() => synthYaml(size, extra)));
    console.log(`| ${[String(size), ...ms.map((m) => m.toFixed(2)), ...ms.slice(1).map((m) => (m / ms[0]).toFixed(2))].join(' | ')} |`);
  }
}

if (require.main === module) runHardeningBench();

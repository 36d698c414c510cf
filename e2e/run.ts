/**
 * `npm run e2e`: every example and every converted Flux Operator test MiniCluster, run with real
 * Flux brokers in the pod emulator, checked as a user would check them; writes docs/e2e.md.
 *
 *   npm run e2e [-- --only SUBSTRING ...] [-- --keep]
 *
 * Needs root, ../shared/tools/podemu (or PODEMU) and a Flux install (FLUX_PREFIX, default
 * /opt/software/flux); without them every case is reported as skipped. Installs the Debian
 * packages that stand in for image content unless E2E_NO_INSTALL=1. Run dirs go to E2E_DIR
 * (default /tmp/cdk8s-minicluster-e2e); a passing case's dir is removed unless --keep.
 */
import * as fs from 'fs';
import * as path from 'path';
import { E2eCase } from './case';
import { exampleCases } from './cases/examples';
import { OPERATOR_TESTS, operatorCases } from './cases/operator';
import { optionCases } from './cases/options';
import { readinessCases } from './cases/readiness';
import { versionCases } from './cases/versions';
import { installPackages, stageImageContent } from './host';
import { findEngines } from './podemu';
import { e2eReport } from './report';
import { CaseResult, runCase } from './run-case';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const REPORT = path.join(REPO_ROOT, 'docs', 'e2e.md');

function slug(id: string): string {
  return id.replace(/[^A-Za-z0-9.-]+/g, '_');
}

async function main(argv: string[]): Promise<number> {
  const only = argv.flatMap((a, i) => (argv[i - 1] === '--only' ? [a] : []));
  const keep = argv.includes('--keep');
  const operator = operatorCases();
  const all: E2eCase[] = [...exampleCases(), ...versionCases(), ...optionCases(), ...readinessCases(), ...operator.cases];
  const cases = only.length ? all.filter((c) => only.some((o) => c.id.includes(o))) : all;
  if (!OPERATOR_TESTS) console.log('e2e: the Flux Operator tests are absent (../shared/data/flux-operator): only the examples run');

  const engines = findEngines();
  if (engines.missing.length > 0) {
    for (const c of cases) console.log(`skip ${c.id}: ${engines.missing.join('; ')}`);
    return 0;
  }
  const packageProblems = installPackages(cases.flatMap((c) => (c.needs ? [c.needs] : [])));
  const root = process.env.E2E_DIR ?? '/tmp/cdk8s-minicluster-e2e';
  const started = Date.now();
  const results: CaseResult[] = [];
  for (const c of cases) {
    const missing = (c.needs?.debianPackages ?? []).map((p) => packageProblems.get(p)).filter((p): p is string => !!p);
    const unstaged = missing.length ? undefined : stageImageContent(c.needs ?? {});
    if (missing.length || unstaged) {
      const why = [...missing, ...(unstaged ? [unstaged] : [])].join('; ');
      console.log(`skip ${c.id}: ${why}`);
      results.push({ id: c.id, status: 'skip', problems: [why] });
      continue;
    }
    const dir = path.join(root, slug(c.id));
    const t0 = Date.now();
    let result: CaseResult;
    try {
      result = await runCase(c, engines, dir);
    } catch (e) {
      result = { id: c.id, status: 'fail', problems: [(e as Error).stack ?? String(e)], logs: dir };
    }
    results.push(result);
    const took = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`${result.status} ${c.id} (${took} s${result.brokers ? `, brokers ${result.brokers}` : ''})`);
    for (const p of result.problems) console.log(`    ${p.split('\n').join('\n    ')}`);
    if (result.status === 'pass' && !keep) fs.rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  const failed = results.filter((r) => r.status === 'fail');
  console.log(`e2e: ${results.filter((r) => r.status === 'pass').length} passed, ${failed.length} failed, `
    + `${results.filter((r) => r.status === 'skip').length} skipped, ${operator.rejected.length} operator tests not converted (${Math.round(seconds)} s)`);
  if (only.length === 0) {
    fs.writeFileSync(REPORT, e2eReport(cases, results, operator.rejected, engines.fluxPrefix, seconds));
    console.log(`e2e: wrote ${path.relative(process.cwd(), REPORT)}`);
  }
  return failed.length ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (e) => {
  console.error(e);
  process.exitCode = 2;
});

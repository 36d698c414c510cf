/**
 * `npm run e2e`: every example and every converted Flux Operator test MiniCluster, run with real
 * Flux brokers, checked as a user would check them; writes docs/e2e.md.
 *
 *   npm run e2e [-- --only SUBSTRING ...] [-- --keep]
 *   npm run e2e -- --kubeconfig FILE [--context NAME] [--cluster-note TEXT ...] [--node-control PROGRAM] [--only ...] [--keep]
 *   npm run e2e -- --list-images [--only ...]
 *
 * Without --kubeconfig the cases run in the pod emulator: that needs root, ../shared/tools/podemu
 * (or PODEMU) and a Flux install (FLUX_PREFIX, default /opt/software/flux); without them every case
 * is reported as skipped. It installs the Debian packages that stand in for image content unless
 * E2E_NO_INSTALL=1. With --kubeconfig they run on that cluster, each in a namespace of its own.
 * Run dirs go to E2E_DIR (default /tmp/cdk8s-minicluster-e2e); a passing case's dir (and, on a
 * cluster, its namespace) is removed unless --keep. Cases with node faults need a cluster of at
 * least 2 Ready schedulable nodes; losing one needs --node-control PROGRAM (or E2E_NODE_CONTROL),
 * called as `PROGRAM lose NODE` and `PROGRAM restore NODE`, and never loses the nodes listed in
 * E2E_PROTECTED_NODES (comma-separated: the API server's).
 *
 * Results are kept in docs/e2e-runs/ (record-files.ts): the emulator's in podemu.json, a real
 * cluster's in kube-MINOR.json of its API server's minor, so that runs on several Kubernetes
 * versions each keep theirs; docs/e2e.md's version matrix is drawn from them all.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { kueueMissing } from './kube/kueue';
import { E2eCase } from './case';
import { allCases } from './cases';
import { OPERATOR_TESTS } from './cases/operator';
import { installPackages, stageImageContent } from './host';
import { imagesOf } from './kube/images';
import { clusterInfo, clusterVersions, describeCluster } from './kube/cluster-info';
import { caseNamespace, deleteNamespace } from './kube/namespace';
import { NodeControl, nodeControlFrom, nodeFaultSkip, schedulableReadyNodes } from './kube/node-faults';
import { interruptRuns } from './kube/run';
import { connectTarget } from './kube/target';
import { findEngines } from './podemu';
import { keepRun, readKubeRecords, readPodemuRecord } from './record-files';
import { RunRecord, mainKubeRecord } from './run-record';
import { e2eReport, fluxVersion } from './report';
import { CaseResult, Target, runCase, versionSkip } from './run-case';
import { REPO_ROOT } from './repo-root';

const REPORT = path.join(REPO_ROOT, 'docs', 'e2e.md');

function slug(id: string): string {
  return id.replace(/[^A-Za-z0-9.-]+/g, '_');
}

/** One result for a case run several times: the first failing run (or the last), with every run's fault time. */
function mergeRuns(runs: CaseResult[]): CaseResult {
  const shown = runs.find((r) => r.status === 'fail') ?? runs[runs.length - 1];
  const faultSeconds = runs.some((r) => r.faultSeconds) ? runs.flatMap((r) => r.faultSeconds ?? [null]) : undefined;
  const failed = runs.filter((r) => r.status === 'fail').length;
  const problems = runs.length > 1 && failed ? [`${failed} of ${runs.length} runs failed; the first:`, ...shown.problems] : shown.problems;
  const deleted = runs.map((r) => r.namespaceSeconds).filter((t): t is number => t !== undefined);
  return { ...shown, problems, faultSeconds, namespaceSeconds: deleted.length ? Math.max(...deleted) : undefined };
}

/** The command line: repeated options collected, flags seen. */
export interface E2eArgs {
  readonly only: string[];
  readonly keep: boolean;
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly clusterNotes: string[];
  readonly listImages: boolean;
  /** The program that loses and restores nodes (`PROGRAM lose|restore NODE`): --node-control or E2E_NODE_CONTROL. */
  readonly nodeControl?: string;
}

export function parseArgs(argv: string[]): E2eArgs {
  const values = (flag: string) => argv.flatMap((a, i) => (argv[i - 1] === flag ? [a] : []));
  const known = new Set(['--only', '--keep', '--kubeconfig', '--context', '--cluster-note', '--list-images', '--node-control']);
  const unknown = argv.filter((a, i) => a.startsWith('--') && !known.has(a) && !known.has(argv[i - 1] ?? ''));
  if (unknown.length) throw new Error(`unknown option(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  const single = (flag: string) => {
    const v = values(flag);
    if (v.length > 1) throw new Error(`${flag} given ${v.length} times`);
    return v[0];
  };
  const kubeconfig = single('--kubeconfig');
  const context = single('--context');
  if (context !== undefined && kubeconfig === undefined) throw new Error('--context needs --kubeconfig');
  const nodeControl = single('--node-control');
  if (nodeControl !== undefined && kubeconfig === undefined) throw new Error('--node-control needs --kubeconfig');
  return { nodeControl, only: values('--only'), keep: argv.includes('--keep'), kubeconfig, context, clusterNotes: values('--cluster-note'), listImages: argv.includes('--list-images') };
}

/** Why a case cannot run on the target, or undefined. `nodes`: a cluster's Ready schedulable nodes. */
function skipReason(c: E2eCase, kube: boolean, packageProblems: Map<string, string>, nodes?: string[], control?: NodeControl, kueueMissing?: string, serverMinor?: number): string | undefined {
  const tooOld = kube ? versionSkip(c, serverMinor) : undefined;
  if (tooOld) return tooOld;
  const nodeFaults = nodeFaultSkip(c, { kube, nodes, control });
  if (nodeFaults) return nodeFaults;
  if (kube && c.kube?.minNodes && (nodes?.length ?? 0) < c.kube.minNodes) return `needs ${c.kube.minNodes} Ready schedulable nodes; the cluster has ${nodes?.length ?? 0}`;
  if (c.kueue && kueueMissing) return kueueMissing;
  if (kube) return c.kube?.skip;
  if (c.podemu?.skip) return c.podemu.skip;
  const missing = (c.needs?.debianPackages ?? []).map((p) => packageProblems.get(p)).filter((p): p is string => !!p);
  if (missing.length) return missing.join('; ');
  return stageImageContent(c.needs ?? {});
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  const { cases: all, rejected } = allCases();
  const cases = args.only.length ? all.filter((c) => args.only.some((o) => c.id.includes(o))) : all;
  if (!OPERATOR_TESTS) console.log('e2e: the Flux Operator tests are absent (../shared/data/flux-operator): only the examples run');
  if (args.listImages) {
    for (const line of imagesOf(cases)) console.log(line);
    return 0;
  }
  const kube = args.kubeconfig !== undefined ? connectTarget(args.kubeconfig, args.context) : undefined;
  const engines = findEngines();
  let packageProblems = new Map<string, string>();
  if (!kube) {
    if (engines.missing.length > 0) {
      for (const c of cases) console.log(`skip ${c.id}: ${engines.missing.join('; ')}`);
      return 0;
    }
    packageProblems = installPackages(cases.flatMap((c) => (c.needs ? [c.needs] : [])));
  }
  const info = kube ? await clusterInfo(kube, args.clusterNotes) : undefined;
  if (info) console.log(`e2e: on ${kube!.server} (context ${kube!.context}): ${describeCluster(info)}`);
  const versions = info ? clusterVersions(info) : undefined;
  if (info && !versions) {
    // Before any case runs: its results could not be kept, each version's record being its minor's.
    console.error(`e2e: the API server's version is unknown (${info.server}): GET /version must answer, since a real cluster's results are kept by Kubernetes minor`);
    return 2;
  }
  const serverMinor = versions ? Number(versions.minor.split('.')[1]) : undefined;
  const nodeControl = kube ? nodeControlFrom(args.nodeControl) : undefined;
  const nodes = kube && cases.some((c) => c.faults?.nodes?.length || c.kube?.minNodes) ? schedulableReadyNodes((await kube.core.listNode()).items) : undefined;
  const noKueue = kube && cases.some((c) => c.kueue) ? await kueueMissing(kube) : undefined;
  const root = process.env.E2E_DIR ?? '/tmp/cdk8s-minicluster-e2e';
  const started = Date.now();
  const results: CaseResult[] = [];
  for (const c of cases) {
    const why = skipReason(c, !!kube, packageProblems, nodes, nodeControl, noKueue, serverMinor);
    if (why) {
      console.log(`skip ${c.id}: ${why}`);
      results.push({ id: c.id, status: 'skip', problems: [why] });
      continue;
    }
    const runs: CaseResult[] = [];
    for (let run = 1; run <= (c.faults?.runs ?? 1); run++) {
      const dir = path.join(root, (kube ? 'kube-' : '') + slug(c.id) + (run > 1 ? `.run${run}` : ''));
      const namespace = caseNamespace(c.id, run);
      const target: Target = kube ? { kind: 'kube', kube, namespace, keep: args.keep, nodeControl, serverMinor } : { kind: 'podemu', engines };
      const t0 = Date.now();
      let result: CaseResult;
      try {
        result = await runCase(c, target, dir);
      } catch (e) {
        result = { id: c.id, status: 'fail', problems: [(e as Error).stack ?? String(e)], logs: dir };
        // A case that broke half way must not leave its namespace behind.
        if (kube && !args.keep) await deleteNamespace(kube, namespace).catch(() => undefined);
      }
      runs.push(result);
      const took = ((Date.now() - t0) / 1000).toFixed(1);
      const seconds = result.faultSeconds?.[0];
      const fault = seconds != null ? `, ${seconds.toFixed(1)} s from the fault to ${c.faults!.outcome === 'recovers' ? 'recovery' : 'the Job\'s end'}` : '';
      const of = runs.length > 1 || (c.faults?.runs ?? 1) > 1 ? ` [run ${run} of ${c.faults!.runs}]` : '';
      const ns = result.namespaceSeconds !== undefined ? `, namespace gone ${result.namespaceSeconds} s after its deletion` : '';
      console.log(`${result.status} ${c.id}${of} (${took} s${result.brokers ? `, brokers ${result.brokers}` : ''}${result.nodes ? `, ${result.nodes}` : ''}${fault}${ns})`);
      for (const n of result.notes ?? []) console.log(`    note: ${n}`);
      for (const d of result.day2 ?? []) console.log(`    day-2 ${d.pass ? 'pass' : 'FAIL'}: ${d.command}: exit ${d.exit ?? 'killed'} (expected ${d.wanted}) in ${d.seconds.toFixed(1)} s${d.tries > 1 ? `, ${d.tries} tries` : ''}`);
      for (const p of result.problems) console.log(`    ${p.split('\n').join('\n    ')}`);
      if (result.status === 'pass' && !args.keep) fs.rmSync(dir, { recursive: true, force: true });
    }
    results.push(mergeRuns(runs));
  }
  const seconds = (Date.now() - started) / 1000;
  const failed = results.filter((r) => r.status === 'fail');
  console.log(`e2e: ${results.filter((r) => r.status === 'pass').length} passed, ${failed.length} failed, `
    + `${results.filter((r) => r.status === 'skip').length} skipped, ${rejected.length} operator tests not converted (${Math.round(seconds)} s)`);
  const record: RunRecord = {
    target: kube ? 'kube' : 'podemu',
    date: new Date().toISOString().slice(0, 10),
    seconds,
    environment: info ? describeCluster(info) : `${fluxVersion(engines.fluxPrefix)}, ${os.cpus().length} CPUs`,
    versions,
    results: results.map(({ summary: _summary, ...r }) => r),
  };
  // A full run is the record (a real cluster's: of its minor); an --only run replaces its cases' rows in it.
  const kept = keepRun(REPO_ROOT, record, args.only.length > 0);
  if (kept) {
    for (const s of kept.said) console.log(`e2e: ${s}`);
    const kubeRecords = readKubeRecords(REPO_ROOT);
    fs.writeFileSync(REPORT, e2eReport(all, rejected, readPodemuRecord(REPO_ROOT), mainKubeRecord(kubeRecords), kubeRecords));
    console.log(`e2e: wrote ${path.relative(process.cwd(), kept.file)} and ${path.relative(process.cwd(), REPORT)}${args.only.length ? ` (the rows of the ${results.length} cases run)` : ''}`);
  }
  return failed.length ? 1 : 0;
}

if (require.main === module) {
  // Ctrl-C: each run under way puts the cluster back first (a second Ctrl-C kills at once).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`e2e: ${signal}: ending the runs under way and putting back the nodes they lost or drained`);
      interruptRuns().then((n) => {
        console.error(`e2e: ${n} run(s) ended; the namespaces of the cases stay: delete the e2e-* namespaces`);
        process.exit(130);
      }, () => process.exit(130));
    });
  }
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  }, (e) => {
    console.error(e);
    process.exitCode = 2;
  });
}

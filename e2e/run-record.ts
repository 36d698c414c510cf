/**
 * The results of one full `npm run e2e` on one target, kept beside the report (docs/e2e-runs/) so
 * that docs/e2e.md shows the pod emulator's and a real cluster's runs side by side.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ClusterVersions } from './kube/cluster-info';
import { CaseResult } from './run-case';

export interface RunRecord {
  readonly target: 'podemu' | 'kube';
  readonly date: string;
  readonly seconds: number;
  /** The cluster's versions (a real cluster) or the Flux install and CPUs (podemu). */
  readonly environment?: string;
  /** A real cluster's versions as fields (the API server's, each node's kubelet and runtime). */
  readonly versions?: ClusterVersions;
  readonly results: Array<Omit<CaseResult, 'summary'>>;
  /** Cases run again later with `--only`, replacing their rows; `versions` when the cluster was not the record's. */
  readonly reruns?: Array<{ readonly date: string; readonly ids: string[]; readonly versions?: ClusterVersions }>;
}

function sameVersions(a: ClusterVersions | undefined, b: ClusterVersions | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `record` with the results of a later `--only` run in place of the rows of the cases it ran. The
 * re-runs it lists name each case once, at its last re-run (the rows show that one's results).
 */
export function withRerun(record: RunRecord, rerun: RunRecord): RunRecord {
  const ids = rerun.results.map((r) => r.id);
  const results = record.results.map((r) => rerun.results.find((x) => x.id === r.id) ?? r);
  for (const r of rerun.results) if (!results.some((x) => x.id === r.id)) results.push(r);
  const earlier = (record.reruns ?? [])
    .map((r) => ({ ...r, ids: r.ids.filter((id) => !ids.includes(id)) }))
    .filter((r) => r.ids.length > 0);
  // A patch release or another set of nodes within the minor: the rows it wrote say where they ran.
  const versions = rerun.versions && !sameVersions(rerun.versions, record.versions) ? { versions: rerun.versions } : {};
  return { ...record, results, reruns: [...earlier, { date: rerun.date, ids, ...versions }] };
}

function file(repoRoot: string, target: RunRecord['target']): string {
  return path.join(repoRoot, 'docs', 'e2e-runs', `${target}.json`);
}

export function writeRunRecord(repoRoot: string, record: RunRecord): void {
  fs.mkdirSync(path.dirname(file(repoRoot, record.target)), { recursive: true });
  // Logs paths are this machine's: the record keeps what the report shows.
  const results = record.results.map(({ logs: _logs, ...r }) => r);
  fs.writeFileSync(file(repoRoot, record.target), `${JSON.stringify({ ...record, results }, null, 1)}\n`);
}

export function readRunRecord(repoRoot: string, target: RunRecord['target']): RunRecord | undefined {
  const f = file(repoRoot, target);
  return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) as RunRecord : undefined;
}

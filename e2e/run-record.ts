/**
 * The results of one `npm run e2e` on one target, kept beside the report (docs/e2e-runs/, see
 * record-files.ts) so that docs/e2e.md shows the pod emulator's and real clusters' runs side by side.
 */
import { ClusterVersions } from './kube/cluster-info';
import { CaseResult } from './run-case';

export interface RunRecord {
  readonly target: 'podemu' | 'kube';
  readonly date: string;
  readonly seconds: number;
  /** The cluster's versions (a real cluster) or the Flux install and CPUs (podemu). */
  readonly environment?: string;
  /** A real cluster's versions as fields: its record is the one of `versions.minor`. */
  readonly versions?: ClusterVersions;
  /**
   * Started by an `--only` run on a minor that had no record: it holds the cases run on that
   * version, not the whole suite, so it is never the record the report's main tables show.
   */
  readonly partial?: boolean;
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

/**
 * What a run leaves as its target's record (of its minor, on a real cluster): a full run replaces
 * it; an `--only` run replaces its cases' rows in it, or on a real cluster's minor without a record
 * starts one from the rows it ran (the matrix shows the other cases as not run there). An emulator
 * `--only` run with no full run before it keeps nothing, as before.
 */
export function keptRecord(previous: RunRecord | undefined, run: RunRecord, only: boolean): RunRecord | undefined {
  if (!only) return run;
  if (previous) return withRerun(previous, run);
  return run.target === 'kube' ? { ...run, partial: true } : undefined;
}

/** The record the report's main tables show: a real cluster's latest full run, of any minor. */
export function mainKubeRecord(records: RunRecord[]): RunRecord | undefined {
  return records.filter((r) => !r.partial).reduce<RunRecord | undefined>((last, r) => (!last || r.date >= last.date ? r : last), undefined);
}

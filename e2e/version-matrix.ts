/**
 * docs/e2e.md's version matrix: the cases that tell Kubernetes versions apart, by the minors a real
 * cluster ran them on, from each minor's record (docs/e2e-runs/kube-MINOR.json). The suite runs on
 * one version at a time, mostly as `--only` subsets, so a cell is that version's last result.
 */
import { DEFAULT_KUBERNETES_VERSION } from '../lib/core/kubernetes-version';
import { E2eCase } from './case';
import { ClusterVersions } from './kube/cluster-info';
import { minorOrder } from './record-files';
import { RunRecord } from './run-record';

/**
 * The cases issue 36 asks for on every version, shown even where one version alone ran them: what
 * a version's Job controller, kubelet and API server decide (image volumes, sidecars, evictions,
 * namespace deletion) and what the day-2 commands read from them.
 */
export const VERSION_CASES: ReadonlyArray<{ readonly what: string; readonly id: RegExp }> = [
  { what: 'hello world for the default target and for a version', id: /^example hello-world( for |$)/ },
  // The scale cases are measurements of the image volume, not of the version: they stay out.
  { what: 'the image volume', id: /^(?!example scale ).*image.volume/ },
  { what: 'evictions and crashes', id: /^fault / },
  { what: 'namespace deletion', id: /^namespace deletion: / },
  { what: 'the day-2 commands', id: /^day-2: / },
  { what: 'the autoscaler', id: /^example autoscale,/ },
  { what: 'the elastic example', id: /^example elastic$/ },
  { what: 'YAML of an older target on an upgraded cluster', id: /^upgrade: / },
];

/** The nodes' versions, nodes of the same versions together: `kn0, kn1: kubelet v1.34.4, containerd 2.4.2`. */
function describeVersions(v: ClusterVersions): string {
  const groups = new Map<string, string[]>();
  for (const n of v.nodes) {
    const key = `kubelet ${n.kubelet}, ${n.runtime.replace('://', ' ')}`;
    groups.set(key, [...groups.get(key) ?? [], n.name]);
  }
  return [`API server ${v.server}`, ...[...groups].map(([key, names]) => `${names.join(', ')}: ${key}`)].join('; ');
}

/** When the record's rows ran: its first run (the full suite, or so many cases), then each re-run date. */
function describeRuns(r: RunRecord): string {
  const again = [...new Set((r.reruns ?? []).map((x) => x.date))].filter((d) => d !== r.date || !r.partial);
  const first = r.partial ? `cases run on ${[r.date, ...again].join(', ')}` : `the full suite run on ${r.date}${again.length ? `, cases re-run on ${again.join(', ')}` : ''}`;
  const elsewhere = (r.reruns ?? []).filter((x) => x.versions).map((x) => ` (re-run of ${x.date}: ${describeVersions(x.versions!)})`);
  return first + elsewhere.join('');
}

/** The first line of each problem (a stack trace's message; mergeRuns' "2 of 3 runs failed; the first:" and that one), cut at 200 characters. */
function why(problems: string[]): string {
  const line = problems.map((p) => p.trim().split('\n')[0].trim()).join(' ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * The section's lines: a header line per minor, the table, and the reasons of skips and failures
 * as numbered notes. `main` is the full run the report's other tables show: rows are the cases of
 * VERSION_CASES and every case run on another minor, in the suite's order (a case no longer in the
 * suite is left out, as in the main table). No lines when no record has versions.
 */
export function versionMatrix(cases: E2eCase[], records: RunRecord[], main?: RunRecord): string[] {
  const columns = records.filter((r) => r.versions).sort(minorOrder);
  if (!columns.length) return [];
  // One record per minor: the main run's column is the one of its minor.
  const isMain = (r: RunRecord) => r.versions!.minor === main?.versions?.minor;
  const elsewhere = new Set(columns.filter((r) => !isMain(r)).flatMap((r) => r.results.map((x) => x.id)));
  const rows = cases.filter((c) => elsewhere.has(c.id) || VERSION_CASES.some((v) => v.id.test(c.id)));
  const notes: string[] = [];
  const note = (text: string) => {
    const i = notes.indexOf(text);
    return i >= 0 ? i + 1 : notes.push(text);
  };
  const cellOf = (r: RunRecord, id: string) => {
    const got = r.results.find((x) => x.id === id);
    if (!got) return 'not run';
    if (got.status === 'pass') return 'pass';
    const reason = why(got.problems);
    return reason ? `${got.status} [${note(`${r.versions!.minor}, ${got.status}: ${reason}`)}]` : got.status;
  };
  const table = rows.map((c) => `| ${c.id.replace(/\|/g, '\\|')} | ${columns.map((r) => cellOf(r, c.id).replace(/\|/g, '\\|')).join(' | ')} |`);
  return [
    '## Version matrix',
    '',
    'The cases that tell Kubernetes versions apart, on each minor version a real cluster ran them on',
    '(`npm run e2e -- --kubeconfig FILE`, mostly with `--only`: each minor keeps its own record,',
    '`docs/e2e-runs/kube-MINOR.json`, and a cell is that version\'s last result). Rows: every case run',
    'on a version other than the one of the tables above, and the cases of',
    `${VERSION_CASES.map((v) => v.what).join(', ')}`,
    `(\`example hello-world\` is synthesized for the default target, ${DEFAULT_KUBERNETES_VERSION}). "not run": that version's record`,
    'has no result for the case. A skip or a failure is numbered, with its reason below the table.',
    '',
    ...columns.map((r) => `- **${r.versions!.minor}**${isMain(r) ? ' (the tables above)' : ''}: ${describeVersions(r.versions!)}; ${describeRuns(r)}.`),
    '',
    `| case | ${columns.map((r) => r.versions!.minor).join(' | ')} |`,
    `|---|${columns.map(() => '---|').join('')}`,
    ...table,
    '',
    ...notes.map((n, i) => `- [${i + 1}] ${n}`),
    ...(notes.length ? [''] : []),
  ];
}

/**
 * docs/e2e.md's version matrix, rendered from small per-minor records: its rows, its cells, a
 * header line per version, and the reasons of skips and failures.
 */
import { E2eCase } from '../e2e/case';
import { allCases } from '../e2e/cases';
import { e2eReport } from '../e2e/report';
import { RunRecord } from '../e2e/run-record';
import { VERSION_CASES, versionMatrix } from '../e2e/version-matrix';

const cases = ['example hello-world', 'example mpi', 'example kueue', 'fault interactive, the lead evicted', 'namespace deletion: pods that cannot be scheduled']
  .map((id) => ({ id, expect: { result: 'Succeeded' } } as E2eCase));
const nodes = (v: string, runtime: string, ...names: string[]) => names.map((name) => ({ name, kubelet: v, runtime }));
const pass = (id: string) => ({ id, status: 'pass' as const, problems: [] });

// The full suite on 1.36 (3 nodes), an --only run on 1.34 (1 node) re-run a day later, one on 1.37 whose
// kubelets differ from the API server.
const v136: RunRecord = {
  target: 'kube', date: '2026-11-27', seconds: 8000,
  versions: { server: 'v1.36.3', minor: '1.36', nodes: nodes('v1.36.3', 'containerd://2.4.2', 'kn0', 'kn1', 'kn2') },
  results: [pass('example hello-world'), pass('example mpi'), pass('example kueue'), pass('fault interactive, the lead evicted'), pass('namespace deletion: pods that cannot be scheduled')],
};
const v134: RunRecord = {
  target: 'kube', date: '2026-12-01', seconds: 60, partial: true,
  versions: { server: 'v1.34.4', minor: '1.34', nodes: nodes('v1.34.4', 'containerd://2.4.2', 'kn0') },
  results: [pass('example hello-world'), pass('example mpi'), { id: 'fault interactive, the lead evicted', status: 'skip', problems: ['needs 2 Ready schedulable nodes; the cluster has 1'] }],
  reruns: [{ date: '2026-12-02', ids: ['example hello-world'] }],
};
const v137: RunRecord = {
  target: 'kube', date: '2026-12-03', seconds: 60, partial: true,
  versions: { server: 'v1.37.2', minor: '1.37', nodes: [...nodes('v1.37.2', 'containerd://2.4.2', 'kn0'), ...nodes('v1.36.3', 'containerd://2.4.2', 'kn1')] },
  results: [{ id: 'example hello-world', status: 'fail', problems: ['2 of 3 runs failed; the first:', 'lead output was "" \n  at check'] }, { id: 'fault interactive, the lead evicted', status: 'skip', problems: ['needs 2 Ready schedulable nodes; the cluster has 1'] }],
};

/** The lines from the header lines to the notes: the intro's wording is not what these tests pin. */
function fromHeaders(lines: string[]): string[] {
  return lines.slice(lines.findIndex((l) => l.startsWith('- **')));
}

describe('the version matrix', () => {
  test('GIVEN the full run of 1.36 and an --only run of 1.34 THEN a column each, a row for the cases 1.34 ran and those the matrix names', () => {
    expect(fromHeaders(versionMatrix(cases, [v136, v134], v136))).toEqual([
      '- **1.34**: API server v1.34.4; kn0: kubelet v1.34.4, containerd 2.4.2; cases run on 2026-12-01, 2026-12-02.',
      '- **1.36** (the tables above): API server v1.36.3; kn0, kn1, kn2: kubelet v1.36.3, containerd 2.4.2; the full suite run on 2026-11-27.',
      '',
      '| case | 1.34 | 1.36 |',
      '|---|---|---|',
      '| example hello-world | pass | pass |',
      '| example mpi | pass | pass |',
      '| fault interactive, the lead evicted | skip [1] | pass |',
      '| namespace deletion: pods that cannot be scheduled | not run | pass |',
      '',
      '- [1] 1.34, skip: needs 2 Ready schedulable nodes; the cluster has 1',
      '',
    ]);
  });

  test('GIVEN three versions, one failing with several problems and two skipping for one reason THEN each reason is one note, each failure line its first lines', () => {
    expect(fromHeaders(versionMatrix(cases, [v137, v136, v134], v136))).toEqual([
      '- **1.34**: API server v1.34.4; kn0: kubelet v1.34.4, containerd 2.4.2; cases run on 2026-12-01, 2026-12-02.',
      '- **1.36** (the tables above): API server v1.36.3; kn0, kn1, kn2: kubelet v1.36.3, containerd 2.4.2; the full suite run on 2026-11-27.',
      '- **1.37**: API server v1.37.2; kn0: kubelet v1.37.2, containerd 2.4.2; kn1: kubelet v1.36.3, containerd 2.4.2; cases run on 2026-12-03.',
      '',
      '| case | 1.34 | 1.36 | 1.37 |',
      '|---|---|---|---|',
      '| example hello-world | pass | pass | fail [1] |',
      '| example mpi | pass | pass | not run |',
      '| fault interactive, the lead evicted | skip [2] | pass | skip [3] |',
      '| namespace deletion: pods that cannot be scheduled | not run | pass | not run |',
      '',
      '- [1] 1.37, fail: 2 of 3 runs failed; the first: lead output was ""',
      '- [2] 1.34, skip: needs 2 Ready schedulable nodes; the cluster has 1',
      '- [3] 1.37, skip: needs 2 Ready schedulable nodes; the cluster has 1',
      '',
    ]);
  });

  test('GIVEN the full run re-run in part and a re-run on other versions THEN the header line says when and where', () => {
    const rerun = { ...v136, reruns: [{ date: '2026-11-28', ids: ['example mpi'] }, { date: '2026-11-29', ids: ['example kueue'], versions: { ...v136.versions!, server: 'v1.36.4' } }] };
    expect(versionMatrix(cases, [rerun], rerun)).toContain('- **1.36** (the tables above): API server v1.36.3; kn0, kn1, kn2: kubelet v1.36.3, containerd 2.4.2; '
      + 'the full suite run on 2026-11-27, cases re-run on 2026-11-28, 2026-11-29 '
      + '(re-run of 2026-11-29: API server v1.36.4; kn0, kn1, kn2: kubelet v1.36.3, containerd 2.4.2).');
  });

  test('GIVEN only the full run THEN the named cases are the rows; GIVEN no record with versions THEN no matrix', () => {
    const rows = versionMatrix(cases, [v136], v136).filter((l) => l.startsWith('| ') && !l.startsWith('| case'));
    expect(rows).toEqual(['| example hello-world | pass |', '| fault interactive, the lead evicted | pass |', '| namespace deletion: pods that cannot be scheduled | pass |']);
    expect(versionMatrix(cases, [], undefined)).toEqual([]);
    expect(versionMatrix(cases, [{ ...v136, versions: undefined }], v136)).toEqual([]);
  });

  test('GIVEN the cases of the suite THEN each kind the matrix names has at least one, and the scale measurements are not among them', () => {
    const ids = allCases().cases.map((c) => c.id);
    for (const v of VERSION_CASES) expect([v.what, ids.filter((id) => v.id.test(id)).length > 0]).toEqual([v.what, true]);
    expect(ids.filter((id) => id.startsWith('example scale ') && VERSION_CASES.some((v) => v.id.test(id)))).toEqual([]);
  });

  test('GIVEN the report with per-minor records THEN the matrix follows the main table; without them the report has none', () => {
    const text = e2eReport(cases, [], undefined, v136, [v134, v136]);
    expect(text).toContain('## Version matrix');
    expect(text.indexOf('## Version matrix')).toBeGreaterThan(text.indexOf('| example hello-world | Job succeeded'));
    expect(text.indexOf('## Version matrix')).toBeLessThan(text.indexOf('## Operator tests the converter refuses'));
    expect(e2eReport(cases, [], undefined, v136)).not.toContain('## Version matrix');
  });
});

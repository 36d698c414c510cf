/**
 * A real cluster's run records by Kubernetes version: the versions a record keeps as fields, the
 * file each minor's record is kept in, how a run merges into it, and the record of before
 * (docs/e2e-runs/kube.json) read back.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ClusterInfo, clusterVersions, describeCluster, kubeMinor, versionsFromDescription } from '../e2e/kube/cluster-info';
import { keepRun, readKubeRecords, recordFile } from '../e2e/record-files';
import { RunRecord, mainKubeRecord, withRerun } from '../e2e/run-record';

const node = (name: string, v: string) => ({ name, kubelet: v, runtime: 'containerd://2.4.2', kernel: '6.18.44', os: 'Debian GNU/Linux 12 (bookworm)', cpu: '2', memory: '24478856Ki' });
const info = (v: string, ...nodes: string[]): ClusterInfo => ({ server: v, nodes: nodes.map((n) => node(n, v)), notes: ['runc 1.3.0'] });
const versions = (v: string, ...nodes: string[]) => clusterVersions(info(v, ...nodes))!;

describe('the versions a real cluster\'s record keeps', () => {
  test('GIVEN API server versions as /version gives them THEN their minor; GIVEN none THEN none', () => {
    expect(kubeMinor('v1.34.4')).toBe('1.34');
    expect(kubeMinor('v1.37.2')).toBe('1.37');
    expect(kubeMinor('v1.35.4-gke.1200')).toBe('1.35');
    expect(kubeMinor('v1.36.3+k3s1')).toBe('1.36');
    expect(kubeMinor('?')).toBeUndefined();
  });

  test('GIVEN a cluster of two nodes THEN the API server\'s version, its minor, and each node\'s kubelet and runtime are fields', () => {
    expect(clusterVersions(info('v1.34.4', 'kn0', 'kn1'))).toEqual({
      server: 'v1.34.4',
      minor: '1.34',
      nodes: [{ name: 'kn0', kubelet: 'v1.34.4', runtime: 'containerd://2.4.2' }, { name: 'kn1', kubelet: 'v1.34.4', runtime: 'containerd://2.4.2' }],
    });
    expect(clusterVersions(info('?', 'kn0'))).toBeUndefined();
  });

  test('GIVEN the report\'s line of a cluster THEN the same versions are read back from it', () => {
    const cluster = info('v1.36.3', 'kn0', 'kn1', 'kn2');
    expect(versionsFromDescription(describeCluster(cluster))).toEqual(clusterVersions(cluster));
    expect(versionsFromDescription('API server ?; node kn0: kubelet v1.36.3, containerd://2.4.2')).toBeUndefined();
  });

  test('GIVEN a re-run on a cluster of other versions within the minor THEN the re-run says where it ran; on the same THEN it does not', () => {
    const full: RunRecord = { target: 'kube', date: '2026-12-01', seconds: 900, versions: versions('v1.34.4', 'kn0', 'kn1'), results: [{ id: 'a', status: 'pass', problems: [] }] };
    const again = (v: RunRecord['versions']): RunRecord => ({ target: 'kube', date: '2026-12-02', seconds: 30, versions: v, results: [{ id: 'a', status: 'pass', problems: [] }] });
    // WHEN the case runs again on the same nodes, then on 1.34.5
    const same = withRerun(full, again(versions('v1.34.4', 'kn0', 'kn1')));
    const patched = withRerun(full, again(versions('v1.34.5', 'kn0', 'kn1')));
    // THEN the record keeps its own versions, and only the re-run on 1.34.5 names them
    expect(same.versions).toEqual(full.versions);
    expect(same.reruns).toEqual([{ date: '2026-12-02', ids: ['a'] }]);
    expect(patched.versions).toEqual(full.versions);
    expect(patched.reruns).toEqual([{ date: '2026-12-02', ids: ['a'], versions: versions('v1.34.5', 'kn0', 'kn1') }]);
  });
});

describe('a record per Kubernetes minor', () => {
  let repo: string;
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-records-'));
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  const runs = () => path.join(repo, 'docs', 'e2e-runs');
  const pass = (...ids: string[]) => ids.map((id) => ({ id, status: 'pass' as const, problems: [] }));
  const run = (server: string, date: string, ...ids: string[]): RunRecord => ({
    target: 'kube', date, seconds: 10 * ids.length, environment: describeCluster(info(server, 'kn0')), versions: versions(server, 'kn0'), results: pass(...ids),
  });
  const read = (name: string) => JSON.parse(fs.readFileSync(path.join(runs(), name), 'utf8')) as RunRecord;

  test('GIVEN a real cluster\'s minor THEN its record is kube-MINOR.json; the emulator\'s stays podemu.json; no minor is refused', () => {
    expect(recordFile('/r', 'kube', '1.34')).toBe('/r/docs/e2e-runs/kube-1.34.json');
    expect(recordFile('/r', 'podemu')).toBe('/r/docs/e2e-runs/podemu.json');
    expect(() => recordFile('/r', 'kube')).toThrow(/kept by its Kubernetes minor/);
  });

  test('GIVEN no record of 1.34 WHEN an --only run on 1.34.4 is kept THEN it starts the 1.34 record from the rows run, marked partial', () => {
    // WHEN
    const kept = keepRun(repo, run('v1.34.4', '2026-12-01', 'hello', 'evict'), true);
    // THEN
    expect(kept?.file).toBe(path.join(runs(), 'kube-1.34.json'));
    const record = read('kube-1.34.json');
    expect(record.results.map((r) => r.id)).toEqual(['hello', 'evict']);
    expect(record.partial).toBe(true);
    expect(record.versions).toEqual(versions('v1.34.4', 'kn0'));
    expect(record.reruns).toBeUndefined();
  });

  test('GIVEN records of 1.34 and 1.36 WHEN an --only run on 1.34 is kept THEN it merges into the 1.34 record alone', () => {
    keepRun(repo, run('v1.36.3', '2026-11-27', 'hello', 'evict', 'kueue'), false);
    keepRun(repo, run('v1.34.4', '2026-12-01', 'hello'), true);
    const before36 = read('kube-1.36.json');
    // WHEN
    keepRun(repo, { ...run('v1.34.4', '2026-12-02', 'evict'), results: [{ id: 'evict', status: 'fail', problems: ['no broker up again'] }] }, true);
    // THEN
    const record = read('kube-1.34.json');
    expect(record.results.map((r) => [r.id, r.status])).toEqual([['hello', 'pass'], ['evict', 'fail']]);
    expect(record.date).toBe('2026-12-01');
    expect(record.reruns).toEqual([{ date: '2026-12-02', ids: ['evict'] }]);
    expect(read('kube-1.36.json')).toEqual(before36);
  });

  test('GIVEN a partial 1.34 record WHEN the full suite runs on 1.34 THEN it replaces the record, which is then a full one', () => {
    keepRun(repo, run('v1.34.4', '2026-12-01', 'hello'), true);
    // WHEN
    keepRun(repo, run('v1.34.4', '2026-12-03', 'hello', 'evict', 'kueue'), false);
    // THEN
    const record = read('kube-1.34.json');
    expect(record.partial).toBeUndefined();
    expect(record.results).toHaveLength(3);
  });

  test('GIVEN a full run of 1.36 and partial records of 1.34 and 1.37 made later THEN the main record is the full run of 1.36', () => {
    const full = run('v1.36.3', '2026-11-27', 'hello', 'evict');
    const records = [{ ...run('v1.34.4', '2026-12-01', 'hello'), partial: true }, full, { ...run('v1.37.2', '2026-12-02', 'hello'), partial: true }];
    expect(mainKubeRecord(records)).toBe(full);
    // GIVEN a later full run on 1.37 THEN it is
    const later = run('v1.37.2', '2026-12-05', 'hello', 'evict');
    expect(mainKubeRecord([...records, later])).toBe(later);
    expect(mainKubeRecord([records[0]])).toBeUndefined();
  });
});

describe('the record of before: docs/e2e-runs/kube.json', () => {
  let repo: string;
  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-records-'));
    fs.mkdirSync(path.join(repo, 'docs', 'e2e-runs'), { recursive: true });
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  // As it was written: the versions in its text only, a full run with a re-run merged.
  const legacy = {
    target: 'kube',
    date: '2026-11-27',
    seconds: 8809.1,
    environment: 'API server v1.36.3; node kn0: kubelet v1.36.3, containerd://2.4.2, Debian GNU/Linux 12 (bookworm), kernel 6.18.44-fc-v782, 2 CPUs, 24478856Ki memory; '
      + 'node kn1: kubelet v1.36.3, containerd://2.4.2, Debian GNU/Linux 12 (bookworm), kernel 6.18.44-fc-v782, 2 CPUs, 24478856Ki memory',
    results: [{ id: 'hello', status: 'pass', problems: [] }, { id: 'evict', status: 'fail', problems: ['x'] }],
    reruns: [{ date: '2026-11-27', ids: ['hello'] }],
  };
  const file = (name: string) => path.join(repo, 'docs', 'e2e-runs', name);
  const write = (name: string, record: object) => fs.writeFileSync(file(name), JSON.stringify(record));
  const v136 = { server: 'v1.36.3', minor: '1.36', nodes: ['kn0', 'kn1'].map((name) => ({ name, kubelet: 'v1.36.3', runtime: 'containerd://2.4.2' })) };

  test('GIVEN kube.json alone THEN it reads as the full record of 1.36, its versions read from its text', () => {
    write('kube.json', legacy);
    const records = readKubeRecords(repo);
    expect(records).toEqual([{ ...legacy, versions: v136 }]);
    expect(mainKubeRecord(records)).toEqual(records[0]);
  });

  test('GIVEN kube.json WHEN a run on 1.34 is kept THEN kube.json moves to kube-1.36.json, with its versions as fields, beside kube-1.34.json', () => {
    write('kube.json', legacy);
    // WHEN
    const kept = keepRun(repo, { target: 'kube', date: '2026-12-01', seconds: 9, versions: { ...v136, server: 'v1.34.4', minor: '1.34' }, results: [{ id: 'hello', status: 'pass', problems: [] }] }, true);
    // THEN
    expect(kept?.said).toEqual(['moved kube.json to kube-1.36.json']);
    expect(fs.readdirSync(path.dirname(file('x'))).sort()).toEqual(['kube-1.34.json', 'kube-1.36.json']);
    expect(JSON.parse(fs.readFileSync(file('kube-1.36.json'), 'utf8'))).toEqual({ ...legacy, versions: v136 });
    expect(readKubeRecords(repo).map((r) => r.versions?.minor)).toEqual(['1.34', '1.36']);
  });

  test('GIVEN kube.json WHEN an --only run on 1.36 is kept THEN it merges into the record kube.json held, now kube-1.36.json', () => {
    write('kube.json', legacy);
    // WHEN
    keepRun(repo, { target: 'kube', date: '2026-12-01', seconds: 9, versions: v136, results: [{ id: 'evict', status: 'pass', problems: [] }] }, true);
    // THEN
    const record = JSON.parse(fs.readFileSync(file('kube-1.36.json'), 'utf8')) as RunRecord;
    expect(record.results.map((r) => r.status)).toEqual(['pass', 'pass']);
    expect(record.reruns).toEqual([{ date: '2026-11-27', ids: ['hello'] }, { date: '2026-12-01', ids: ['evict'] }]);
    expect(fs.existsSync(file('kube.json'))).toBe(false);
  });

  test('GIVEN kube.json and a kube-1.36.json THEN the per-minor file is the record of 1.36, and kube.json is only removed', () => {
    write('kube.json', legacy);
    write('kube-1.36.json', { ...legacy, date: '2026-12-03', versions: v136 });
    expect(readKubeRecords(repo).map((r) => r.date)).toEqual(['2026-12-03']);
    keepRun(repo, { target: 'kube', date: '2026-12-04', seconds: 9, versions: { ...v136, server: 'v1.37.2', minor: '1.37' }, results: [] }, true);
    expect(fs.existsSync(file('kube.json'))).toBe(false);
    expect(readKubeRecords(repo).map((r) => [r.versions?.minor, r.date])).toEqual([['1.36', '2026-12-03'], ['1.37', '2026-12-04']]);
  });
});

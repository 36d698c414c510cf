/**
 * A real cluster's run records by Kubernetes version: the versions a record keeps as fields, the
 * file each minor's record is kept in, how a run merges into it, and the record of before
 * (docs/e2e-runs/kube.json) read back.
 */
import { ClusterInfo, clusterVersions, describeCluster, kubeMinor, versionsFromDescription } from '../e2e/kube/cluster-info';
import { RunRecord, withRerun } from '../e2e/run-record';

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

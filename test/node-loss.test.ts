import { Chart, Testing } from 'cdk8s';
import { MiniCluster, MiniClusterProps } from '../lib';
import { expectValidManifests } from './support/k8s-validate';

const hello: MiniClusterProps = { size: 2, containers: [{ image: 'ubuntu:noble', command: 'hostname' }] };

function synth(props: MiniClusterProps) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
  new MiniCluster(chart, 'flux', props);
  const docs = Testing.synth(chart);
  return { docs, pod: docs.find((d) => d.kind === 'Job' && d.metadata.name === 'flux').spec.template.spec };
}

const nodeLoss = (seconds: number) => [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
];

describe('a node that stops answering', () => {
  test('GIVEN the defaults THEN a pod leaves an unreachable or not-ready node after 30 s, not Kubernetes\' 300', () => {
    const { docs, pod } = synth(hello);
    expect(pod.tolerations).toEqual(nodeLoss(30));
    expectValidManifests(docs);
  });

  test('GIVEN pod.nodeLossSeconds THEN both tolerations take it; 0 evicts at once', () => {
    expect(synth({ ...hello, pod: { nodeLossSeconds: 120 } }).pod.tolerations).toEqual(nodeLoss(120));
    expect(synth({ ...hello, pod: { nodeLossSeconds: 0 } }).pod.tolerations).toEqual(nodeLoss(0));
  });

  test('GIVEN the user\'s own toleration for one of the taints THEN it replaces that one; other tolerations come first, unchanged', () => {
    const own = [
      { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600 },
    ];
    const { docs, pod } = synth({ ...hello, pod: { tolerations: own } });
    expect(pod.tolerations).toEqual([...own, nodeLoss(30)[0]]);
    expectValidManifests(docs);
    // AND a toleration of every effect for the key (no effect) counts too; a NoSchedule one does not
    expect(synth({ ...hello, pod: { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }] } }).pod.tolerations)
      .toEqual([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, nodeLoss(30)[1]]);
    expect(synth({ ...hello, pod: { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }] } }).pod.tolerations)
      .toEqual([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }, ...nodeLoss(30)]);
  });

  test('bad values are named, all at once', () => {
    expect(() => synth({ ...hello, pod: { nodeLossSeconds: -1, tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }, { key: 'b', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1.5 }] } }))
      .toThrow(/pod.tolerations\[0\].tolerationSeconds = 5: must be an integer, with effect NoExecute[\s\S]*pod.tolerations\[1\].tolerationSeconds = 1.5[\s\S]*pod.nodeLossSeconds = -1: must be an integer from 0 to 86400/);
  });
});

/**
 * `check`'s job-feature rule against kubernetesFeatures: the output for a target uses nothing a
 * server of that minor lacks, and each feature of the table the output uses is one the rule finds.
 */
import { Chart, Testing } from 'cdk8s';
import { FluxViewSource, MiniCluster, MiniClusterProps, MIN_KUBERNETES_MINOR } from '../lib';
import { JOB_FEATURES } from '../lib/cli/check/rules/job-features';
import { featureSince, KubernetesFeature, kubernetesFeatures } from '../lib/core/kubernetes-version';

type Obj = Record<string, any>;

// A Record: a feature added to KubernetesFeatures fails to compile until check knows it.
const CHECKED_AS: Record<KubernetesFeature, string> = {
  imageVolumes: 'image volumes',
  nativeSidecars: 'native sidecars',
  podReplacementPolicy: 'podReplacementPolicy',
  successPolicy: 'successPolicy',
  completionIndexLabel: 'the job-completion-index pod label',
};
const FEATURES = Object.keys(CHECKED_AS) as KubernetesFeature[];
const MINORS = Array.from({ length: Math.max(...FEATURES.map(featureSince)) + 3 - MIN_KUBERNETES_MINOR }, (_, i) => MIN_KUBERNETES_MINOR + i);

/** The broker Job of hello world for `minor`, with the view as an image volume where that version has it. */
function job(minor: number): Obj {
  const imageVolume = kubernetesFeatures(`1.${minor}`).imageVolumes;
  const props: MiniClusterProps = {
    size: 4, containers: [{ image: 'ubuntu:noble', command: 'hostname' }], kubernetesVersion: `1.${minor}`,
    // (the handshake as a native sidecar, which it is not in the runner: every feature shows)
    ...(imageVolume ? { flux: { container: { source: FluxViewSource.IMAGE_VOLUME } }, handshake: { inRunner: false } } : {}),
  };
  const chart = new Chart(Testing.app(), 'features', { namespace: 'default' });
  new MiniCluster(chart, 'flux-sample', props);
  return Testing.synth(chart).find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample');
}

const usedBy = (j: Obj): string[] => JOB_FEATURES.filter((f) => f.uses(j).length > 0).map((f) => f.name);

test('GIVEN the output for each minor WHEN job-feature holds it against a server of that minor THEN it finds nothing the server lacks', () => {
  for (const minor of MINORS) {
    const j = job(minor);
    expect([minor, JOB_FEATURES.filter((f) => f.since > minor && f.uses(j).length > 0).map((f) => f.name)]).toEqual([minor, []]);
  }
});

test('GIVEN each feature of kubernetesFeatures WHEN the output is synthesized from its minor on THEN job-feature finds it, with that minor, and not before', () => {
  for (const f of FEATURES) {
    const rule = JOB_FEATURES.find((x) => x.name === CHECKED_AS[f]);
    expect([f, rule?.since]).toEqual([f, featureSince(f)]);
    expect([f, MINORS.filter((m) => usedBy(job(m)).includes(CHECKED_AS[f]))]).toEqual([f, MINORS.filter((m) => m >= featureSince(f))]);
  }
});

import { Chart, JsonPatch, Testing } from 'cdk8s';
import { CurveCertJob, HandshakeMode, MiniCluster, MiniClusterProps } from '../lib';
import { expectValidManifests } from './support/k8s-validate';

const hello: MiniClusterProps = { size: 4, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] };

function synth(props: MiniClusterProps = hello) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
  const cluster = new MiniCluster(chart, 'flux-sample', props);
  return { chart, cluster, docs: () => Testing.synth(chart) };
}

const find = (docs: any[], kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name);

describe('escape hatches: the MiniCluster\'s objects are ApiObjects', () => {
  test('job, service, rendezvousService and entrypoint are the synthesized objects', () => {
    const { cluster } = synth();
    expect([cluster.job, cluster.service, cluster.rendezvousService!, cluster.entrypoint].map((o) => `${o.kind}/${o.name}`)).toEqual([
      'Job/flux-sample', 'Service/flux-sample', 'Service/flux-sample-rendezvous', 'ConfigMap/flux-sample-entrypoint',
    ]);
    expect(cluster.job.name).toBe(cluster.jobName);
    expect(cluster.service.name).toBe(cluster.serviceName);
    expect(cluster.entrypoint.name).toBe(cluster.entrypointConfigMapName);
    expect(cluster.certificateJob!.job.name).toBe(cluster.certificateJob!.jobName);
  });

  test('addJsonPatch changes the manifests, with paths spelled as in the YAML, and they stay valid', () => {
    // GIVEN
    const { cluster, docs } = synth();
    // WHEN every object is patched
    cluster.job.addJsonPatch(
      JsonPatch.add('/spec/template/spec/priorityClassName', 'hpc-high'),
      JsonPatch.replace('/spec/template/spec/setHostnameAsFQDN', false),
    );
    cluster.service.addJsonPatch(JsonPatch.add('/metadata/annotations', { 'example.com/owner': 'team-a' }));
    cluster.rendezvousService!.addJsonPatch(JsonPatch.add('/spec/ipFamilyPolicy', 'SingleStack'));
    // (the entrypoint's data is rendered lazily: the patch applies after it)
    cluster.entrypoint.addJsonPatch(JsonPatch.add('/data/site.conf', 'mirror=local\n'));
    cluster.certificateJob!.job.addJsonPatch(JsonPatch.add('/spec/template/spec/priorityClassName', 'system-cluster-critical'));
    // THEN
    const out = docs();
    expect(find(out, 'Job', 'flux-sample').spec.template.spec.priorityClassName).toBe('hpc-high');
    expect(find(out, 'Service', 'flux-sample').metadata.annotations).toEqual({ 'example.com/owner': 'team-a' });
    expect(find(out, 'Service', 'flux-sample-rendezvous').spec.ipFamilyPolicy).toBe('SingleStack');
    expect(find(out, 'ConfigMap', 'flux-sample-entrypoint').data).toMatchObject({ 'site.conf': 'mirror=local\n', 'broker.toml': expect.any(String) });
    expect(find(out, 'Job', 'flux-sample-curve-cert').spec.template.spec.priorityClassName).toBe('system-cluster-critical');
    expectValidManifests(out);
  });

  test('rendezvousService is there only in rendezvous mode', () => {
    expect(synth({ ...hello, handshake: { mode: HandshakeMode.DNS } }).cluster.rendezvousService).toBeUndefined();
    expect(synth({ ...hello, handshake: { enabled: false } }).cluster.rendezvousService).toBeUndefined();
    expect(synth({ ...hello, kubernetesVersion: '1.27' }).cluster.rendezvousService).toBeUndefined();
  });

  test('a CurveCertJob of its own exposes its Job too', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
    const certJob = new CurveCertJob(chart, 'cert', { clusterName: 'demo' });
    certJob.job.addJsonPatch(JsonPatch.add('/spec/template/metadata/annotations', { 'sidecar.istio.io/inject': 'false' }));
    const job = find(Testing.synth(chart), 'Job', 'demo-curve-cert');
    expect(job.spec.template.metadata.annotations).toEqual({ 'sidecar.istio.io/inject': 'false' });
  });
});

import { createHash } from 'crypto';
import { App, Chart, Testing, Yaml } from 'cdk8s';
import { CertificateSource, CurveCertJob, MiniCluster, MiniClusterProps } from '../lib';
import { runtimeBundle } from '../lib/core/runtime-bundle';
import { expectValidManifests } from './support/k8s-validate';

const hello: MiniClusterProps = { size: 4, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] };
const hashOf = (program: string) => createHash('sha256').update(runtimeBundle(program)).digest('hex').slice(0, 8);
const isProgram = (d: any) => d.metadata.labels?.['app.kubernetes.io/component'] === 'runtime-program';
const ref = (d: any) => `${d.kind}/${d.metadata.namespace}/${d.metadata.name}`;

/** `${namespace}/${name}` of every ConfigMap a pod template of `docs` mounts. */
function mountedConfigMaps(docs: any[]): string[] {
  return docs.filter((d) => d.kind === 'Job').flatMap((job) => (job.spec.template.spec.volumes ?? [])
    .filter((v: any) => v.configMap).map((v: any) => `ConfigMap/${job.metadata.namespace}/${v.configMap.name}`));
}

/** A chart `id` holding one MiniCluster per name, in `namespace`. */
function chartOf(app: App, id: string, names: string[], namespace = 'hpc', props: MiniClusterProps = hello): Chart {
  const chart = new Chart(app, id, { namespace });
  for (const name of names) new MiniCluster(chart, name, props);
  return chart;
}

const tenNames = Array.from({ length: 10 }, (_, i) => `flux-${i}`);

describe('runtime programs: one shared, content-hashed ConfigMap per program, namespace and chart', () => {
  test('ten clusters in one namespace carry handshake.js and certgen.js once, and every pod mounts them', () => {
    // GIVEN a chart with ten MiniClusters in namespace hpc
    const docs = Testing.synth(chartOf(Testing.app(), 'gitops', tenNames));
    // THEN there is one ConfigMap per program, named after the chart and the program's content
    const programs = docs.filter(isProgram);
    expect(programs.map(ref)).toEqual([`ConfigMap/hpc/gitops-minicluster-certgen-${hashOf('certgen')}`, `ConfigMap/hpc/gitops-minicluster-handshake-${hashOf('handshake')}`]);
    for (const [program, cm] of [['certgen', programs[0]], ['handshake', programs[1]]]) {
      expect(cm.data).toEqual({ [`${program}.js`]: runtimeBundle(program) });
      expect(cm.immutable).toBe(true);
    }
    expect(docs.filter((d) => JSON.stringify(d).includes('handshake deadline'))).toHaveLength(1);
    // AND each of the ten Jobs and ten certificate Jobs mounts them; each is listed before its first user
    const mounted = mountedConfigMaps(docs);
    expect(mounted.filter((m) => m === ref(programs[1]))).toHaveLength(10);
    expect(mounted.filter((m) => m === ref(programs[0]))).toHaveLength(10);
    const firstUser = (cm: any) => docs.findIndex((d) => d.kind === 'Job' && mountedConfigMaps([d]).includes(ref(cm)));
    for (const cm of programs) expect(docs.indexOf(cm)).toBeLessThan(firstUser(cm));
    expectValidManifests(docs);
  });

  test('the pods run the programs from the same paths as before: /flux_operator/handshake.js and /program/certgen.js', () => {
    const chart = new Chart(Testing.app(), 'c', { namespace: 'hpc' });
    const cluster = new MiniCluster(chart, 'flux-sample', hello);
    const docs = Testing.synth(chart);
    const pod = docs.find((d) => d.kind === 'Job' && d.metadata.name === cluster.jobName).spec.template.spec;
    const sidecar = pod.initContainers.find((c: any) => c.name === 'flux-handshake');
    expect(sidecar.command).toContain('/flux_operator/handshake.js');
    expect(sidecar.volumeMounts).toContainEqual({ name: 'flux-handshake-program', mountPath: '/flux_operator', readOnly: true });
    expect(pod.volumes).toContainEqual({ name: 'flux-handshake-program', configMap: { name: `c-minicluster-handshake-${hashOf('handshake')}`, defaultMode: 0o444 } });
    // the other containers still mount the entrypoint ConfigMap there
    for (const c of [...pod.initContainers.filter((i: any) => i !== sidecar), ...pod.containers]) {
      expect(c.volumeMounts).toContainEqual({ name: 'flux-entrypoint', mountPath: '/flux_operator', readOnly: true });
    }
    const certgen = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample-curve-cert').spec.template.spec;
    expect(certgen.containers[0].command).toEqual(['node', '/program/certgen.js']);
    expect(certgen.volumes).toEqual([{ name: 'program', configMap: { name: cluster.certificateJob!.programConfigMapName, defaultMode: 0o444 } }]);
  });

  test('several namespaces in one chart: one copy per namespace', () => {
    const chart = new Chart(Testing.app(), 'multi');
    for (const [i, namespace] of ['a', 'b', 'a', 'c'].entries()) new MiniCluster(chart, `flux-${i}`, { ...hello, namespace });
    const docs = Testing.synth(chart);
    expect(docs.filter(isProgram).map(ref).sort()).toEqual(['a', 'b', 'c'].flatMap((ns) => [
      `ConfigMap/${ns}/multi-minicluster-certgen-${hashOf('certgen')}`, `ConfigMap/${ns}/multi-minicluster-handshake-${hashOf('handshake')}`,
    ]));
    // every mounted ConfigMap is in the chart, in the pod's namespace
    const present = new Set(docs.map(ref));
    for (const m of mountedConfigMaps(docs)) expect(present).toContain(m);
  });

  test('two charts (two files) each carry their own copy, under names that never collide', () => {
    // GIVEN two charts of the same namespace in one app
    const app = Testing.app();
    const [one, two] = [chartOf(app, 'team-a', ['flux-a']), chartOf(app, 'team-b', ['flux-b'])];
    // THEN each chart is complete on its own, and no object is in both
    const docsOne = Testing.synth(one);
    const docsTwo = Testing.synth(two);
    for (const docs of [docsOne, docsTwo]) {
      const present = new Set(docs.map(ref));
      for (const m of mountedConfigMaps(docs)) expect(present).toContain(m);
    }
    expect(docsOne.filter(isProgram).map((d) => d.metadata.name)).toEqual([`team-a-minicluster-certgen-${hashOf('certgen')}`, `team-a-minicluster-handshake-${hashOf('handshake')}`]);
    const refsOne = new Set(docsOne.map(ref));
    expect(docsTwo.map(ref).filter((r) => refsOne.has(r))).toEqual([]);
  });

  test('a CurveCertJob of its own shares the certgen ConfigMap with the MiniClusters of its namespace', () => {
    const chart = chartOf(Testing.app(), 'c', ['flux-sample']);
    const standalone = new CurveCertJob(chart, 'cert', { clusterName: 'other' });
    const docs = Testing.synth(chart);
    expect(docs.filter((d) => isProgram(d) && d.metadata.name.includes('certgen'))).toHaveLength(1);
    expect(mountedConfigMaps(docs).filter((m) => m.endsWith(standalone.programConfigMapName))).toHaveLength(2);
  });

  test('Argo CD certificate hook: the shared certgen program becomes a PreSync hook too, also for the plain certificate Jobs beside it', () => {
    // GIVEN one cluster with the hook and one without, in one namespace
    const chart = new Chart(Testing.app(), 'c', { namespace: 'hpc' });
    new MiniCluster(chart, 'plain', hello);
    new MiniCluster(chart, 'hooked', { ...hello, gitOps: { argoCd: { certificateHook: true } } });
    const docs = Testing.synth(chart);
    // THEN the one program ConfigMap exists before the hook Job runs (wave -1 of PreSync), and so also
    // before the plain certificate Job, which Argo CD applies after every PreSync hook
    const certgen = docs.filter((d) => isProgram(d) && d.metadata.name.includes('certgen'));
    expect(certgen).toHaveLength(1);
    expect(certgen[0].metadata.annotations).toEqual({
      'argocd.argoproj.io/hook': 'PreSync', 'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation', 'argocd.argoproj.io/sync-wave': '-1',
    });
    expect(docs.find((d) => isProgram(d) && d.metadata.name.includes('handshake')).metadata.annotations).toBeUndefined();
    expectValidManifests(docs);
  });

  test('only what is used: no handshake program without the handshake, no certgen program without a generated certificate', () => {
    const docs = Testing.synth(chartOf(Testing.app(), 'c', ['flux-sample'], 'hpc', {
      ...hello, handshake: { enabled: false }, certificate: CertificateSource.fromExistingSecret('sealed'),
    }));
    expect(docs.filter(isProgram)).toEqual([]);
  });

  test('deterministic, and sharing changes neither a cluster\'s objects nor its content-hashed Job name', () => {
    // GIVEN the same cluster alone in a chart, and among nine others
    const synthYaml = (names: string[], props = hello) => Yaml.stringify(...Testing.synth(chartOf(Testing.app(), 'c', names, 'hpc', props)));
    expect(synthYaml(tenNames)).toBe(synthYaml(tenNames));
    const ownObjects = (names: string[], props = hello) => Testing.synth(chartOf(Testing.app(), 'c', names, 'hpc', props))
      .filter((d) => !isProgram(d) && d.metadata.labels['app.kubernetes.io/instance'] === 'flux-0');
    // THEN its own objects are the same, hashed Job name included
    expect(ownObjects(tenNames)).toEqual(ownObjects(['flux-0']));
    const hashed = { ...hello, gitOps: { hashJobName: true } };
    expect(ownObjects(tenNames, hashed)).toEqual(ownObjects(['flux-0'], hashed));
    const job = ownObjects(['flux-0'], hashed).find((d) => d.metadata.labels['app.kubernetes.io/component'] === 'job');
    expect(job.metadata.name).toMatch(/^flux-0-[0-9a-f]{8}$/);
  });

  test('sizes: one 4-pod cluster\'s own objects are at most 44 KB of YAML, and ten clusters cost far less than ten times one', () => {
    // Every document, as a multi-document file has them (Yaml.stringify takes one value).
    const yamlOf = (docs: any[]) => Buffer.byteLength(docs.map((d) => Yaml.stringify(d)).join('---\n'));
    const one = Testing.synth(chartOf(Testing.app(), 'c', ['flux-0']));
    const ten = Testing.synth(chartOf(Testing.app(), 'c', tenNames));
    const own = yamlOf(one.filter((d) => !isProgram(d)));
    // (44 KB since the view copy folds directories into links: its program is 2.6 KB of the scripts)
    expect(own).toBeLessThanOrEqual(44 * 1024);
    const shared = yamlOf(one.filter(isProgram));
    // ten clusters (names as long as the one's): ten times a cluster's own objects, and the programs once
    expect(Math.abs(yamlOf(ten) - (10 * own + shared))).toBeLessThan(100);
    expect(yamlOf(ten)).toBeLessThan(5 * yamlOf(one));
  });
});

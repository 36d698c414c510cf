import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Testing, YamlOutputType } from 'cdk8s';
import { parse } from 'smol-toml';
import { parseAllDocuments } from 'yaml';
import { exampleApp } from '../examples/app';
import { CertificateSource, GitOpsOptions, HandshakeMode, Kustomization, MiniCluster, MiniClusterProps } from '../lib';
import { createCurveCert } from '../lib/cert';
import { expectValidManifests } from './support/k8s-validate';
import { Requirement, testEachIf, testIf } from './support/requires';

const hello: MiniClusterProps = { size: 4, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] };

function synth(props: MiniClusterProps, name = 'flux-sample') {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
  const cluster = new MiniCluster(chart, name, props);
  const docs = Testing.synth(chart);
  const find = (kind: string, objName: string) => docs.find((d) => d.kind === kind && d.metadata.name === objName);
  return { cluster, docs, job: find('Job', cluster.jobName), configMap: find('ConfigMap', cluster.entrypointConfigMapName), find };
}

const hashed = (props: MiniClusterProps, gitOps: GitOpsOptions = {}) => synth({ ...props, gitOps: { hashJobName: true, ...gitOps } }).cluster.jobName;

function errorOf(props: MiniClusterProps, name = 'flux-sample'): string {
  try {
    synth(props, name);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a validation error');
}

describe('GitOps: run-suffixed Job names', () => {
  test('without an option, the Job is named after the cluster', () => {
    expect(synth(hello).cluster.jobName).toBe('flux-sample');
  });

  test('hashJobName: an unchanged spec keeps the name, a changed spec gets a new one', () => {
    // GIVEN the same spec twice, and specs that differ in the command, the image, the view and the size
    const name = hashed(hello);
    // THEN
    expect(name).toMatch(/^flux-sample-[0-9a-f]{8}$/);
    expect(hashed({ ...hello })).toBe(name);
    const changed = [
      hashed({ ...hello, containers: [{ image: 'ubuntu:noble', command: 'echo hello again' }] }),
      hashed({ ...hello, containers: [{ image: 'ubuntu:jammy', command: 'echo hello world' }] }),
      hashed({ ...hello, flux: { container: { image: 'ghcr.io/converged-computing/flux-view-rocky:tag-9' } } }),
      hashed({ ...hello, size: 5 }),
      hashed({ ...hello, namespace: 'other' }),
    ];
    expect(new Set([name, ...changed]).size).toBe(changed.length + 1);
  });

  test('hashJobName: fields Kubernetes changes in place (labels, annotations, suspend, TTL, deadline) keep the name', () => {
    const name = hashed(hello);
    expect(hashed({ ...hello, queueName: 'hpc' })).toBe(name);
    expect(hashed({ ...hello, suspend: true })).toBe(name);
    expect(hashed({ ...hello, ttlSecondsAfterFinished: 600, deadlineSeconds: 3600 })).toBe(name);
    expect(hashed({ ...hello, jobLabels: { team: 'a' } })).toBe(name);
    expect(hashed(hello, { argoCd: { replaceJob: true }, fluxCd: {} })).toBe(name);
    // the certificate's source is not part of a run
    expect(hashed({ ...hello, certificate: CertificateSource.generatedInCluster({ ttlSecondsAfterFinished: 60 }) })).toBe(name);
  });

  test('hashJobName: an elastic interactive cluster with an explicit minSize keeps its name when only size changes (patched in place)', () => {
    const elastic = (size: number) => hashed({ size, maxSize: 8, minSize: 1, interactive: true, containers: [{ image: 'ubuntu:noble' }] });
    expect(elastic(4)).toBe(elastic(2));
    // without minSize the quorum follows size, which is in the entrypoint: a new run
    const quorumFollowsSize = (size: number) => hashed({ size, maxSize: 8, interactive: true, containers: [{ image: 'ubuntu:noble' }] });
    expect(quorumFollowsSize(4)).not.toBe(quorumFollowsSize(2));
  });

  test('a run renames the Job, its pods and its entrypoint ConfigMap; the Service, the certificate Secret and Job keep their names', () => {
    // WHEN
    const { cluster, docs, job, configMap, find } = synth({ ...hello, gitOps: { hashJobName: true } });
    const run = cluster.jobName;
    // THEN the run's objects and hostnames carry the suffix
    expect(cluster.clusterName).toBe('flux-sample');
    expect(configMap.metadata.name).toBe(`${run}-entrypoint`);
    expect(job.spec.template.spec.volumes.find((v: any) => v.name === 'flux-entrypoint').configMap.name).toBe(`${run}-entrypoint`);
    expect(cluster.hostname(3)).toBe(`${run}-3`);
    expect(cluster.hostlist).toBe(`${run}-[0-3]`);
    expect(cluster.fqdn(0)).toBe(`${run}-0.flux-sample.hpc.svc.cluster.local`);
    const toml = parse(configMap.data['broker.toml']) as any;
    expect(toml.bootstrap.hosts).toEqual([{ host: `${run}-[0-3]` }]);
    expect(toml.bootstrap.default_connect).toBe('tcp://%h.flux-sample.hpc.svc.cluster.local:%p');
    expect(job.spec.template.metadata.labels['flux-framework.org/minicluster']).toBe(run);
    // AND the Service (the pods' subdomain) keeps its name and selects this run's pods
    expect(cluster.serviceName).toBe('flux-sample');
    expect(job.spec.template.spec.subdomain).toBe('flux-sample');
    expect(find('Service', 'flux-sample').spec.selector).toEqual({ 'flux-framework.org/minicluster': run });
    // AND the certificate keeps its Secret and Job
    expect(cluster.certificateSecretName).toBe('flux-sample-curve');
    expect(job.spec.template.spec.volumes.find((v: any) => v.name === 'flux-curve-cert').secret.secretName).toBe('flux-sample-curve');
    expect(find('Job', 'flux-sample-curve-cert').spec.template.spec.containers[0].env).toContainEqual({ name: 'CERTGEN_SECRET_NAME', value: 'flux-sample-curve' });
    // AND every object of the cluster, pods included, carries the cluster name as its instance, for
    // kubectl delete -l; the runtime programs, shared with the namespace's other clusters, carry none
    const shared = (d: any) => d.metadata.labels['app.kubernetes.io/component'] === 'runtime-program';
    expect(docs.filter(shared).map((d) => d.metadata.name)).toEqual([cluster.certificateJob!.programConfigMapName, expect.stringMatching(/^test-minicluster-handshake-[0-9a-f]{8}$/)]);
    for (const d of docs.filter(shared)) expect(d.metadata.labels['app.kubernetes.io/instance']).toBeUndefined();
    for (const d of docs.filter((o) => !shared(o))) expect(d.metadata.labels['app.kubernetes.io/instance']).toBe('flux-sample');
    expect(job.spec.template.metadata.labels['app.kubernetes.io/instance']).toBe('flux-sample');
    expectValidManifests(docs);
  });

  test('runId names the run; it is exclusive with hashJobName and must be a DNS label', () => {
    expect(synth({ ...hello, gitOps: { runId: '20260501' } }).cluster.jobName).toBe('flux-sample-20260501');
    expect(errorOf({ ...hello, gitOps: { runId: 'Run_1' } })).toContain('- gitOps.runId = "Run_1": must be lower-case letters, digits and \'-\'');
    expect(errorOf({ ...hello, gitOps: { runId: 'a', hashJobName: true } })).toContain('- gitOps.runId = "a": hashJobName and runId are mutually exclusive');
  });

  test('validation counts the suffix in the pod hostname length (<= 63)', () => {
    // GIVEN a 52-character name: '<name>-<8 hex>-<index>' is 63 characters up to 10 pods, 64 beyond
    // (in DNS handshake mode: the rendezvous Service '<job>-rendezvous' would not fit 63 characters)
    const name = 'a'.repeat(52);
    const dns = { ...hello, handshake: { mode: HandshakeMode.DNS } };
    expect(synth({ ...dns, size: 4, gitOps: { hashJobName: true } }, name).cluster.hostname(3)).toHaveLength(63);
    expect(errorOf({ ...dns, size: 4, maxSize: 100, gitOps: { hashJobName: true } }, name)).toContain(
      `- gitOps.hashJobName = true: pod hostname '${name}-xxxxxxxx-99' would have 64 characters, over 63; shorten the name to at most 51 characters or lower maxSize`);
    expect(errorOf({ ...hello, size: 4, gitOps: { hashJobName: true } }, name)).toContain(
      `- name = "${name}": the handshake's rendezvous Service '${name}-xxxxxxxx-rendezvous' would have 72 characters, over 63`);
    expect(errorOf({ ...dns, gitOps: { runId: 'build-12345' } }, name)).toContain(
      `- gitOps.runId = "build-12345": pod hostname '${name}-build-12345-3' would have 66 characters, over 63; shorten the name to at most 49 characters`);
  });
});

describe('GitOps: Argo CD and Flux CD annotations', () => {
  // The GitOps tools' annotations: the Job's day-2 annotations (flux-framework.org/*, docs/day2.md) are left out.
  const gitOpsOnly = (a: Record<string, string> = {}) => Object.fromEntries(Object.entries(a).filter(([k]) => !k.startsWith('flux-framework.org/')));
  const annotated = (docs: any[]) => docs.filter((d) => Object.keys(gitOpsOnly(d.metadata.annotations)).length > 0)
    .map((d) => [`${d.kind}/${d.metadata.name}`, gitOpsOnly(d.metadata.annotations)]);

  test('none by default', () => {
    expect(annotated(synth(hello).docs)).toEqual([]);
    expect(annotated(synth({ ...hello, gitOps: { hashJobName: true } }).docs)).toEqual([]);
  });

  test('Argo CD: Replace=true,Force=true on the Job only; the certificate Job as a PreSync hook, RBAC and its program first', () => {
    const { docs, cluster } = synth({ ...hello, gitOps: { argoCd: { replaceJob: true, certificateHook: true } } });
    const hook = (wave: string) => ({ 'argocd.argoproj.io/hook': 'PreSync', 'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation', 'argocd.argoproj.io/sync-wave': wave });
    // (the hook Job runs before any plain object exists, so its shared program is a hook too)
    expect(annotated(docs).sort()).toEqual([
      [`ConfigMap/${cluster.certificateJob!.programConfigMapName}`, hook('-1')],
      ['Job/flux-sample', { 'argocd.argoproj.io/sync-options': 'Replace=true,Force=true' }],
      ['Job/flux-sample-curve-cert', hook('0')],
      ['Role/flux-sample-curve-cert', hook('-1')],
      ['RoleBinding/flux-sample-curve-cert', hook('-1')],
      ['ServiceAccount/flux-sample-curve-cert', hook('-1')],
    ]);
    expectValidManifests(docs);
  });

  test('Flux CD: force on the Job only; create-once (ssa: IfNotPresent) on every certificate object', () => {
    const { docs } = synth({ ...hello, gitOps: { fluxCd: {} } });
    const once = { 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' };
    // (the shared program ConfigMap is immutable and named by its content: an apply never changes it)
    expect(annotated(docs).sort()).toEqual([
      ['Job/flux-sample', { 'kustomize.toolkit.fluxcd.io/force': 'enabled' }],
      ['Job/flux-sample-curve-cert', once],
      ['Role/flux-sample-curve-cert', once],
      ['RoleBinding/flux-sample-curve-cert', once],
      ['ServiceAccount/flux-sample-curve-cert', once],
    ]);
    const inline = synth({ ...hello, certificate: CertificateSource.insecureInline(createCurveCert({ name: 'flux-sample' })), gitOps: { fluxCd: { forceJob: false } } });
    expect(annotated(inline.docs)).toEqual([['Secret/flux-sample-curve', once]]);
  });
});

describe('Kueue', () => {
  test('queueName labels the Job and creates it suspended; suspend can be set either way', () => {
    const { job, docs } = synth({ ...hello, queueName: 'team-a-queue' });
    expect(job.metadata.labels['kueue.x-k8s.io/queue-name']).toBe('team-a-queue');
    expect(job.spec.suspend).toBe(true);
    // the pods and the certificate Job are not queued
    expect(job.spec.template.metadata.labels['kueue.x-k8s.io/queue-name']).toBeUndefined();
    expect(docs.find((d) => d.metadata.name === 'flux-sample-curve-cert' && d.kind === 'Job').metadata.labels['kueue.x-k8s.io/queue-name']).toBeUndefined();
    expect(synth({ ...hello, queueName: 'q', suspend: false }).job.spec.suspend).toBeUndefined();
    expect(synth({ ...hello, suspend: true }).job.spec.suspend).toBe(true);
    expect(synth(hello).job.spec.suspend).toBeUndefined();
    expectValidManifests(docs);
  });

  test('a bad queue name, or one that contradicts jobLabels, is rejected', () => {
    expect(errorOf({ ...hello, queueName: 'a b' })).toContain('- queueName = "a b": label value must be');
    expect(errorOf({ ...hello, queueName: 'a', jobLabels: { 'kueue.x-k8s.io/queue-name': 'b' } }))
      .toContain("- jobLabels.kueue.x-k8s.io/queue-name = \"b\": conflicts with queueName 'a'");
  });
});

describe('kustomize output', () => {
  const kubectl: Requirement = {
    met: spawnSync('kubectl', ['kustomize', '--help'], { encoding: 'utf8' }).status === 0,
    why: '`kubectl kustomize` is not available, so the kustomize builds are not tested: install kubectl (Google\'s apt repository package `kubectl`, or a kubectl release binary)',
  };

  const docsOf = (text: string) => parseAllDocuments(text).map((d) => d.toJSON()).filter(Boolean);
  const key = (d: any) => `${d.kind}/${d.metadata.namespace}/${d.metadata.name}`;

  test('Kustomization.render lists resources once each, in byte order, whatever the input order', () => {
    const text = Kustomization.render(['b.k8s.yaml', 'a-chart', 'B.k8s.yaml', 'b.k8s.yaml']);
    expect(text).toBe('apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - B.k8s.yaml\n  - a-chart\n  - b.k8s.yaml\n');
    expect(() => Kustomization.writeFiles(fs.mkdtempSync(path.join(os.tmpdir(), 'empty-')))).toThrow(/no \.k8s\.yaml files under .*: synthesize the app first/);
  });

  testEachIf(kubectl, [
    ['one file per chart', YamlOutputType.FILE_PER_CHART],
    ['one file per resource', YamlOutputType.FILE_PER_RESOURCE],
    ['a folder per chart, one file per resource', YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE],
  ])('%s: `kubectl kustomize` builds every object of every example, unchanged', (_, yamlOutputType) => {
    // GIVEN the examples synthesized in this layout, with kustomization files
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-'));
    const app = exampleApp(outdir) as App;
    (app as any).yamlOutputType = yamlOutputType;
    app.synth();
    const written = Kustomization.writeFiles(outdir);
    const expected = app.charts.flatMap((c) => c.toJson());
    // WHEN kustomize builds the directory
    const built = spawnSync('kubectl', ['kustomize', outdir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    // THEN it succeeds and yields exactly the synthesized objects
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    const docs = docsOf(built.stdout);
    expect(docs.map(key).sort()).toEqual(expected.map(key).sort());
    const byKey = new Map(docs.map((d) => [key(d), d]));
    for (const d of expected) expect(byKey.get(key(d))).toEqual(d);
    // AND writing again gives the same files (deterministic)
    const before = written.map((f) => fs.readFileSync(f, 'utf8'));
    expect(Kustomization.writeFiles(outdir)).toEqual(written);
    expect(written.map((f) => fs.readFileSync(f, 'utf8'))).toEqual(before);
    if (yamlOutputType === YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE) {
      // each chart folder is a kustomization of its own (a GitOps tool can point at one cluster)
      expect(written.map((f) => path.relative(outdir, f))).toEqual([
        'autoscale/kustomization.yaml', 'batch/kustomization.yaml', 'elastic/kustomization.yaml', 'hello-world/kustomization.yaml', 'image-volume/kustomization.yaml', 'interactive/kustomization.yaml',
        'kueue/kustomization.yaml', 'kustomization.yaml', 'launcher/kustomization.yaml', 'mpi/kustomization.yaml',
        'production/kustomization.yaml', 'volumes/kustomization.yaml',
      ]);
      const one = spawnSync('kubectl', ['kustomize', path.join(outdir, 'production')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(one.status).toBe(0);
      expect(docsOf(one.stdout).map(key).sort()).toEqual(expected.filter((d) => d.metadata.namespace === 'hpc'
        && (d.metadata.labels?.['app.kubernetes.io/instance'] === 'flux-prod' || d.metadata.name.startsWith('production-minicluster-'))).map(key).sort());
    }
  });

  testIf(kubectl, 'the committed dist/ builds with `kubectl kustomize dist`', () => {
    const built = spawnSync('kubectl', ['kustomize', path.join(__dirname, '..', 'dist')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    expect(docsOf(built.stdout).length).toBeGreaterThan(50);
  });
});

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'smol-toml';
import { parseAllDocuments } from 'yaml';
import { exampleApp } from '../examples/app';
import { Kustomization } from '../lib';
import { expectValidManifests } from './support/k8s-validate';
import { checkBashSyntax, expectCleanShellScript, testWithShellcheck } from './support/shell-check';

const DIST = path.join(__dirname, '..', 'dist');

/** Every file examples/main.ts writes (the charts and dist/kustomization.yaml), by name. */
function synthExamples(): Map<string, string> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'examples-'));
  exampleApp(outdir).synth();
  Kustomization.writeFiles(outdir);
  return new Map(fs.readdirSync(outdir).sort().map((f) => [f, fs.readFileSync(path.join(outdir, f), 'utf8')]));
}

const files = synthExamples();
const docsOf = (file: string) => parseAllDocuments(files.get(file)!).map((d) => d.toJSON()).filter(Boolean);

describe('examples', () => {
  test('dist/ is up to date (run `npx cdk8s synth` and commit dist/)', () => {
    const committed = fs.existsSync(DIST) ? fs.readdirSync(DIST).sort() : [];
    expect(committed).toEqual([...files.keys()]);
    for (const [file, text] of files) expect(fs.readFileSync(path.join(DIST, file), 'utf8')).toBe(text);
  });

  test('every example is synthesized, twice identically', () => {
    expect([...files.keys()]).toEqual(['autoscale.k8s.yaml', 'batch.k8s.yaml', 'elastic.k8s.yaml', 'hello-world.k8s.yaml', 'image-volume.k8s.yaml', 'interactive.k8s.yaml',
      'kueue.k8s.yaml', 'kustomization.yaml', 'launcher.k8s.yaml', 'mpi.k8s.yaml', 'production.k8s.yaml', 'volumes.k8s.yaml']);
    expect(synthExamples()).toEqual(files);
  });

  const charts = [...files.keys()].filter((f) => f.endsWith('.k8s.yaml'));
  const scriptsOf = (file: string): [string, string][] => docsOf(file).filter((d) => d.kind === 'ConfigMap')
    .flatMap((cm) => Object.entries<string>(cm.data).filter(([key]) => key.endsWith('.sh')).map(([key, text]): [string, string] => [`${file}:${key}`, text]));

  /** The Kubernetes version an example targets, where it is not the default 1.34. */
  const TARGETS: Record<string, string> = { 'image-volume.k8s.yaml': '1.35' };

  test.each(charts)('%s: every object is schema-valid and every script parses with bash -n', (file) => {
    expectValidManifests(docsOf(file), { kubernetesVersion: TARGETS[file] ?? '1.34' });
    expect(scriptsOf(file).flatMap(([name, text]) => checkBashSyntax(name, text))).toEqual([]);
  });

  for (const file of charts) {
    testWithShellcheck(`${file}: every script is shellcheck-clean`, () => {
      for (const [name, text] of scriptsOf(file)) expectCleanShellScript(name, text);
    });
  }

  test('hello world: Job, Service and ConfigMap, with the hostlist flux-sample-[0-3]', () => {
    const docs = docsOf('hello-world.k8s.yaml');
    const kinds = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    expect(kinds).toEqual(expect.arrayContaining(['Job/flux-sample', 'Service/flux-sample', 'ConfigMap/flux-sample-entrypoint']));
    const cm = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'flux-sample-entrypoint');
    expect((parse(cm.data['broker.toml']) as any).bootstrap.hosts).toEqual([{ host: 'flux-sample-[0-3]' }]);
  });

  test('image volume: the view image is mounted read-only at /opt/software and /opt/views, nothing is copied', () => {
    const job = docsOf('image-volume.k8s.yaml').find((d) => d.kind === 'Job' && d.metadata.name === 'flux-image-view');
    const pod = job.spec.template.spec;
    expect(pod.volumes.find((v: any) => v.name === 'flux-view-image').image)
      .toEqual({ reference: 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble', pullPolicy: 'IfNotPresent' });
    expect(pod.volumes.map((v: any) => v.name)).not.toContain('flux-software');
    expect(pod.containers[0].volumeMounts.filter((m: any) => m.name === 'flux-view-image')).toEqual([
      { name: 'flux-view-image', mountPath: '/opt/software', subPath: 'opt/software', readOnly: true },
      { name: 'flux-view-image', mountPath: '/opt/views', subPath: 'opt/views', readOnly: true },
      { name: 'flux-view-image', mountPath: '/mnt/flux-view-image', readOnly: true },
    ]);
    // The runner checks the volume and runs the handshake itself: the pod starts one container
    expect(pod.initContainers).toBeUndefined();
    expect(pod.containers.map((c: any) => c.name)).toEqual(['flux-image-view']);
    expect(pod.volumes.find((v: any) => v.name === 'flux-handshake-node').image.reference).toBe('docker.io/library/node:22.11.0-alpine3.20');
  });
});

/**
 * `cdk8s-minicluster synth`, run as the built command line on inline MiniCluster resources
 * (self-contained): output layouts, determinism, stdin/stdout, options, and malformed inputs that
 * must fail with one located message each and write nothing.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { expectValidManifests } from './support/k8s-validate';
import { cli, yamlDocuments } from './operator/support/run-cli';

const HELLO = `apiVersion: flux-framework.org/v1alpha2
kind: MiniCluster
metadata:
  name: hello
spec:
  size: 2
  logging:
    quiet: true
  containers:
    - image: ubuntu:noble
      command: echo hello world
`;

const LAMMPS = `# two clusters in one file
apiVersion: flux-framework.org/v1alpha2
kind: MiniCluster
metadata:
  name: lammps
  namespace: hpc
spec:
  size: 4
  tasks: 8
  containers:
    - image: ghcr.io/converged-computing/metric-lammps:latest
      command: lmp -in in.reaxc.hns
---
---
apiVersion: flux-framework.org/v1alpha2
kind: MiniCluster
metadata:
  name: hello
  namespace: other
spec:
  containers:
    - image: ubuntu:noble
`;

/** A fresh directory holding `files`. */
function workspace(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-synth-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** Every file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => fs.statSync(path.join(dir, p)).isFile()).sort();
}

const kindsAndNames = (docs: any[]) => docs.map((d) => `${d.kind}/${d.metadata.namespace}/${d.metadata.name}`);

describe('cdk8s-minicluster synth', () => {
  test('writes one file per cluster to dist/ by default, and lists what it wrote', () => {
    // GIVEN
    const dir = workspace({ 'hello.yaml': HELLO });
    // WHEN
    const run = cli(['synth', '-f', 'hello.yaml'], { cwd: dir });
    // THEN
    expect(run).toEqual({ code: 0, stdout: 'dist/hello.yaml\n', stderr: '' });
    expect(tree(dir)).toEqual(['dist/hello.yaml', 'hello.yaml']);
    const docs = yamlDocuments(fs.readFileSync(path.join(dir, 'dist', 'hello.yaml'), 'utf8'));
    expect(kindsAndNames(docs)).toEqual(expect.arrayContaining(['Job/default/hello', 'Service/default/hello', 'ConfigMap/default/hello-entrypoint']));
    expectValidManifests(docs);
  });

  test('several files and documents; names shared across namespaces are qualified; --split and --kustomize', () => {
    // GIVEN
    const dir = workspace({ 'hello.yaml': HELLO, 'more.yaml': LAMMPS });
    // WHEN
    const run = cli(['synth', '-f', 'hello.yaml', '-f', 'more.yaml', '-o', 'out', '--split', '--kustomize'], { cwd: dir });
    // THEN
    expect([run.code, run.stderr]).toEqual([0, '']);
    const files = tree(path.join(dir, 'out'));
    expect(files).toEqual(expect.arrayContaining([
      'default.hello/configmap-hello-entrypoint.yaml', 'default.hello/job-hello.yaml', 'default.hello/service-hello.yaml',
      'lammps/configmap-lammps-entrypoint.yaml', 'lammps/job-lammps.yaml', 'lammps/service-lammps.yaml',
      'other.hello/job-hello.yaml', 'kustomization.yaml',
    ]));
    const written = run.stdout.trim().split('\n');
    expect([...written].sort()).toEqual(files.map((f) => path.join('out', f)).sort());
    expect(written[written.length - 1]).toBe('out/kustomization.yaml');
    const kustomization = parse(fs.readFileSync(path.join(dir, 'out', 'kustomization.yaml'), 'utf8'));
    expect(kustomization).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: files.filter((f) => f !== 'kustomization.yaml'),
    });
    for (const f of files.filter((f) => f !== 'kustomization.yaml')) {
      const docs = yamlDocuments(fs.readFileSync(path.join(dir, 'out', f), 'utf8'));
      expect(docs).toHaveLength(1);
      expect(`${docs[0].kind.toLowerCase()}-${docs[0].metadata.name}.yaml`).toBe(path.basename(f));
    }
    const lammpsJob = parse(fs.readFileSync(path.join(dir, 'out', 'lammps', 'job-lammps.yaml'), 'utf8'));
    expect(lammpsJob.metadata.namespace).toBe('hpc');
    expect(lammpsJob.spec.parallelism).toBe(4);
  });

  test('is deterministic: the same input gives byte-identical files', () => {
    const dir = workspace({ 'more.yaml': LAMMPS });
    expect(cli(['synth', '-f', 'more.yaml', '-o', 'a'], { cwd: dir }).code).toBe(0);
    expect(cli(['synth', '-f', 'more.yaml', '-o', 'b'], { cwd: dir }).code).toBe(0);
    const a = tree(path.join(dir, 'a'));
    expect(a).toEqual(['hello.yaml', 'lammps.yaml']);
    for (const f of a) expect(fs.readFileSync(path.join(dir, 'b', f), 'utf8')).toBe(fs.readFileSync(path.join(dir, 'a', f), 'utf8'));
  });

  test('--stdout prints the stream of every cluster (the files, concatenated); - reads stdin', () => {
    // GIVEN
    const dir = workspace({ 'more.yaml': LAMMPS });
    cli(['synth', '-f', 'more.yaml', '-o', 'out'], { cwd: dir });
    // WHEN
    const run = cli(['synth', '-f', '-', '--stdout'], { cwd: dir, input: LAMMPS });
    // THEN
    expect([run.code, run.stderr]).toEqual([0, '']);
    const fromFiles = ['lammps.yaml', 'hello.yaml'].map((f) => fs.readFileSync(path.join(dir, 'out', f), 'utf8'));
    expect(run.stdout).toBe(fromFiles.join('---\n'));
    expect(tree(dir)).toEqual(['more.yaml', 'out/hello.yaml', 'out/lammps.yaml']);
  });

  test('-n sets the namespace of resources without one; --kubernetes-version and --ttl-seconds-after-finished reach every cluster', () => {
    const run = cli(['synth', '-f', '-', '--stdout', '-n', 'team-a', '--kubernetes-version', '1.27', '--ttl-seconds-after-finished', '300'], { input: HELLO });
    expect([run.code, run.stderr]).toEqual([0, '']);
    const docs = yamlDocuments(run.stdout);
    const job = docs.find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job');
    expect(job.metadata.namespace).toBe('team-a');
    expect(job.spec.ttlSecondsAfterFinished).toBe(300);
    expect(job.spec.successPolicy).toBeUndefined(); // not in 1.27
    expectValidManifests(docs, { kubernetesVersion: '1.27' });
    const current = yamlDocuments(cli(['synth', '-f', '-', '--stdout'], { input: HELLO }).stdout).find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job');
    expect(current.spec.successPolicy).toEqual({ rules: [{ succeededIndexes: '0' }] });
  });

  describe('--sidecar: a server beside Flux that must not keep the Job running', () => {
    const NGINX = `apiVersion: flux-framework.org/v1alpha2
kind: MiniCluster
metadata:
  name: web
spec:
  size: 2
  containers:
    - image: ubuntu:noble
      runFlux: true
      command: curl -s localhost
    - image: nginx
      name: nginx
      noWrapEntrypoint: true
      ports:
        - 80
`;
    const jobOf = (stdout: string) => yamlDocuments(stdout).find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job');

    test('GIVEN no --sidecar THEN nginx is a plain container and the warning says how to fix it', () => {
      const run = cli(['synth', '-f', '-', '--stdout'], { input: NGINX });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("spec.containers[1].ports = [80]: no Service 'nginx'");
      expect(run.stderr).toContain('run it as a native sidecar (synth --sidecar nginx)');
      expect(jobOf(run.stdout).spec.template.spec.containers.map((c: any) => c.name)).toEqual(['web', 'nginx']);
    });

    test('GIVEN --sidecar nginx THEN nginx is a native sidecar and the hint is gone', () => {
      const run = cli(['synth', '-f', '-', '--stdout', '--sidecar', 'nginx'], { input: NGINX });
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain('--sidecar');
      const pod = jobOf(run.stdout).spec.template.spec;
      expect(pod.containers.map((c: any) => c.name)).toEqual(['web']);
      expect(pod.initContainers.find((c: any) => c.name === 'nginx')).toMatchObject({ image: 'nginx', restartPolicy: 'Always' });
      expectValidManifests(yamlDocuments(run.stdout));
    });

    test.each<[string, string[], string]>([
      ['a name no cluster has', ['--sidecar', 'redis'], "--sidecar 'redis': no MiniCluster has a container of that name beside its Flux runner"],
      ['the Flux runner', ['--sidecar', 'web'], "--sidecar 'web': no MiniCluster has a container of that name beside its Flux runner"],
      ['Kubernetes 1.28', ['--sidecar', 'nginx', '--kubernetes-version', '1.28'],
        'web.yaml:12:13: document 1 (MiniCluster web): spec.containers[1].name = "nginx": --sidecar nginx: native sidecars need Kubernetes 1.29 or newer (--kubernetes-version)'],
    ])('GIVEN %s THEN an error and nothing written', (_, args, message) => {
      const dir = workspace({ 'web.yaml': NGINX });
      const run = cli(['synth', '-f', 'web.yaml', ...args], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`error: 1 problem; nothing was written:\n  ${message}`);
      expect(tree(dir)).toEqual(['web.yaml']);
    });
  });

  describe('--view-in-memory: the Flux view copied into memory', () => {
    const volumesOf = (stdout: string) => yamlDocuments(stdout)
      .find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job').spec.template.spec.volumes;

    test('GIVEN --view-in-memory THEN the view tree and the install tree are memory-backed emptyDirs', () => {
      const run = cli(['synth', '-f', '-', '--stdout', '--view-in-memory'], { input: HELLO });
      expect(run.code).toBe(0);
      const volumes = volumesOf(run.stdout);
      expect(volumes.find((v: any) => v.name === 'flux-software').emptyDir).toEqual({ medium: 'Memory' });
      expect(volumes.find((v: any) => v.name === 'flux-view-tree').emptyDir).toEqual({ medium: 'Memory' });
      expectValidManifests(yamlDocuments(run.stdout));
    });

    test('GIVEN no --view-in-memory THEN the copies go to the node\'s disk', () => {
      const volumes = volumesOf(cli(['synth', '-f', '-', '--stdout'], { input: HELLO }).stdout);
      expect(volumes.find((v: any) => v.name === 'flux-software').emptyDir).toEqual({});
      expect(volumes.map((v: any) => v.name)).not.toContain('flux-view-tree');
    });

    test('GIVEN --view-in-memory for a cluster whose image brings Flux THEN an error and nothing written', () => {
      const dir = workspace({ 'hello.yaml': HELLO.replace('spec:\n', 'spec:\n  flux:\n    container:\n      disable: true\n') });
      const run = cli(['synth', '-f', 'hello.yaml', '--view-in-memory'], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('(option --view-in-memory) = true: needs the view: flux.container.disable is true, so nothing is copied');
      expect(tree(dir)).toEqual(['hello.yaml']);
    });
  });

  describe('--view-source: where the pods\' Flux install comes from', () => {
    const jobOf = (stdout: string) => yamlDocuments(stdout)
      .find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job').spec.template.spec;

    test('GIVEN --view-source image-volume for 1.35 THEN the view image is a read-only image volume and nothing is copied', () => {
      const run = cli(['synth', '-f', '-', '--stdout', '--view-source', 'image-volume', '--kubernetes-version', '1.35'], { input: HELLO });
      expect(run.code).toBe(0);
      const pod = jobOf(run.stdout);
      expect(pod.volumes.find((v: any) => v.name === 'flux-view-image').image.reference).toBe('ghcr.io/converged-computing/flux-view-ubuntu:tag-noble');
      expect(pod.volumes.map((v: any) => v.name)).not.toContain('flux-software');
      expect(pod.containers[0].volumeMounts.filter((m: any) => m.name === 'flux-view-image').map((m: any) => [m.mountPath, m.subPath, m.readOnly]))
        .toEqual([['/opt/software', 'opt/software', true], ['/opt/views', 'opt/views', true], ['/mnt/flux-view-image', undefined, true]]);
      expectValidManifests(yamlDocuments(run.stdout), { kubernetesVersion: '1.35' });
    });

    test('GIVEN --view-source copy-to-memory THEN the same manifests as --view-in-memory', () => {
      const viaSource = cli(['synth', '-f', '-', '--stdout', '--view-source', 'copy-to-memory'], { input: HELLO });
      expect(viaSource.code).toBe(0);
      expect(viaSource.stdout).toBe(cli(['synth', '-f', '-', '--stdout', '--view-in-memory'], { input: HELLO }).stdout);
    });

    test.each([
      [['--view-source', 'image-volume', '--kubernetes-version', '1.34'], "(option --view-source) = \"image-volume\": needs Kubernetes 1.35 or newer, where image volumes are on by default (kubernetesVersion is 1.34); use 'copy-to-disk' or 'copy-to-memory' before"],
      [['--view-source', 'image-volume', '--kubernetes-version', '1.35', '--view-in-memory'], "(option --view-in-memory) = true: contradicts flux.container.source 'image-volume' (inMemory: true is source 'copy-to-memory'); set only source"],
    ])('GIVEN %j THEN an error naming the option, and nothing written', (args, message) => {
      const dir = workspace({ 'hello.yaml': HELLO });
      const run = cli(['synth', '-f', 'hello.yaml', ...args], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(message);
      expect(tree(dir)).toEqual(['hello.yaml']);
    });

    test('GIVEN an unknown --view-source THEN an option error listing the sources', () => {
      const run = cli(['synth', '-f', '-', '--stdout', '--view-source', 'nfs'], { input: HELLO });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("--view-source 'nfs': must be one of copy-to-disk, copy-to-memory, image-volume");
    });
  });

  test('warnings go to stderr and do not fail the run', () => {
    const run = cli(['synth', '-f', '-', '--stdout'], { input: HELLO.replace('spec:\n', 'spec:\n  flux:\n    minimalService: true\n') });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: <stdin>:7:21: document 1 \(MiniCluster hello\): spec\.flux\.minimalService = true: no effect: /);
    expect(yamlDocuments(run.stdout).length).toBeGreaterThanOrEqual(3);
  });

  describe('malformed input: one clear located message each, exit code 1, nothing written', () => {
    test.each<[string, string, string]>([
      ['a YAML syntax error (line:column)', 'apiVersion: flux-framework.org/v1alpha2\nkind: [MiniCluster\nmetadata: {}\n',
        'bad.yaml:3:1: document 1: YAML syntax error: '],
      ['a wrong kind', HELLO.replace('kind: MiniCluster', 'kind: Job'),
        'bad.yaml:2:7: document 1: kind = "Job": must be MiniCluster (apiVersion flux-framework.org/v1alpha2): only Flux Operator MiniCluster resources are converted, not kind "Job" (apiVersion flux-framework.org/v1alpha2)'],
      ['a wrong apiVersion', HELLO.replace('flux-framework.org/v1alpha2', 'flux-framework.org/v1beta1'),
        'bad.yaml:1:13: document 1 (MiniCluster hello): apiVersion = "flux-framework.org/v1beta1": must be flux-framework.org/v1alpha2'],
      ['a field of the wrong type', HELLO.replace('size: 2', 'size: four'),
        'bad.yaml:6:9: document 1 (MiniCluster hello): spec.size = "four": must be an integer (int32), got a string'],
      ['an invalid size', HELLO.replace('size: 2', 'size: 0'),
        'bad.yaml:6:9: document 1 (MiniCluster hello): spec.size = 0: must be an integer from 1 to 100000'],
      ['an unknown field', HELLO.replace('    quiet: true', '    quiet: true\n    verbose: true'),
        'bad.yaml:9:14: document 1 (MiniCluster hello): spec.logging.verbose = true: unknown field: not in the MiniCluster v1alpha2 schema, which has debug, quiet, strict, timed, zeromq here'],
      ['a duplicate key', HELLO.replace('  size: 2', '  size: 2\n  size: 3'),
        'bad.yaml:7:3: document 1: YAML syntax error: Map keys must be unique'],
      ['an empty file', '# nothing here\n', 'bad.yaml: no YAML documents (expected MiniCluster resources)'],
    ])('%s', (_, text, message) => {
      // GIVEN a valid file and a bad one
      const dir = workspace({ 'good.yaml': LAMMPS, 'bad.yaml': text });
      fs.mkdirSync(path.join(dir, 'out'));
      // WHEN
      const run = cli(['synth', '-f', 'good.yaml', '-f', 'bad.yaml', '-o', 'out', '--kustomize'], { cwd: dir });
      // THEN
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe('error: 1 problem; nothing was written:');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`  ${message}`);
      expect(tree(path.join(dir, 'out'))).toEqual([]);
    });

    test('every problem of every input at once, in input order', () => {
      const dir = workspace({ 'a.yaml': HELLO.replace('size: 2', 'size: -1').replace('image: ubuntu:noble', 'image: 3'), 'b.yaml': 'kind: Pod\n' });
      const run = cli(['synth', '-f', 'a.yaml', '-f', 'missing.yaml', '-f', 'b.yaml'], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        'error: 4 problems; nothing was written:',
        '  a.yaml:10:14: document 1 (MiniCluster hello): spec.containers[0].image = 3: must be a string, got an integer',
        '  a.yaml:6:9: document 1 (MiniCluster hello): spec.size = -1: must be an integer from 1 to 100000',
        '  missing.yaml: cannot read: no such file',
        '  b.yaml:1:7: document 1: kind = "Pod": must be MiniCluster (apiVersion flux-framework.org/v1alpha2): only Flux Operator MiniCluster resources are converted, not kind "Pod"',
      ]);
      expect(tree(dir)).toEqual(['a.yaml', 'b.yaml']);
    });

    test('the same cluster twice is an error naming both places', () => {
      const dir = workspace({ 'a.yaml': HELLO, 'b.yaml': `# copy\n${HELLO}` });
      const run = cli(['synth', '-f', 'a.yaml', '-f', 'b.yaml'], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('  b.yaml:5:9: document 1 (MiniCluster hello): duplicates the MiniCluster of a.yaml:1:1: document 1 (same name and namespace)');
      expect(tree(dir)).toEqual(['a.yaml', 'b.yaml']);
    });
  });

  test.each<[string[], string]>([
    [['synth'], '-f/--filename is required'],
    [['synth', '-f', 'x.yaml', '--stdout', '--split'], '--split needs files: it cannot be used with --stdout'],
    [['synth', '-f', 'x.yaml', '--stdout', '-o', 'out'], '--stdout and -o/--output exclude each other'],
    [['synth', '-f', 'x.yaml', '--kubernetes-version', '1.20'], "--kubernetes-version '1.20': must be 1.27 or newer"],
    [['synth', '-f', 'x.yaml', '--ttl-seconds-after-finished', 'soon'], "--ttl-seconds-after-finished 'soon': must be a whole number of seconds"],
    [['synth', '-f', 'x.yaml', '-n', 'Team_A'], "--namespace 'Team_A': must be a DNS-1123 label"],
    [['synth', '-f', 'x.yaml', '--sidecar', 'Web_1'], "--sidecar 'Web_1': must be a container name (a DNS-1123 label)"],
  ])('bad options %j: %s', (args, message) => {
    const dir = workspace();
    const run = cli(args, { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: invalid options:\n  - ${message}`);
    expect(tree(dir)).toEqual([]);
  });

  test('--help explains the command with examples', () => {
    const run = cli(['synth', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: cdk8s-minicluster synth [options]');
    for (const option of ['-f, --filename <file>', '-o, --output <dir>', '--stdout', '--split', '--kustomize', '--kubernetes-version <version>', '-n, --namespace <namespace>']) {
      expect(run.stdout).toContain(option);
    }
    expect(run.stdout).toContain('$ cdk8s-minicluster synth -f minicluster.yaml');
    expect(run.stdout).toContain('$ cat minicluster.yaml | cdk8s-minicluster synth -f - --stdout | kubectl apply -f -');
    expect(cli(['--help']).stdout).toMatch(/cert \[options\][\s\S]*synth \[options\][\s\S]*validate \[options\]/);
  });
});

/**
 * The package as a user meets it: the repository's files are copied into a clean directory (no
 * build/), packed with `npm pack` (which must build first), and the tarball is installed from the
 * npm registry's point of view into a fresh app laid out as `cdk8s init typescript-app` lays it out
 * (cdk8s, cdk8s-plus-33, constructs; its tsconfig.json, compiled with tsc). The app synthesizes
 * MiniClusters, and the installed `cdk8s-minicluster` command runs.
 *
 * Slow (a build, a pack and an `npm install` from the registry): `npm run test:package`, run by CI.
 */
import { execFileSync, spawnSync, SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import { builtinModules } from 'module';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const installedVersion = (name: string): string => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;

function run(cwd: string, command: string, args: string[], input?: string): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, input, encoding: 'utf8', env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' }, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result;
}

function ok(cwd: string, command: string, args: string[], input?: string): string {
  const result = run(cwd, command, args, input);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status} in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-minicluster-package-'));
const source = path.join(work, 'source');
const app = path.join(work, 'app');
let tarball = '';
let packed: { path: string; mode: number }[] = [];

beforeAll(() => {
  // A clean copy of what a clone holds (tracked files, and new ones not ignored): no build/. It
  // borrows the repository's node_modules for the build tools, as `npm ci` would install them.
  const files = ok(ROOT, 'git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter((f) => f && fs.existsSync(path.join(ROOT, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(source, f)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, f), path.join(source, f));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(source, 'node_modules'));
  expect(fs.existsSync(path.join(source, 'build'))).toBe(false);
  const [result] = JSON.parse(ok(source, 'npm', ['pack', '--json', '--pack-destination', work]));
  tarball = path.join(work, result.filename);
  packed = result.files;

  // The app `cdk8s init typescript-app` writes: its package.json dependencies, tsconfig.json, main.ts.
  fs.mkdirSync(app);
  const template = path.join(ROOT, 'node_modules', 'cdk8s-cli', 'templates', 'typescript-app');
  fs.copyFileSync(path.join(template, 'tsconfig.json'), path.join(app, 'tsconfig.json'));
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'hpc-app', version: '1.0.0', private: true, main: 'main.js' }, null, 2));
  fs.writeFileSync(path.join(app, 'main.ts'), APP);
  fs.writeFileSync(path.join(app, 'minicluster.yaml'), RESOURCE);
  ok(app, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball,
    `cdk8s@^${installedVersion('cdk8s')}`, `cdk8s-plus-33@^${installedVersion('cdk8s-plus-33')}`, `constructs@^${installedVersion('constructs')}`]);
  ok(app, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', `typescript@${installedVersion('typescript')}`, `@types/node@^${installedVersion('@types/node').split('.')[0]}`]);
}, 900000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A cdk8s app as a user writes it: two clusters sharing a namespace, cdk8s-plus objects, a JSON patch. */
const APP = `import { App, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-33';
import { MiniCluster, CertificateSource } from 'cdk8s-minicluster';

const app = new App();
const chart = new Chart(app, 'hpc', { namespace: 'hpc' });
const pull = kplus.Secret.fromSecretName(chart, 'pull', 'registry-creds');
const data = new kplus.PersistentVolumeClaim(chart, 'data', {});
for (const name of ['lammps-a', 'lammps-b']) {
  const cluster = new MiniCluster(chart, name, {
    size: 4,
    containers: [{ image: 'ghcr.io/converged-computing/metric-lammps:latest', command: 'lmp -in in.reaxc.hns', imagePullSecretRef: pull,
      volumes: { data: { persistentVolumeClaim: data, path: '/data' } } }],
  });
  cluster.job.addJsonPatch(JsonPatch.add('/spec/template/spec/priorityClassName', 'hpc'));
}
new MiniCluster(chart, 'existing', { certificate: CertificateSource.fromExistingSecret('sealed'), containers: [{ image: 'ubuntu:noble', command: 'hostname' }] });
app.synth();
`;

const RESOURCE = `apiVersion: flux-framework.org/v1alpha2
kind: MiniCluster
metadata:
  name: flux-sample
  namespace: hpc
spec:
  size: 2
  containers:
    - image: ubuntu:noble
      command: echo hello world
`;

describe('the packed package', () => {
  test('npm pack builds first: the tarball holds the library, its types, the runtime programs and the script templates; the command is executable', () => {
    const paths = packed.map((f) => f.path);
    for (const f of ['package.json', 'README.md', 'build/lib/index.js', 'build/lib/index.d.ts', 'build/runtime/handshake.js', 'build/runtime/certgen.js', 'lib/scripts/templates/entrypoint.sh']) {
      expect(paths).toContain(f);
    }
    expect(paths.filter((p) => p.startsWith('build/test/') || p.startsWith('build/examples/') || p.startsWith('test/'))).toEqual([]);
    for (const bin of Object.values<string>(pkg.bin)) {
      expect(packed.find((f) => f.path === bin)!.mode & 0o111).toBe(0o111);
      // the mode as tar stores it, the one npm install gives the file
      expect(ok(work, 'tar', ['-tvzf', tarball, `package/${bin}`])).toMatch(/^-rwxr-xr-x /);
    }
  });

  test('a cdk8s typescript-app compiles against the installed types and synthesizes the clusters', () => {
    ok(app, path.join('node_modules', '.bin', 'tsc'), ['-p', '.']);
    ok(app, 'node', ['main.js']);
    const docs = parseAllDocuments(fs.readFileSync(path.join(app, 'dist', 'hpc.k8s.yaml'), 'utf8')).map((d) => d.toJSON());
    const kinds = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    expect(kinds).toEqual(expect.arrayContaining(['Job/lammps-a', 'Job/lammps-b', 'Job/existing', 'Service/lammps-a', 'ConfigMap/lammps-a-entrypoint', 'PersistentVolumeClaim/' + docs.find((d) => d.kind === 'PersistentVolumeClaim').metadata.name]));
    // the runtime programs once for the namespace, from the installed package's bundles
    expect(kinds.filter((k) => /^ConfigMap\/hpc-minicluster-(handshake|certgen)-[0-9a-f]{8}$/.test(k))).toHaveLength(2);
    const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'lammps-a');
    expect(job.spec.template.spec.priorityClassName).toBe('hpc');
    expect(job.spec.template.spec.imagePullSecrets).toEqual([{ name: 'registry-creds' }]);
  });

  test('the installed cdk8s-minicluster command runs: --help, cert, synth -f', () => {
    const bin = path.join(app, 'node_modules', '.bin', 'cdk8s-minicluster');
    const help = ok(app, bin, ['--help']);
    for (const command of ['cert', 'synth', 'validate']) expect(help).toContain(command);
    expect(ok(app, bin, ['--version'])).toBe(`${pkg.version}\n`);
    expect(ok(app, bin, ['cert', '--cluster', 'flux-sample'])).toMatch(/secret-key = "/);
    expect(ok(app, bin, ['synth', '-f', 'minicluster.yaml', '-o', 'manifests'])).toBe(`${path.join('manifests', 'flux-sample.yaml')}\n`);
    const docs = parseAllDocuments(fs.readFileSync(path.join(app, 'manifests', 'flux-sample.yaml'), 'utf8')).map((d) => d.toJSON());
    expect(docs.map((d) => d.kind)).toEqual(expect.arrayContaining(['Job', 'Service', 'ConfigMap']));
    expect(run(app, bin, ['synth', '-f', 'missing.yaml']).status).toBe(1);
  });

  test('the installed kubectl plugin kubectl-minicluster runs, with the Kubernetes client bundled into the package', () => {
    const bin = path.join(app, 'node_modules', '.bin', 'kubectl-minicluster');
    const help = ok(app, bin, ['--help']);
    for (const command of ['status', 'wait', 'logs', 'scale', 'flux', 'check']) expect(help).toContain(command);
    expect(ok(app, bin, ['--version'])).toBe(`${pkg.version}\n`);
    // A kubeconfig naming a port nobody listens on: the client library loads, and says so (exit 4)
    fs.writeFileSync(path.join(app, 'kubeconfig'), 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9", insecure-skip-tls-verify: true}}]\n'
      + 'contexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\nusers: [{name: u, user: {token: t}}]\n');
    const status = run(app, bin, ['status', '--kubeconfig', 'kubeconfig']);
    expect(status.stderr).toBe('kubectl-minicluster: error: cannot reach the Kubernetes API server at https://127.0.0.1:9: ECONNREFUSED\n');
    expect(status.status).toBe(4);
  });

  test('npm ls --omit=dev: the package brings exactly what build/lib requires, and nothing is missing', () => {
    const tree = JSON.parse(ok(app, 'npm', ['ls', '--omit=dev', '--all', '--json']));
    const installed = tree.dependencies['cdk8s-minicluster'];
    const brought = Object.keys(installed.dependencies ?? {}).sort();
    // every bare module name build/lib requires, without Node's own
    const required = new Set<string>();
    const visit = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) visit(p);
        else if (e.name.endsWith('.js')) {
          // The bundled Kubernetes client (cli/day2/kubernetes-client.js) also tries, in try/catch,
          // optional modules its dependencies can use when present; they are not dependencies.
          const optional = p.endsWith(path.join('day2', 'kubernetes-client.js')) ? ['encoding', 'bufferutil', 'utf-8-validate'] : [];
          for (const m of fs.readFileSync(p, 'utf8').matchAll(/require\((["'])([^"'.][^"']*)\1\)/g)) {
            const name = m[2].startsWith('@') ? m[2].split('/').slice(0, 2).join('/') : m[2].split('/')[0];
            if (!builtinModules.includes(name) && !name.startsWith('node:') && !optional.includes(name)) required.add(name);
          }
        }
      }
    };
    visit(path.join(app, 'node_modules', 'cdk8s-minicluster', 'build', 'lib'));
    const declared = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].sort();
    expect([...required].sort()).toEqual(declared);
    // (npm ls lists the peers under the package too, deduped to the app's own)
    expect(brought).toEqual(declared);
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['cdk8s', 'constructs']);
    expect(execFileSync('npm', ['ls', '--omit=dev', '--all'], { cwd: app, encoding: 'utf8' })).not.toMatch(/cdk8s-plus-27|UNMET|missing|invalid/);
  });
});

#!/usr/bin/env node
// `npm run test:languages`: builds the jsii packages (`npm run package`), installs each into a fresh
// environment of its language, runs the examples in examples/{python,go,java}/ and checks that
// their YAML is byte-identical to the TypeScript hello world (dist/hello-world.k8s.yaml).
//
//   node tools/test-languages.js [--no-package] [python] [go] [java]
//
// --no-package reuses build/packages/. A language whose toolchain is missing is skipped, and said
// so. Everything is written under build/languages/ (Maven's downloads are kept in
// build/languages-cache/m2 between runs). Ends with `languages: N passed, N failed, N skipped`.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const packages = path.join(root, 'build', 'packages');
const work = path.join(root, 'build', 'languages');
const expected = fs.readFileSync(path.join(root, 'dist', 'hello-world.k8s.yaml'));

/**
 * The only cdk8s-core-go version the Go module proxy serves to this project's machines (v2.70.x
 * answer 403). The Go test replaces the version the module requires (the npm devDependency's) with
 * it; set MINICLUSTER_GO_CDK8S to another version, or to '' to keep the required one.
 */
const GO_CDK8S = process.env.MINICLUSTER_GO_CDK8S ?? 'v2.68.91';
const GO_MODULE = 'github.com/cdk8s-minicluster/cdk8s-minicluster-go/cdk8sminicluster';
const GO_CDK8S_MODULE = 'github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2';

// The jsii runtime (node, under every language) warns on each start that Node 20 is past its end of life.
const baseEnv = { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: process.versions.node.split('.')[0] };

const results = [];

class Failure extends Error {}

/** Runs a command; returns its stdout, or throws a Failure with its output. */
function run(command, args, options = {}) {
  const { cwd = root, env = {} } = options;
  const started = Date.now();
  const r = spawnSync(command, args, { cwd, env: { ...baseEnv, ...env }, encoding: 'utf8', maxBuffer: 64 << 20 });
  const took = ((Date.now() - started) / 1000).toFixed(1);
  if (r.error) throw new Failure(`${command} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Failure(`${command} ${args.join(' ')} exited ${r.status} after ${took} s:\n${output}`);
  }
  const shown = `${path.basename(command)} ${args.join(' ')}`;
  process.stdout.write(`    ${shown.length > 200 ? `${shown.slice(0, 197)}...` : shown}  (${took} s)\n`);
  return r.stdout;
}

/** Whether every command answers (the toolchain is installed). */
function missing(commands) {
  return commands.find(([command, args]) => {
    const r = spawnSync(command, args, { stdio: 'ignore', env: baseEnv });
    return r.error || r.status !== 0;
  });
}

/** The synthesized hello-world.k8s.yaml in `outdir` must equal the TypeScript one, byte for byte. */
function expectHelloWorld(outdir) {
  const file = path.join(outdir, 'hello-world.k8s.yaml');
  if (!fs.existsSync(file)) throw new Failure(`${file} was not written`);
  const actual = fs.readFileSync(file);
  if (!actual.equals(expected)) {
    const a = actual.toString('utf8').split('\n');
    const e = expected.toString('utf8').split('\n');
    const line = a.findIndex((l, i) => l !== e[i]);
    throw new Failure(`${file} differs from dist/hello-world.k8s.yaml (${actual.length} vs ${expected.length} bytes), first at line ${line + 1}:\n  got:      ${JSON.stringify(a[line])}\n  expected: ${JSON.stringify(e[line])}`);
  }
}

function expectIncludes(text, wanted, what) {
  for (const w of wanted) if (!text.includes(w)) throw new Failure(`${what} lacks ${JSON.stringify(w)}:\n${text}`);
}

function check(name, body) {
  const started = Date.now();
  process.stdout.write(`  ${name}\n`);
  try {
    body();
    results.push({ name, status: 'passed' });
    process.stdout.write(`  ok ${name} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    results.push({ name, status: 'failed' });
    process.stdout.write(`  FAILED ${name}: ${e.message}\n`);
  }
}

function skip(name, why) {
  results.push({ name, status: 'skipped' });
  process.stdout.write(`  skipped ${name}: ${why}\n`);
}

function fresh(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function onlyFile(dir, suffix) {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(suffix)) : [];
  if (files.length !== 1) throw new Failure(`expected one *${suffix} in ${dir}, found ${files.length}: run npm run package`);
  return path.join(dir, files[0]);
}

const LANGUAGES = {
  python() {
    const lack = missing([['python3', ['-c', 'import venv, ensurepip']]]);
    if (lack) return skip('python', `${lack[0]} (with venv) not found`);
    const dir = fresh(path.join(work, 'python'));
    const venv = path.join(dir, 'venv');
    const py = path.join(venv, 'bin', 'python');
    const examples = path.join(root, 'examples', 'python');
    let installed = false;
    check('python: install the wheel into a fresh venv (cdk8s, constructs and jsii from PyPI)', () => {
      run('python3', ['-m', 'venv', venv]);
      run(py, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', onlyFile(path.join(packages, 'python'), '.whl')]);
      installed = true;
    });
    if (!installed) return;
    check('python: hello world is byte-identical', () => {
      const outdir = path.join(dir, 'hello-world');
      run(py, [path.join(examples, 'hello_world.py')], { cwd: dir, env: { CDK8S_OUTDIR: outdir } });
      expectHelloWorld(outdir);
    });
    check('python: operator conversion from a dict, with its warnings and problems', () => {
      const outdir = path.join(dir, 'operator-conversion');
      const out = run(py, [path.join(examples, 'operator_conversion.py')], { cwd: dir, env: { CDK8S_OUTDIR: outdir } });
      expectIncludes(out, [
        'warning: spec.flux.minimalService = true: no effect',
        'converted: flux-sample size 4',
        'problem: spec.size - ',
        'problem: spec.tasks - ',
      ], 'its output');
      expectHelloWorld(outdir);
    });
    check('python: the cdk8s-minicluster command of the wheel runs', () => {
      const cli = path.join(venv, 'bin', 'cdk8s-minicluster');
      expectIncludes(run(cli, ['--help']), ['cert', 'synth', 'validate'], 'cdk8s-minicluster --help');
      const file = path.join(dir, 'flux-sample.yaml');
      fs.writeFileSync(file, 'apiVersion: flux-framework.org/v1alpha2\nkind: MiniCluster\nmetadata:\n  name: flux-sample\nspec:\n  size: 4\n  containers:\n    - image: ubuntu:noble\n      command: echo hello world\n');
      run(cli, ['validate', '-f', file]);
      expectIncludes(run(cli, ['synth', '-f', file, '--stdout']), ['kind: Job', 'name: flux-sample'], 'cdk8s-minicluster synth --stdout');
    });
  },

  go() {
    const lack = missing([['go', ['version']]]);
    if (lack) return skip('go', 'go not found');
    const dir = fresh(path.join(work, 'go'));
    check(`go: hello world is byte-identical (cdk8s-core-go ${GO_CDK8S || 'as required'} from the Go module proxy)`, () => {
      const module = path.join(packages, 'go', 'cdk8sminicluster');
      if (!fs.existsSync(path.join(module, 'go.mod'))) throw new Failure(`${module}/go.mod is missing: run npm run package`);
      fs.copyFileSync(path.join(root, 'examples', 'go', 'go.mod'), path.join(dir, 'go.mod'));
      fs.copyFileSync(path.join(root, 'examples', 'go', 'main.go'), path.join(dir, 'main.go'));
      run('go', ['mod', 'edit', `-replace=${GO_MODULE}=${module}`], { cwd: dir });
      if (GO_CDK8S) run('go', ['mod', 'edit', `-replace=${GO_CDK8S_MODULE}=${GO_CDK8S_MODULE}@${GO_CDK8S}`], { cwd: dir });
      run('go', ['mod', 'tidy'], { cwd: dir });
      const outdir = path.join(dir, 'hello-world');
      run('go', ['run', '.'], { cwd: dir, env: { CDK8S_OUTDIR: outdir } });
      expectHelloWorld(outdir);
    });
  },

  java() {
    const lack = missing([['mvn', ['-v']], ['java', ['-version']], ['javac', ['-version']]]);
    if (lack) return skip('java', `${lack[0]} not found`);
    const dir = path.join(work, 'java');
    fresh(dir);
    fs.cpSync(path.join(root, 'examples', 'java'), dir, { recursive: true });
    // Maven's own cache for this test, so the freshly built jar (always version 0.1.0) is the one used.
    const repo = path.join(root, 'build', 'languages-cache', 'm2');
    fs.rmSync(path.join(repo, 'io', 'github', 'cdk8s-minicluster'), { recursive: true, force: true });
    check('java: hello world is byte-identical (org.cdk8s:cdk8s from Maven Central)', () => {
      const local = path.join(packages, 'java');
      if (!fs.existsSync(local)) throw new Failure(`${local} is missing: run npm run package`);
      run('mvn', ['-B', '-q', `-Dmaven.repo.local=${repo}`, `-Dminicluster.repository=${new URL(`file://${local}`).href}`,
        'compile', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt'], { cwd: dir });
      const classpath = [path.join(dir, 'target', 'classes'), fs.readFileSync(path.join(dir, 'classpath.txt'), 'utf8').trim()].join(path.delimiter);
      const outdir = path.join(dir, 'hello-world');
      run('java', ['-cp', classpath, 'io.github.cdk8sminicluster.examples.HelloWorld'], { cwd: dir, env: { CDK8S_OUTDIR: outdir } });
      expectHelloWorld(outdir);
    });
  },
};

function main() {
  const args = process.argv.slice(2);
  const chosen = args.filter((a) => !a.startsWith('--'));
  for (const c of chosen) if (!(c in LANGUAGES)) throw new Error(`unknown language '${c}' (${Object.keys(LANGUAGES).join(', ')})`);
  const started = Date.now();
  if (!args.includes('--no-package')) {
    const r = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: 'inherit', env: baseEnv });
    if (r.status !== 0) {
      process.stdout.write('languages: npm run package failed\n0 passed, 1 failed\n');
      process.exit(1);
    }
  }
  for (const language of chosen.length > 0 ? chosen : Object.keys(LANGUAGES)) {
    process.stdout.write(`${language}\n`);
    LANGUAGES[language]();
  }
  const count = (s) => results.filter((r) => r.status === s).length;
  process.stdout.write(`\n${results.map((r) => `${r.status.padEnd(8)}${r.name}`).join('\n')}\n`);
  process.stdout.write(`(${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  process.stdout.write(`languages: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`);
  process.exitCode = count('failed') > 0 ? 1 : 0;
}

main();

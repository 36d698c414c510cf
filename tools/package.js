#!/usr/bin/env node
// `npm run package`: compiles lib/ with jsii and writes every language's package into
// build/packages/: js/ (the npm tarball), python/ (wheel and sdist), java/ (a Maven repository with
// the jar), go/ (the Go module's sources) and dotnet/ (C# sources). See docs/languages.md.
//
// jsii fails on any warning: the ones that are expected are silenced where they occur, each with
// its reason (`@jsii suppress` in lib/, SILENCED below), and the assembly must document every type
// and member (tools/check-assembly.js).
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { checkAssembly } = require('./check-assembly');

const root = path.resolve(__dirname, '..');
const outdir = path.join(root, 'build', 'packages');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * Warnings silenced for the whole project, with their reason. JSII6 (missing-dev-dependency) asks
 * for devDependencies pinned to the lowest version of each peer range; the tests run on the locked
 * newer versions instead, and the language tests on what each registry serves (see docs/languages.md).
 */
const SILENCED = ['metadata/missing-dev-dependency'];

// The jsii tools warn on every start that Node 20 is past its end of life; said once in docs/languages.md.
const env = { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: process.versions.node.split('.')[0] };

function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.stderr.write(`package: ${path.basename(command)} ${args.join(' ')} failed (exit ${result.status})\n`);
    process.exit(result.status ?? 1);
  }
}

/** Whether `command args` runs (a toolchain is there). */
function has(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore', env });
  return !result.error && result.status === 0;
}

function main() {
  const started = Date.now();
  fs.rmSync(outdir, { recursive: true, force: true });
  // jsii compiles incrementally; `npm run build` (tsc) writes the same folder, so start clean.
  fs.rmSync(path.join(root, 'build', 'tsconfig.tsbuildinfo'), { force: true });
  fs.rmSync(path.join(root, 'build', 'lib'), { recursive: true, force: true });

  run(bin('jsii'), ['--generate-tsconfig', 'tsconfig.jsii.json', '--fail-on-warnings', ...SILENCED.flatMap((w) => ['--silence-warnings', w])]);
  run('node', [path.join('tools', 'bundle-runtime.js')]);
  // The command must be executable inside the package (the Python console script runs it as is).
  run('node', [path.join('tools', 'make-bins-executable.js')]);

  const problems = checkAssembly(JSON.parse(fs.readFileSync(path.join(root, '.jsii'), 'utf8')));
  if (problems.length > 0) {
    process.stderr.write(`package: the jsii assembly lacks docs:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }

  // Built where the toolchain is there; otherwise (and always for Go and .NET) sources only.
  const built = ['js'];
  const sourcesOnly = ['go', 'dotnet'];
  for (const [target, ok, what] of [
    ['python', has('python3', ['-c', 'import venv, ensurepip']), 'python3 with venv'],
    ['java', has('mvn', ['-v']) && has('javac', ['-version']), 'mvn and javac'],
  ]) {
    if (ok) built.push(target);
    else {
      sourcesOnly.push(target);
      process.stderr.write(`package: ${target}: ${what} not found, writing sources only\n`);
    }
  }
  // npm pack inside jsii-pacmak must pack what jsii just compiled, not rebuild it with tsc.
  const pacmak = ['-o', outdir, '--no-npmignore'];
  run(bin('jsii-pacmak'), [...pacmak, ...built.flatMap((t) => ['-t', t])], { npm_config_ignore_scripts: 'true' });
  run(bin('jsii-pacmak'), [...pacmak, '--code-only', ...sourcesOnly.flatMap((t) => ['-t', t])], { npm_config_ignore_scripts: 'true' });

  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(`package: ${built.join(', ')} built, ${sourcesOnly.join(', ')} as sources, in build/packages/ (${seconds} s)\n`);
}

main();

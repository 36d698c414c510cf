/**
 * Checks a rendered shell script with `bash -n` (syntax) and `shellcheck` (shell bash, severity
 * warning or stricter). Calling the checks without shellcheck installed is an error, never a silent
 * pass. Tests that lint declare themselves with `testWithShellcheck`: on a machine with only Node and
 * npm (the README's `npm ci && npm test`) they are skipped under a name that says so, with a
 * warning; CI runs them again with shellcheck installed (.ci/run).
 */
import { spawnSync } from 'child_process';
import { Requirement, testIf } from './requires';

/** Whether `shellcheck` runs on this machine. */
export const SHELLCHECK_INSTALLED = spawnSync('shellcheck', ['--version'], { env: process.env, encoding: 'utf8' }).status === 0;

export const SHELLCHECK: Requirement = {
  met: SHELLCHECK_INSTALLED,
  why: 'shellcheck is not installed, so the rendered scripts are not linted (bash -n still runs): `apt-get install -y shellcheck` (CI\'s .ci/run does)',
};

/**
 * A jest test that needs shellcheck: a plain `test` when it is installed; otherwise a skipped test
 * whose name ends in `[skipped: shellcheck is not installed ...]`, and one warning per test file.
 */
export function testWithShellcheck(name: string, fn: jest.ProvidesCallback, timeout?: number): void {
  testIf(SHELLCHECK, name, fn, timeout);
}


/** Every finding as `<name>:<line>[:<column>]: <tool> <level> <code>: <message>`; empty when clean. */
export function checkShellScript(name: string, text: string): string[] {
  return [...checkBashSyntax(name, text), ...shellcheck(name, text)];
}

/** Fails (throws) with every finding listed when the script is not clean. */
export function expectCleanShellScript(name: string, text: string): void {
  const findings = checkShellScript(name, text);
  if (findings.length > 0) {
    throw new Error(`${findings.length} shell finding(s) in ${name}:\n  ${findings.join('\n  ')}`);
  }
}

function run(command: string, args: string[], input: string): { status: number | null; stdout: string; stderr: string } {
  // env passed explicitly: under jest, the test's process.env is a copy the child_process module does not see.
  const result = spawnSync(command, args, { input, env: process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) {
    const missing = (result.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? `${command} is not installed: run \`apt-get update && apt-get install -y ${command}\` (CI's .ci/run installs it)`
        : `${command} failed to start: ${result.error.message}`,
    );
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `bash -n` findings only: the part of the check every machine can run. */
export function checkBashSyntax(name: string, text: string): string[] {
  const { status, stderr } = run('bash', ['-n'], text);
  if (status === 0) return [];
  // bash reads the script from stdin and reports e.g. "bash: line 3: syntax error near ...".
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return [`${name}: bash -n: exited ${status} without a message`];
  return lines.map((l) => {
    const m = /^bash: line (\d+): (.*)$/.exec(l);
    return m ? `${name}:${m[1]}: bash -n error: ${m[2]}` : `${name}: bash -n error: ${l}`;
  });
}

interface ShellcheckComment {
  readonly line: number;
  readonly column: number;
  readonly level: string;
  readonly code: number;
  readonly message: string;
}

function shellcheck(name: string, text: string): string[] {
  // --norc: no .shellcheckrc from the working tree, so results depend on the script only.
  const { status, stdout, stderr } = run('shellcheck', ['--norc', '--shell=bash', '--severity=warning', '--format=json1', '-'], text);
  if (status !== 0 && status !== 1) throw new Error(`shellcheck exited ${status} on ${name}: ${stderr.trim()}`);
  const { comments } = JSON.parse(stdout) as { comments: ShellcheckComment[] };
  return comments
    .slice()
    .sort((a, b) => a.line - b.line || a.column - b.column || a.code - b.code)
    .map((c) => `${name}:${c.line}:${c.column}: shellcheck ${c.level} SC${c.code}: ${c.message}`);
}

/** Fails with every finding of every script (name to text). */
export function expectCleanShellScripts(scripts: Record<string, string>): void {
  const findings = Object.entries(scripts).flatMap(([name, text]) => checkShellScript(name, text));
  if (findings.length > 0) throw new Error(`${findings.length} shell finding(s):\n  ${findings.join('\n  ')}`);
}

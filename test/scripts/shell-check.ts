/**
 * Local stand-in for test/support/shell-check.ts (written by another helper): checks scripts with
 * `bash -n` and `shellcheck -s bash -S warning`. Many scripts are checked with one shellcheck run.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Every problem `bash -n` and shellcheck report for the scripts, prefixed with the script's name. */
export function shellProblems(scripts: Record<string, string>): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-check-'));
  try {
    const files: string[] = [];
    const problems: string[] = [];
    Object.entries(scripts).forEach(([name, text], i) => {
      const file = path.join(dir, `${i}-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`);
      fs.writeFileSync(file, text);
      files.push(file);
      const syntax = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
      if (syntax.status !== 0) problems.push(`${name}: bash -n: ${syntax.stderr.trim()}`);
    });
    const check = spawnSync('shellcheck', ['-s', 'bash', '-S', 'warning', '-f', 'gcc', ...files], { encoding: 'utf8' });
    if (check.error) {
      throw new Error(`cannot run shellcheck (${check.error.message}): install it with 'apt-get install -y shellcheck'`);
    }
    for (const line of check.stdout.split('\n').filter((l) => l !== '')) {
      const file = files.find((f) => line.startsWith(`${f}:`));
      const name = file ? Object.keys(scripts)[files.indexOf(file)] : '?';
      problems.push(`${name}: ${file ? line.slice(file.length + 1) : line}`);
    }
    if (check.status !== 0 && problems.length === 0) problems.push(`shellcheck failed: ${check.stderr.trim()}`);
    return problems;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Fails the test with every problem of every script. */
export function expectCleanShellScripts(scripts: Record<string, string>): void {
  expect(shellProblems(scripts)).toEqual([]);
}

/** Same signature as test/support/shell-check.ts, for one script. */
export function expectCleanShellScript(name: string, text: string): void {
  expectCleanShellScripts({ [name]: text });
}

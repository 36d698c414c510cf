/** Runs the built command line (build/lib/cli/main.js) as a real process. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

export const MAIN_JS = path.resolve(__dirname, '..', '..', '..', 'build', 'lib', 'cli', 'main.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node build/lib/cli/main.js ...args` in `cwd`, with `input` on stdin. */
export function cli(args: string[], options: { cwd?: string; input?: string } = {}): CliResult {
  if (!fs.existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run 'npm run build' first`);
  const result = spawnSync(process.execPath, [MAIN_JS, ...args], { encoding: 'utf8', cwd: options.cwd, input: options.input ?? '' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The documents of a YAML stream. */
export function yamlDocuments(text: string): any[] {
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length > 0) throw new Error(`invalid YAML output: ${d.errors[0].message}`);
    return d.toJS();
  });
}

/**
 * Runs the bundled certgen program (build/runtime/certgen.js) as a real process.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const CERTGEN_JS = path.resolve(__dirname, '..', '..', '..', 'build', 'runtime', 'certgen.js');

export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A service account directory like the one kubelet mounts (token, ca.crt, namespace). */
export function serviceAccountDir(token: string, ca: Buffer, namespace: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'certgen-sa-'));
  fs.writeFileSync(path.join(dir, 'token'), `${token}\n`);
  fs.writeFileSync(path.join(dir, 'ca.crt'), ca);
  fs.writeFileSync(path.join(dir, 'namespace'), namespace);
  return dir;
}

export function runCertgen(env: { [name: string]: string }): Promise<ProcessResult> {
  if (!fs.existsSync(CERTGEN_JS)) throw new Error(`${CERTGEN_JS} is missing: run 'npm run build' first`);
  return new Promise((resolve, reject) => {
    // Only the variables given (plus PATH): nothing from the developer's environment leaks in.
    const child = spawn(process.execPath, [CERTGEN_JS], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    // A safety net against a hung test run, not an assertion about speed.
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a built command line (`cdk8s-minicluster` or `kubectl-minicluster`) as a real process, against a kubeconfig. */
import { spawn } from 'child_process';
import * as path from 'path';

const BUILD = path.resolve(__dirname, '..', '..', 'build', 'lib', 'cli');
export const PLUGIN = path.join(BUILD, 'kubectl-minicluster.js');
export const MAIN = path.join(BUILD, 'main.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the plugin (or `main`) with KUBECONFIG set and HOME in `home`; resolves when it exits. */
export function runCli(args: string[], o: { kubeconfig: string; home: string; main?: boolean; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  const child = spawn(process.execPath, [o.main ? MAIN : PLUGIN, ...args], {
    env: { PATH: process.env.PATH, HOME: o.home, KUBECONFIG: o.kubeconfig, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

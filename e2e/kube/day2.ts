/**
 * A case's day-2 steps on a real cluster: the built `kubectl-minicluster` run as a process, with the
 * connection flags a user gives it, each step judged by its exit code and output.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import { Day2Step, MANIFESTS_FILE } from '../case';

/** The built plugin, beside the built runner (build/e2e/kube -> build/lib/cli). */
export const BUILT_PLUGIN = path.resolve(__dirname, '..', '..', 'lib', 'cli', 'kubectl-minicluster.js');

/** Where the steps connect to: the flags every command is given. */
export interface Day2Connection {
  readonly kubeconfig: string;
  readonly context: string;
  readonly namespace: string;
  /** The file of the case's objects (MANIFESTS_FILE in a step's args). */
  readonly manifests: string;
  /** The plugin to run. @default BUILT_PLUGIN */
  readonly plugin?: string;
}

/** One step's outcome, for the report. */
export interface Day2StepResult {
  readonly what: string;
  /** The command as a user types it (`kubectl minicluster ...`), without the connection flags. */
  readonly command: string;
  readonly exit: number | null;
  /** The exit code it had to end with. */
  readonly wanted: number;
  /** From its start to its exit (of the last try, with the tries before it). */
  readonly seconds: number;
  readonly tries: number;
  readonly pass: boolean;
  /** A line of what it printed, for the report: its error when it failed as wanted or not, else its first line of output. */
  readonly said: string;
}

/** The line of a run worth showing: the last line of stderr when it exited non-zero, else the first of stdout. */
export function saidLine(r: CliRun): string {
  const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
  const line = (r.code !== 0 ? lines(r.stderr).at(-1) : undefined) ?? lines(r.stdout)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The plugin's arguments: the connection flags after the command name, so that they come before a `--`. */
export function stepArgs(step: Day2Step, c: Day2Connection): string[] {
  const [command, ...rest] = step.args.map((a) => (a === MANIFESTS_FILE ? c.manifests : a));
  return [command, '--kubeconfig', c.kubeconfig, '--context', c.context, '-n', c.namespace, ...rest];
}

/** The step as a user types it, for the report. */
export function stepCommand(step: Day2Step): string {
  const word = (a: string) => (a === MANIFESTS_FILE ? 'FILE' : /^[\w@%+=:,./{}-]+$/.test(a) ? a : `'${a}'`);
  return `kubectl minicluster ${step.args.map(word).join(' ')}`;
}

/** What a run of the plugin did. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What is wrong with a run of the step: its exit code, its output, its JSON. */
export function judgeStep(step: Day2Step, r: CliRun): string[] {
  const problems: string[] = [];
  const wanted = step.exit ?? 0;
  const shown = () => `\n    stdout: ${r.stdout.trim().split('\n').join('\n    | ')}\n    stderr: ${r.stderr.trim().split('\n').join('\n    | ')}`;
  if (r.code !== wanted) problems.push(`exited ${r.code}, expected ${wanted}${shown()}`);
  for (const p of step.stdout ?? []) if (!p.test(r.stdout)) problems.push(`stdout does not match ${p}${shown()}`);
  for (const p of step.stderr ?? []) if (!p.test(r.stderr)) problems.push(`stderr does not match ${p}${shown()}`);
  if (step.json && r.code === wanted) {
    let doc: unknown;
    try {
      doc = JSON.parse(r.stdout);
    } catch (e) {
      problems.push(`stdout is not JSON: ${(e as Error).message}${shown()}`);
    }
    if (doc !== undefined) problems.push(...step.json(doc).map((p) => `${p}${shown()}`));
  }
  return problems;
}

/** Runs the plugin (never throws): killed after `timeoutSeconds`, which is then exit null. */
export function runPlugin(plugin: string, args: string[], timeoutSeconds: number): Promise<CliRun> {
  // Asynchronous: the case's run keeps polling the cluster while a step waits on it.
  const child = spawn(process.execPath, [plugin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => {
    stderr += `(killed after ${timeoutSeconds} s)`;
    child.kill('SIGKILL');
  }, timeoutSeconds * 1000);
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    resolve({ code, stdout, stderr });
  }));
}

const RETRY_MS = 2000;

/**
 * Runs the steps in order until one fails: each step starts from the state the ones before left
 * (a cluster that failed would only make every later step fail, slowly where they retry). The
 * problem of the failed step, and the result of each step run.
 */
export async function runDay2Steps(steps: Day2Step[], c: Day2Connection, log: (line: string) => void = () => undefined): Promise<{ problems: string[]; results: Day2StepResult[] }> {
  const problems: string[] = [];
  const results: Day2StepResult[] = [];
  for (const step of steps) {
    const timeout = step.timeoutSeconds ?? 180;
    const started = Date.now();
    let tries = 0;
    let r: CliRun;
    let wrong: string[];
    for (;;) {
      tries++;
      const left = Math.max(1, timeout - (Date.now() - started) / 1000);
      r = await runPlugin(c.plugin ?? BUILT_PLUGIN, stepArgs(step, c), left);
      wrong = judgeStep(step, r);
      if (!wrong.length || !step.retry || Date.now() - started + RETRY_MS > timeout * 1000) break;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const command = stepCommand(step);
    log(`day-2: ${command}: exit ${r.code} in ${seconds} s${tries > 1 ? ` (${tries} tries)` : ''}`);
    results.push({ what: step.what, command, exit: r.code, wanted: step.exit ?? 0, seconds, tries, pass: !wrong.length, said: saidLine(r) });
    if (wrong.length) {
      problems.push(`day-2 '${step.what}' (${command}): ${wrong.join('; ')}`);
      if (steps.length > results.length) problems.push(`day-2: the ${steps.length - results.length} step(s) after it did not run`);
      break;
    }
  }
  return { problems, results };
}

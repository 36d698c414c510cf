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

/** What is wrong with a run of the step: its exit code, its output, its JSON (the output itself is shown once, by `shownOutput`). */
export function judgeStep(step: Day2Step, r: CliRun): string[] {
  const problems: string[] = [];
  const wanted = step.exit ?? 0;
  if (r.code !== wanted) problems.push(`exited ${r.code}, expected ${wanted}`);
  for (const p of step.stdout ?? []) if (!p.test(r.stdout)) problems.push(`stdout does not match ${p}`);
  for (const p of step.stderr ?? []) if (!p.test(r.stderr)) problems.push(`stderr does not match ${p}`);
  if (step.json && r.code === wanted) {
    const doc = parseJson(r.stdout);
    if (doc === undefined) problems.push('stdout is not JSON');
    else problems.push(...step.json(doc));
  }
  return problems;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The run's output for a failure's message: each stream, its first `max` lines. */
export function shownOutput(r: CliRun, max = 30): string {
  const stream = (name: string, text: string) => {
    const lines = text.trimEnd().split('\n');
    const cut = lines.length > max ? [...lines.slice(0, max), `(${lines.length - max} more lines)`] : lines;
    return `\n    ${name}:${cut.map((l) => `\n    | ${l}`).join('')}`;
  };
  return stream('stdout', r.stdout) + stream('stderr', r.stderr);
}

/** The line of a text where `pattern` first matches. */
function matchedLine(text: string, pattern: RegExp | undefined): string | undefined {
  const m = pattern ? new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(text) : null;
  if (!m) return undefined;
  const from = text.lastIndexOf('\n', m.index - 1) + 1;
  const to = text.indexOf('\n', m.index + Math.max(0, m[0].length - 1));
  return text.slice(from, to === -1 ? undefined : to);
}

/** The fields of a `status -o json` document worth a line of the report. */
const SUMMARY_FIELDS = ['state', 'brokers', 'size', 'problems'];

/**
 * The line of a run worth showing in the report: on a non-zero exit, its error (the line the first
 * stderr pattern matched, else the last); else, for JSON, its main fields; else the line the first
 * stdout pattern matched, else the first.
 */
export function saidLine(step: Day2Step, r: CliRun): string {
  const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
  let line: string | undefined;
  if (r.code !== 0) line = matchedLine(r.stderr, step.stderr?.[0]) ?? lines(r.stderr).at(-1);
  const doc = step.json ? parseJson(r.stdout) : undefined;
  if (line === undefined && doc && typeof doc === 'object') {
    line = JSON.stringify(Object.fromEntries(SUMMARY_FIELDS.filter((k) => k in doc).map((k) => [k, (doc as Record<string, unknown>)[k]])));
  }
  line = (line ?? matchedLine(r.stdout, step.stdout?.[0]) ?? lines(r.stdout)[0] ?? '').trim().replace(/\s+/g, ' ');
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
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
    results.push({ what: step.what, command, exit: r.code, wanted: step.exit ?? 0, seconds, tries, pass: !wrong.length, said: saidLine(step, r) });
    if (wrong.length) {
      problems.push(`day-2 '${step.what}' (${command}): ${wrong.join('; ')}${shownOutput(r)}`);
      if (steps.length > results.length) problems.push(`day-2: the ${steps.length - results.length} step(s) after it did not run`);
      break;
    }
  }
  return { problems, results };
}

/**
 * Runs one end-to-end case: synthesize, add what the user adds, run the Job (in podemu, or on a
 * real cluster with --kubeconfig), check.
 */
import * as fs from 'fs';
import * as path from 'path';
import { E2eCase, Expectation } from './case';
import { brokerNodes } from './broker-nodes';
import { certificateSecret } from './certificate';
import { checkRun, monitorFellBehind } from './checks';
import { faultOutcome, faultsSettled } from './faults';
import { Day2StepResult, runDay2Steps } from './kube/day2';
import { probeIsolation } from './kube/isolation';
import { KubeCaseRun, startKubeCase } from './kube/start';
import { NodeControl } from './kube/node-faults';
import { KubeTarget } from './kube/target';
import { JobFacts, jobFacts, readDocs, writeDocs } from './manifests';
import { ExecResult, execInContainer, findContainerInit } from './pod-exec';
import { Engines, PodemuRun, Summary } from './podemu';

const DEFAULT_TIMEOUT_SECONDS = 180;

/** Where a case runs: the pod emulator, or a real cluster in a namespace of the case's own. */
export type Target =
  | { readonly kind: 'podemu'; readonly engines: Engines }
  | { readonly kind: 'kube'; readonly kube: KubeTarget; readonly namespace: string; readonly keep?: boolean; readonly nodeControl?: NodeControl; readonly serverMinor?: number };

/** The outcome of one case. */
export interface CaseResult {
  readonly id: string;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly problems: string[];
  /** The first pod's start (podemu) or creation (a cluster) -> Job success, when it succeeded. */
  readonly wallSeconds?: number | null;
  /** Brokers that came up, of the pods the Job ran. */
  readonly brokers?: string;
  readonly summary?: Summary;
  readonly logs?: string;
  /** Seconds from the last injected fault to recovery or to the Job's end (fault cases), per run. */
  readonly faultSeconds?: Array<number | null>;
  /** A real cluster: seconds from `kubectl delete namespace` to the namespace gone. */
  readonly namespaceSeconds?: number;
  /** What the runner changed for the target (a real cluster's requests scaled down), for the report. */
  readonly notes?: string[];
  /** The case's `kubectl minicluster` commands (a real cluster), in the order run. */
  readonly day2?: Day2StepResult[];
  /** A real cluster: each node and the ranks that ran on it. */
  readonly nodes?: string;
  /** The measurements the exec steps printed (ExecStep.measured), in step order. */
  readonly measured?: string[];
}

/** A Job run in progress, in podemu or on a cluster. */
interface JobRun {
  finished(): Promise<Summary>;
  interrupt(): void;
  /** The timeline so far, in podemu's events.log format. */
  events(): string;
  /** `kubectl exec` of a bash script into the lead's Flux runner. */
  exec(script: string, timeoutSeconds: number): Promise<ExecResult>;
}

/** Polls `check` every 250 ms until it holds (true), the time runs out or the run ended (false). */
async function until(check: () => boolean, timeoutSeconds: number, ended: () => boolean): Promise<boolean> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  while (Date.now() < deadline && !ended()) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** Whether `count` brokers are up according to the run's timeline. */
function brokersUp(run: JobRun, count: number): boolean {
  const ranks = new Set([...run.events().matchAll(/flux-broker \(rank (\d+)\) (?:listening|connected to its parent)/g)].map((m) => m[1]));
  return ranks.size >= count;
}

/** The expectation on this target: a case may say what differs on a real cluster. */
export function expectationFor(c: E2eCase, target: Target['kind'], serverMinor?: number): Expectation {
  if (target !== 'kube') return c.expect;
  const older = c.kube?.beforeMinor && serverMinor !== undefined && serverMinor < c.kube.beforeMinor.minor ? c.kube.beforeMinor.expect : undefined;
  return c.kube?.expect || older ? { ...c.expect, ...c.kube?.expect, ...older } : c.expect;
}

/** Why the case is skipped on an API server of 1.`serverMinor` (its `kube.fromMinor`), or undefined. */
export function versionSkip(c: E2eCase, serverMinor?: number): string | undefined {
  const from = c.kube?.fromMinor;
  if (!from || serverMinor === undefined || serverMinor >= from.minor) return undefined;
  return `needs Kubernetes 1.${from.minor} or newer, this API server is 1.${serverMinor}: ${from.why}`;
}

/** Runs the case in `dir` (replaced). */
export async function runCase(c: E2eCase, target: Target, dir: string): Promise<CaseResult> {
  fs.rmSync(dir, { recursive: true, force: true });
  const manifestsDir = path.join(dir, 'manifests');
  fs.mkdirSync(manifestsDir, { recursive: true });
  const docs = readDocs(c.synth(manifestsDir));
  c.patch?.apply(docs);
  if (target.kind === 'kube') c.kube?.patch?.apply(docs);
  const facts = jobFacts(docs);
  const expect = expectationFor(c, target.kind, target.kind === 'kube' ? target.serverMinor : undefined);
  const timeout = c.podemu?.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  const logs = path.join(dir, 'logs');
  // A real cluster's extra time counts for the waits before the exec steps too (a lost node's pods are freed late).
  const limit = timeout + (target.kind === 'kube' ? c.kube?.extraSeconds ?? 0 : 0);
  const kube = target.kind === 'kube' ? await startKubeCase(c, target.kube, target.namespace, docs, facts, dir, limit, target.nodeControl) : undefined;
  const run: JobRun = kube?.run ?? podemuRun(c, (target as { engines: Engines }).engines, dir, docs, facts, timeout);
  let ended = false;
  const finished = run.finished().finally(() => {
    ended = true;
  });
  const during: string[] = [];
  let day2: Day2StepResult[] | undefined;
  const measured: string[] = [];
  if (c.day2) {
    if (!kube) throw new Error('day-2 steps need an API server: skip the case on podemu');
    const steps = await day2Steps(c, kube);
    during.push(...steps.problems);
    day2 = steps.results;
    // A cluster that stays up is ended once the commands ran; a Job that ends is waited for.
    if (expect.result === 'Interrupted') run.interrupt();
  } else if (expect.exec) {
    const log = path.join(dir, 'exec.log');
    // A queued cluster preempted on purpose: the exec steps run once it came back after the last preemption.
    const kueue = kube?.run.kueue;
    if (kueue && !await until(() => kueue.settled() && kube!.run.leadRunning(), limit, () => ended)) during.push('the cluster was not admitted again after its last preemption, or its lead never ran');
    during.push(...await execSteps(c, expect, run, facts, limit, () => ended, log, measured));
    if (expect.isolated && target.kind === 'kube' && !ended) {
      const probed = await probeIsolation(target.kube, target.namespace, facts.name, facts.runner);
      fs.appendFileSync(log, `--- isolation\n${probed.lines.join('\n')}\n`);
      during.push(...probed.problems);
    }
    run.interrupt();
  } else if (expect.stopAfterSeconds !== undefined) {
    await until(() => false, expect.stopAfterSeconds, () => ended);
    run.interrupt();
  }
  const summary = await finished;
  const problems = checkRun({ expect, summary, logs, runner: facts.runner, pods: facts.pods, during });
  const fault = c.faults ? faultOutcome(c.faults, summary) : undefined;
  problems.push(...fault?.problems ?? []);
  problems.push(...kube?.run.kueue?.problems() ?? []);
  let namespaceSeconds: number | undefined;
  if (kube && !(target.kind === 'kube' && target.keep)) {
    const gone = await kube.cleanup();
    if (gone.problem) problems.push(gone.problem);
    namespaceSeconds = gone.seconds;
  }
  const up = summary.pods.filter((p) => p.broker && (p.broker.listen !== null || p.broker.connected_to_parent !== null));
  return {
    id: c.id,
    status: problems.length === 0 ? 'pass' : 'fail',
    problems,
    wallSeconds: summary.wall_time_s,
    brokers: `${new Set(up.map((p) => p.index)).size}/${facts.pods}${monitorFellBehind(summary) ? ` seen by podemu (its socket samples up to ${summary.tcp_sample_interval_max_s} s apart)` : ''}`,
    summary,
    logs,
    faultSeconds: fault ? [fault.seconds] : undefined,
    namespaceSeconds,
    notes: kube && (kube.notes.length || kube.run.kueue) ? [...kube.notes, ...(kube.run.kueue ? [`Kueue: ${kube.run.kueue.summary()}`] : [])] : undefined,
    day2,
    measured: measured.length ? measured : undefined,
    nodes: brokerNodes(summary.pods),
  };
}

/** The case's day-2 commands: those run before apply, then, once every object is created, the others. */
async function day2Steps(c: E2eCase, kube: KubeCaseRun): Promise<{ problems: string[]; results: Day2StepResult[] }> {
  const problems = [...kube.beforeApply.problems];
  try {
    await kube.run.applied();
  } catch (e) {
    return { problems: [...problems, `the objects were not created, so the day-2 commands did not run: ${(e as Error).message}`], results: kube.beforeApply.results };
  }
  const after = await runDay2Steps(c.day2!.afterApply, kube.day2);
  return { problems: [...problems, ...after.problems], results: [...kube.beforeApply.results, ...after.results] };
}

/** The case's Job in podemu, with its certificate Secret and volume content. */
function podemuRun(c: E2eCase, engines: Engines, dir: string, docs: any[], facts: JobFacts, timeout: number): JobRun {
  const manifests = [writeDocs(path.join(dir, 'run.yaml'), docs)];
  if (c.userObjects) manifests.push(writeDocs(path.join(dir, 'user-objects.yaml'), c.userObjects));
  const hasSecret = docs.some((d) => d.kind === 'Secret' && d.metadata?.name === facts.certificateSecret);
  const extraSecrets = facts.certificateSecret && !hasSecret ? [certificateSecret(dir, { secret: facts.certificateSecret, cluster: facts.cluster, namespace: facts.namespace })] : [];
  const workdir = path.join(dir, 'work');
  for (const seed of c.volumes ?? []) {
    const target = path.join(workdir, 'shared', seed.podemuKey);
    fs.mkdirSync(target, { recursive: true });
    for (const [name, text] of Object.entries(seed.files)) fs.writeFileSync(path.join(target, name), text);
  }
  const run = new PodemuRun(engines, {
    manifests,
    job: facts.name,
    extraSecrets,
    logs: path.join(dir, 'logs'),
    workdir,
    timeout,
    stagger: c.podemu?.stagger,
    imageRoots: imageRoots(c, dir),
    evict: c.faults?.evict,
    crash: c.faults?.crash,
  });
  return {
    finished: () => run.finished(),
    interrupt: () => run.interrupt(),
    events: () => run.events(),
    exec: async (script, seconds) => {
      const lead = findContainerInit(`${facts.name}-0`, 'flux-broker-0');
      if (!lead) return { status: null, stdout: '', stderr: `no flux-broker-0 process with HOSTNAME=${facts.name}-0 was found` };
      return execInContainer(lead, script, seconds);
    },
  };
}

/** The case's podemu image roots, a relative directory made (empty) in the case's directory. */
function imageRoots(c: E2eCase, dir: string): Record<string, string> | undefined {
  const roots = c.podemu?.imageRoots;
  if (!roots) return undefined;
  return Object.fromEntries(Object.entries(roots).map(([ref, root]) => {
    if (path.isAbsolute(root)) return [ref, root];
    const made = path.join(dir, root);
    fs.mkdirSync(made, { recursive: true });
    return [ref, made];
  }));
}

/** The case's `kubectl exec` steps in the lead's Flux container, once every broker is up. */
async function execSteps(c: E2eCase, expect: Expectation, run: JobRun, facts: JobFacts, timeout: number, ended: () => boolean, log: string, measured: string[]): Promise<string[]> {
  const wanted = expect.execAfterBrokers ?? facts.pods;
  if (!await until(() => brokersUp(run, wanted), timeout, ended)) return [`${wanted} brokers never came up, so the exec steps did not run`];
  const faults = c.faults;
  if (faults && !await until(() => faultsSettled(faults, run.events()), timeout, ended)) {
    return ['the faults did not act, or an evicted index never came back, so the exec steps did not run'];
  }
  const problems: string[] = [];
  for (const step of expect.exec ?? []) {
    const r = await run.exec(step.script, step.timeoutSeconds ?? 120);
    // What each step printed (measured times among it), kept with the run.
    fs.appendFileSync(log, `--- ${step.what} (exit ${r.status})\n${r.stdout}${r.stderr ? `--- stderr\n${r.stderr}` : ''}`);
    if (step.measured) measured.push(...r.stdout.split('\n').filter((l) => step.measured!.test(l)));
    if (r.status !== 0) {
      problems.push(`exec '${step.what}' exited ${r.status}: ${r.stderr.trim()}`);
      continue;
    }
    for (const pattern of step.output) {
      if (!pattern.test(r.stdout)) problems.push(`exec '${step.what}': output does not match ${pattern}:\n${r.stdout}`);
    }
  }
  return problems;
}

/** Compares what podemu recorded with what a user would check; every mismatch is one message. */
import { Expectation } from './case';
import { PodRecord, Summary, containerLog } from './podemu';

/** What a run is checked against: the expectation and facts of the synthesized Job. */
export interface CheckInput {
  readonly expect: Expectation;
  readonly summary: Summary;
  readonly logs: string;
  /** The Flux runner container's name (the one running entrypoint.sh). */
  readonly runner: string;
  /** Pods the Job runs (completions). */
  readonly pods: number;
  /** Problems found while the run was going on (failed exec steps). */
  readonly during?: string[];
}

/** Empty when the run is what was expected. */
export function checkRun(input: CheckInput): string[] {
  const { expect, summary, logs, runner } = input;
  const problems = [...input.during ?? []];
  if (summary.result !== expect.result) {
    problems.push(`Job result ${summary.result} (${summary.reason ?? 'no reason'}), expected ${expect.result}`);
  }
  if (expect.reason && !expect.reason.test(summary.reason ?? '')) {
    problems.push(`Job reason '${summary.reason}' does not match ${expect.reason}`);
  }
  // A connection podemu did not see says nothing when it fell behind and the output proves it.
  if (expect.noBrokers) problems.push(...noBrokerProblems(summary));
  else problems.push(...brokerProblems(summary, input.pods, !(expect.everyBrokerInOutput && monitorFellBehind(summary))));
  if (expect.ranksOnDistinctNodes) {
    const byNode = new Map<string, number[]>();
    for (const p of summary.pods) if (p.node) byNode.set(p.node, [...byNode.get(p.node) ?? [], p.index]);
    for (const [n, ranks] of byNode) if (new Set(ranks).size > 1) problems.push(`ranks ${[...new Set(ranks)].join(', ')} share node ${n}, expected one rank per node`);
  }
  if (expect.readyMeansConnected) {
    // Ready times against connection times read from Ready would prove nothing.
    if (summary.broker_times === 'ready') problems.push('no broker connection times (the lead\'s log could not be read): the readiness check needs them');
    else problems.push(...readinessProblems(summary, input.pods, expect.readyMeansConnected));
  }

  const lead = containerLog(logs, summary, 0, runner);
  const leadExit = lastRun(summary, 0, runner)?.exit_code;
  const wantedExit = expect.leadExit ?? (expect.result === 'Succeeded' ? 0 : undefined);
  if (wantedExit !== undefined && leadExit !== wantedExit) {
    problems.push(`lead container ${runner} exited ${leadExit}, expected ${wantedExit}`);
  }
  if (expect.leadOutputExactly !== undefined && lines(lead) !== lines(expect.leadOutputExactly)) {
    problems.push(`lead output differs from the expected text:\n--- expected\n${lines(expect.leadOutputExactly)}\n--- got\n${lines(lead)}`);
  }
  for (const pattern of expect.leadOutput ?? []) {
    if (!pattern.test(lead ?? '')) problems.push(`lead output does not match ${pattern}:\n${tail(lead)}`);
  }
  for (const c of expect.containerOutput ?? []) {
    const text = containerLog(logs, summary, 0, c.container);
    for (const pattern of c.patterns) {
      if (!pattern.test(text ?? '')) problems.push(`container ${c.container} output does not match ${pattern}:\n${tail(text)}`);
    }
  }
  for (const x of expect.exits ?? []) {
    const code = lastRun(summary, x.index, x.container)?.exit_code;
    if (code !== x.code) problems.push(`container ${x.container} of index ${x.index} exited ${code}, expected ${x.code}`);
  }
  for (const m of expect.terminationMessages ?? []) {
    const container = m.container ?? runner;
    const message = lastRun(summary, m.index, container)?.termination_message ?? '';
    for (const pattern of m.patterns) {
      if (!pattern.test(message)) problems.push(`termination message of container ${container} of index ${m.index} does not match ${pattern}:\n${message}`);
    }
  }
  if (expect.maxParallelism !== undefined && summary.max_parallelism !== undefined && summary.max_parallelism > expect.maxParallelism) {
    problems.push(`the Job's parallelism reached ${summary.max_parallelism}, above ${expect.maxParallelism}`);
  }
  for (const r of expect.restarted ?? []) {
    const restarts = lastPod(summary, r.index)?.containers.find((c) => c.name === r.container)?.restarts ?? 0;
    if (restarts < 1) problems.push(`container ${r.container} of index ${r.index} was never restarted`);
  }
  return problems;
}

/** Podemu's largest gap between two samples of the brokers' sockets beyond which it misses connections. */
export const MONITOR_BEHIND_SECONDS = 10;

/** True when podemu's broker monitor fell so far behind that a connection it did not see says nothing. */
export function monitorFellBehind(summary: Summary): boolean {
  return (summary.tcp_sample_interval_max_s ?? 0) > MONITOR_BEHIND_SECONDS;
}

/**
 * Every index's broker must have come up, in one of its pods (a fault case checks what its
 * replacements did on its own): rank 0 listening, every other rank connected to its parent. Without
 * `trustMonitor` (podemu's monitor fell behind) only an index that never ran is a problem.
 */
function brokerProblems(summary: Summary, pods: number, trustMonitor: boolean): string[] {
  const problems: string[] = [];
  for (let index = 0; index < pods; index++) {
    const ran = summary.pods.filter((p) => p.index === index);
    if (!ran.length) {
      problems.push(`pod index ${index} never ran`);
      continue;
    }
    if (!trustMonitor) continue;
    const up = ran.some((p) => (index === 0 ? p.broker?.listen : p.broker?.connected_to_parent) != null);
    if (!up) {
      const names = ran.map((p) => p.pod).join(', ');
      problems.push(index === 0 ? `rank 0's broker (${names}) never listened` : `broker ${index} (${names}) never connected to its parent`);
    }
  }
  return problems;
}

/** A Job that ends before Flux: every pod whose broker started anyway is a problem. */
function noBrokerProblems(summary: Summary): string[] {
  return summary.pods.filter((p) => p.broker?.first_seen != null || p.broker?.up != null)
    .map((p) => `pod ${p.pod} started a broker at +${p.broker!.first_seen ?? p.broker!.up}s, although none should start`);
}

/**
 * Ready means connected: Ready times (the readiness probe) against the brokers' connection times
 * podemu saw. Podemu samples sockets every tcp_sample_interval_max_s, so a connection may be seen
 * that much after the probe saw it.
 */
function readinessProblems(summary: Summary, pods: number, late: { lateRank: number; lateSeconds: number }): string[] {
  const problems: string[] = [];
  const slack = (summary.tcp_sample_interval_max_s ?? 0.15) + 0.05;
  const connected: number[] = [];
  for (let index = 1; index < pods; index++) {
    const pod = lastPod(summary, index);
    const at = pod?.broker?.connected_to_parent;
    const ready = pod?.times.ready;
    if (at === null || at === undefined || !pod) continue;
    connected.push(at);
    if (ready === null || ready === undefined) problems.push(`worker ${index} (${pod.pod}) connected at +${at}s but never turned Ready`);
    else if (ready < at - slack) problems.push(`worker ${index} (${pod.pod}) was Ready at +${ready}s, before its broker connected at +${at}s`);
  }
  const lateReady = lastPod(summary, late.lateRank)?.times.ready;
  if (typeof lateReady === 'number' && lateReady < late.lateSeconds) {
    problems.push(`rank ${late.lateRank} was Ready at +${lateReady}s although its broker started ${late.lateSeconds}s late`);
  }
  const lead = lastPod(summary, 0);
  const leadReady = lead?.times.ready;
  const up = Math.max(...connected);
  if (leadReady === null || leadReady === undefined) problems.push(`the lead (${lead?.pod}) never turned Ready`);
  else if (connected.length === pods - 1 && leadReady < up - slack) {
    problems.push(`the lead was Ready at +${leadReady}s, before the instance was up (last broker connected at +${up}s)`);
  }
  return problems;
}

function lastPod(summary: Summary, index: number): PodRecord | undefined {
  return [...summary.pods].reverse().find((p) => p.index === index);
}

function lastRun(summary: Summary, index: number, container: string) {
  return lastPod(summary, index)?.containers.find((c) => c.name === container)?.runs.at(-1);
}

/** Text with trailing blanks and blank edge lines removed, for a line-for-line comparison. */
function lines(text: string | undefined): string {
  return (text ?? '').split('\n').map((l) => l.trimEnd()).join('\n').trim();
}

function tail(text: string | undefined, count = 15): string {
  const all = (text ?? '(no output)').trimEnd().split('\n');
  return all.slice(-count).map((l) => `    | ${l}`).join('\n');
}

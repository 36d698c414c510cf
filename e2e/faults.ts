/** Fault cases: when the cluster is back after a fault, and how long the fault took to settle. */
import { FaultPlan, NodeAction, NodeFault } from './case';
import { FaultRecord, PodRecord, Summary } from './podemu';

/** What followed the faults: seconds from the last one to the promised outcome, and what went wrong. */
export interface FaultOutcome {
  readonly seconds: number | null;
  readonly problems: string[];
}

/** Seconds-since-start lines of podemu's events.log. */
function events(text: string): Array<{ t: number; msg: string }> {
  return [...text.matchAll(/^\[\s*([\d.]+)\] (.*)$/gm)].map((m) => ({ t: Number(m[1]), msg: m[2] }));
}

/** The actions a node fault plans after the loss, in order: `then` first (the bound counts from it), then `later`. */
export function nodeActions(f: NodeFault): Array<{ action: NodeAction; afterSeconds: number; bound: boolean }> {
  const then = f.then && f.then !== 'none' ? [{ action: f.then, afterSeconds: f.thenAfterSeconds ?? 0, bound: true }] : [];
  return [...then, ...(f.later ?? []).filter((a) => a.action !== 'none').map((a) => ({ ...a, bound: false }))];
}

/**
 * Whether the platform frees the pods a node fault took: a drain evicts them; a lost node's pods
 * stay bound to it (Terminating) until its Node is deleted, tainted out-of-service or back.
 */
export function nodeFaultFreesPods(f: NodeFault): boolean {
  return f.kind === 'drain' || nodeActions(f).length > 0;
}

/**
 * Whether every planned fault has acted and each evicted index has a new pod whose broker is up
 * (listening, or connected to its parent), from the timeline so far. A node fault counts once its
 * node was drained or lost and every action after it was taken; the pods on that node
 * (`fault: node-pod POD`) count as evicted when the platform frees them.
 */
export function faultsSettled(plan: FaultPlan, eventsLog: string): boolean {
  const lines = events(eventsLog);
  const acted = lines.filter((l) => /^fault: (evict|crash) /.test(l.msg));
  if (acted.length < (plan.evict?.length ?? 0) + (plan.crash?.length ?? 0)) return false;
  const nodes = plan.nodes ?? [];
  if (lines.filter((l) => /^fault: (drain|lose) /.test(l.msg)).length < nodes.length) return false;
  // A drain evicts its node's pods one by one after its first line: its pods are known once it ended.
  if (lines.filter((l) => /^fault: drained /.test(l.msg)).length < nodes.filter((n) => n.kind === 'drain').length) return false;
  if (lines.filter((l) => /^fault: node \S+ (delete|out-of-service|return)/.test(l.msg)).length < nodes.flatMap(nodeActions).length) return false;
  const freed = (kind: string) => nodes.some((n) => n.kind === kind && nodeFaultFreesPods(n));
  const gone = lines.flatMap((l) => {
    const evicted = /^fault: evict (\S+)/.exec(l.msg);
    if (evicted) return [{ t: l.t, pod: evicted[1] }];
    const onNode = /^fault: node-pod (\S+) \(on \S+, (drain|lose)\)/.exec(l.msg);
    return onNode && freed(onNode[2]) ? [{ t: l.t, pod: onNode[1] }] : [];
  });
  return gone.every((fault) => {
    const index = /-(\d+)-[a-z0-9]+$/.exec(fault.pod)?.[1];
    return lines.some((l) => l.t > fault.t && !l.msg.startsWith(`${fault.pod}:`)
      && new RegExp(`-${index}-[a-z0-9]+: flux-broker \\(rank \\d+\\) (listening|connected to its parent)$`).test(l.msg));
  });
}

/**
 * When the first (`first`) or the last pod of each index had its broker up: rank 0 listening, the
 * others connected to their parent (the last pod: its last connection, which is to the current lead).
 */
function brokersUpAt(pods: PodRecord[], which: 'first' | 'last'): Map<number, number | null> {
  const chosen = new Map<number, PodRecord>();
  for (const p of pods) if (which === 'last' || !chosen.has(p.index)) chosen.set(p.index, p);
  return new Map([...chosen].map(([index, p]) => {
    const b = p.broker;
    const connected = which === 'last' && b?.connects?.length ? Math.max(...b.connects) : b?.connected_to_parent;
    return [index, (index === 0 ? b?.listen : connected) ?? null];
  }));
}

/** When every index first had a broker up (podemu's flux_instance_up_s counts replacements too). */
function bringUp(pods: PodRecord[]): number | null {
  const times = [...brokersUpAt(pods, 'first').values()];
  return times.some((t) => t === null) ? null : Math.max(...(times as number[]));
}

/** When a fault's outcome is counted from: a node fault's first action (the platform's), else the fault itself. */
function boundFrom(f: FaultRecord): number {
  return f.actions?.find((a) => a.bound)?.at ?? f.at;
}

/**
 * What a node fault must have done by the end of a run that recovers: each of its planned actions
 * taken; each pod on the node (when the platform freed it) replaced on another node; a lost node's
 * pods gone from the API once its Node was deleted or tainted out-of-service.
 */
function nodeFaultProblems(plan: NodeFault, f: FaultRecord, summary: Summary, recovers: boolean): string[] {
  const problems: string[] = [];
  const planned = nodeActions(plan);
  const taken = f.actions ?? [];
  for (const a of planned.slice(taken.length)) problems.push(`${f.fault} ${f.node}: '${a.action}' ${a.afterSeconds} s after it was not carried out`);
  for (const a of taken.filter((x) => !/^done/.test(x.outcome))) problems.push(`${f.fault} ${f.node}: '${a.action}' failed: ${a.outcome}`);
  if (!recovers || !nodeFaultFreesPods(plan)) return problems;
  for (const name of f.podsOnNode ?? []) {
    const old = summary.pods.find((p) => p.pod === name);
    if (!old) continue;
    const last = summary.pods.filter((p) => p.index === old.index).at(-1)!;
    if (last.pod === name) problems.push(`index ${old.index}: pod ${name} on ${f.node} was never replaced`);
    else if (last.node && last.node === f.node && !taken.some((a) => a.action === 'return')) problems.push(`index ${old.index}: its replacement ${last.pod} ran on ${f.node} again, the node the fault took`);
    if (f.fault === 'lose' && taken.some((a) => a.action === 'delete' || a.action === 'out-of-service') && old.times.gone == null) {
      problems.push(`pod ${name} on the lost node ${f.node} was still in the API at the end (deleted Node or out-of-service taint should have removed it)`);
    }
  }
  return problems;
}

/** Checks the run against the plan and measures the time from the last fault to its outcome. */
export function faultOutcome(plan: FaultPlan, summary: Summary): FaultOutcome {
  const problems: string[] = [];
  const planned = (plan.evict?.length ?? 0) + (plan.crash?.length ?? 0) + (plan.nodes?.length ?? 0);
  const faults = summary.faults ?? [];
  const acted = faults.filter((f) => f.pod);
  problems.push(...summary.double_brokers ?? [], ...summary.node_cleanup ?? []);
  if (acted.length < planned) {
    problems.push(`podemu carried out ${acted.length} of ${planned} faults: ${faults.map((f) => `${f.fault} ${f.index}: ${f.outcome}`).join('; ')}`);
    return { seconds: null, problems };
  }
  const first = Math.min(...acted.map((f) => f.at));
  const last = Math.max(...acted.map(boundFrom));
  const up = bringUp(summary.pods);
  if (plan.afterBringUp !== false && (up === null || up > first)) {
    problems.push(`the first fault (+${first.toFixed(1)} s) came before every broker was up (${up === null ? 'never' : `+${up.toFixed(1)} s`}): give the case a later fault time`);
  }
  const nodeFaults = acted.filter((f) => f.fault === 'drain' || f.fault === 'lose');
  for (const [i, f] of nodeFaults.entries()) problems.push(...nodeFaultProblems(plan.nodes![i], f, summary, plan.outcome === 'recovers'));
  let seconds: number | null = null;
  if (plan.outcome === 'acted') return { seconds, problems };
  if (plan.outcome === 'recovers') {
    const upAt = brokersUpAt(summary.pods, 'last');
    const missing = [...upAt].filter(([, t]) => t === null).map(([i]) => i);
    if (missing.length) problems.push(`after the faults, the brokers of index ${missing.join(', ')} never came up`);
    else seconds = Math.max(0, ...[...upAt.values()].map((t) => t! - last));
  } else {
    // A pod on a lost node nobody freed stays Terminating there: the Job ends without it.
    const stuck = new Set(acted.filter((f) => f.fault === 'lose' && !f.actions?.length).flatMap((f) => f.podsOnNode ?? []));
    const ends = summary.pods.filter((p) => !stuck.has(p.pod)).map((p) => p.times.end);
    if (ends.some((t) => t === null || t === undefined)) problems.push('the Job ended with pods that never ended');
    else seconds = Math.max(...(ends as number[])) - last;
  }
  if (seconds !== null && seconds > plan.boundSeconds) {
    problems.push(`${plan.outcome === 'recovers' ? 'recovery' : 'the Job\'s end'} took ${seconds.toFixed(1)} s after the fault, over its bound of ${plan.boundSeconds} s`);
  }
  return { seconds, problems };
}

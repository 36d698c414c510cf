/** Fault cases: when the cluster is back after a fault, and how long the fault took to settle. */
import { FaultPlan } from './case';
import { PodRecord, Summary } from './podemu';

/** What followed the faults: seconds from the last one to the promised outcome, and what went wrong. */
export interface FaultOutcome {
  readonly seconds: number | null;
  readonly problems: string[];
}

/** Seconds-since-start lines of podemu's events.log. */
function events(text: string): Array<{ t: number; msg: string }> {
  return [...text.matchAll(/^\[\s*([\d.]+)\] (.*)$/gm)].map((m) => ({ t: Number(m[1]), msg: m[2] }));
}

/**
 * Whether every planned fault has acted and each evicted index has a new pod whose broker is up
 * (listening, or connected to its parent), from podemu's timeline so far.
 */
export function faultsSettled(plan: FaultPlan, eventsLog: string): boolean {
  const lines = events(eventsLog);
  const acted = lines.filter((l) => /^fault: (evict|crash) /.test(l.msg));
  if (acted.length < (plan.evict?.length ?? 0) + (plan.crash?.length ?? 0)) return false;
  return acted.filter((l) => l.msg.startsWith('fault: evict ')).every((fault) => {
    const evicted = /^fault: evict (\S+)/.exec(fault.msg)![1];
    const index = /-(\d+)-[a-z0-9]+$/.exec(evicted)?.[1];
    return lines.some((l) => l.t > fault.t && !l.msg.startsWith(`${evicted}:`)
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

/** Checks the run against the plan and measures the time from the last fault to its outcome. */
export function faultOutcome(plan: FaultPlan, summary: Summary): FaultOutcome {
  const problems: string[] = [];
  const planned = (plan.evict?.length ?? 0) + (plan.crash?.length ?? 0);
  const faults = summary.faults ?? [];
  const acted = faults.filter((f) => f.pod);
  if (acted.length < planned) {
    problems.push(`podemu carried out ${acted.length} of ${planned} faults: ${faults.map((f) => `${f.fault} ${f.index}: ${f.outcome}`).join('; ')}`);
    return { seconds: null, problems };
  }
  const first = Math.min(...acted.map((f) => f.at));
  const last = Math.max(...acted.map((f) => f.at));
  const up = bringUp(summary.pods);
  if (plan.afterBringUp !== false && (up === null || up > first)) {
    problems.push(`the first fault (+${first.toFixed(1)} s) came before every broker was up (${up === null ? 'never' : `+${up.toFixed(1)} s`}): give the case a later fault time`);
  }
  let seconds: number | null = null;
  if (plan.outcome === 'acted') return { seconds, problems };
  if (plan.outcome === 'recovers') {
    const upAt = brokersUpAt(summary.pods, 'last');
    const missing = [...upAt].filter(([, t]) => t === null).map(([i]) => i);
    if (missing.length) problems.push(`after the faults, the brokers of index ${missing.join(', ')} never came up`);
    else seconds = Math.max(0, ...[...upAt.values()].map((t) => t! - last));
  } else {
    const ends = summary.pods.map((p) => p.times.end);
    if (ends.some((t) => t === null || t === undefined)) problems.push('the Job ended with pods that never ended');
    else seconds = Math.max(...(ends as number[])) - last;
  }
  if (seconds !== null && seconds > plan.boundSeconds) {
    problems.push(`${plan.outcome === 'recovers' ? 'recovery' : 'the Job\'s end'} took ${seconds.toFixed(1)} s after the fault, over its bound of ${plan.boundSeconds} s`);
  }
  return { seconds, problems };
}

/**
 * The autoscaler's decision, a pure function of Flux's state, the Job and what it remembers.
 *
 * Grow: jobs wait in Flux's queue and the nodes they need (beside the busy ones) are more than the
 * Job has: the Job grows, at most to maxSize, at once.
 * Shrink: no job waits and the top ranks have been idle for idleSeconds (no job on them, and no job
 * started or ended anywhere since): an Indexed Job gives up its
 * highest indexes, so only ranks above the highest busy one can go, never below minSize. They are
 * drained in Flux first (no new job lands there), and the Job shrinks only once Flux says they are
 * drained and idle (`drained`, not `draining`) and the agent marked them released: a broker that
 * runs a job is never stopped, and a released worker ends with 0, not as a failure. A job
 * that arrives meanwhile cancels the shrink (the ranks are undrained).
 */
import { FluxState, nodesNeeded } from './flux-state';
import { formatIdset, idRange } from '../../core/idset';

/** The Job as the autoscaler reads it. */
export interface JobView {
  /** spec.parallelism (= completions): the brokers the Job runs. */
  readonly parallelism: number;
  /** The Job completed or failed: nothing to scale. */
  readonly ended: boolean;
}

export interface Limits {
  readonly minSize: number;
  readonly maxSize: number;
  /** Seconds a rank must have been idle before the Job gives it up. */
  readonly idleSeconds: number;
}

/** What the autoscaler remembers between decisions. */
export interface Memory {
  /** For each rank of the Job: when it was last busy, or when it joined the Job (seconds). */
  readonly lastBusy: Readonly<Record<number, number>>;
}

export type Action = 'grow' | 'shrink' | 'drain' | 'undrain' | 'none';

export interface Decision {
  readonly action: Action;
  /** The Job's parallelism now, and what it should be. */
  readonly from: number;
  readonly to: number;
  /** The ranks that must be drained in Flux (the autoscaler's drains only; others are undrained). */
  readonly drain: number[];
  readonly reason: string;
  readonly memory: Memory;
}

export const NO_MEMORY: Memory = { lastBusy: {} };

export function decide(state: FluxState, job: JobView, limits: Limits, memory: Memory, now: number): Decision {
  const par = job.parallelism;
  const up = new Set(state.up);
  const busy = new Set([...state.allocated, ...state.draining]);
  const lastBusy: Record<number, number> = {};
  // A rank is busy while it runs a job; the idle time of every rank also counts from the last job
  // event (a job that started and ended between two snapshots was never seen allocated).
  for (let r = 0; r < par; r++) lastBusy[r] = busy.has(r) ? now : Math.max(memory.lastBusy[r] ?? now, Math.min(state.lastJobEvent, now));
  const next: Memory = { lastBusy };
  // Ranks the autoscaler keeps drained for a size `goal`: those above it whose broker is still up.
  const drainAbove = (goal: number) => state.up.filter((r) => r >= goal);
  const result = (action: Action, to: number, drain: number[], reason: string): Decision => ({ action, from: par, to, drain, reason, memory: next });

  if (job.ended) return result('none', par, [], 'the Job has ended');

  const needs = state.pending.map((j) => nodesNeeded(j, state.coresPerNode));
  const fitting = needs.filter((n) => n <= limits.maxSize);
  const tooBig = needs.length - fitting.length;
  const tooBigNote = tooBig > 0 ? `; ${tooBig} pending job(s) need more than maxSize ${limits.maxSize} nodes and never run` : '';
  const cancelsShrink = state.autoscaleDrained.some((r) => r < par);

  if (fitting.length > 0) {
    const wanted = fitting.reduce((a, b) => a + b, 0);
    const largest = Math.max(...fitting);
    const target = Math.min(limits.maxSize, Math.max(largest, busy.size + wanted));
    const what = `${fitting.length} job(s) wait for ${wanted} node(s) (largest ${largest}), ${busy.size} node(s) busy, ${up.size} up`;
    if (target > par) {
      const capped = busy.size + wanted > limits.maxSize ? ` (capped at maxSize ${limits.maxSize})` : '';
      return result('grow', target, drainAbove(target), `${what}: growing ${par} -> ${target}${capped}${tooBigNote}`);
    }
    if (cancelsShrink) return result('undrain', par, drainAbove(par), `${what}: shrink cancelled, ranks ${formatIdset(state.autoscaleDrained.filter((r) => r < par))} undrained${tooBigNote}`);
    return result('none', par, drainAbove(par), `${what}: the Job's ${par} brokers fit them${tooBigNote}`);
  }

  // No job waits: give up the idle top ranks, above the highest busy one and minSize.
  const floor = Math.max(limits.minSize, Math.max(-1, ...busy) + 1);
  let target = par;
  while (target - 1 >= floor && now - lastBusy[target - 1] >= limits.idleSeconds) target--;
  if (target < par) {
    const leaving = idRange(target, par);
    // Up ranks must be drained, idle, and marked released (their worker then exits 0 when deleted).
    const notIdle = leaving.filter((r) => up.has(r) && !(state.drained.includes(r) && state.released.includes(r)));
    const span = formatIdset(leaving);
    if (notIdle.length === 0) {
      return result('shrink', target, drainAbove(target), `no job waits and ranks ${span} are drained and idle (idle ${limits.idleSeconds} s): shrinking ${par} -> ${target}${tooBigNote}`);
    }
    return result('drain', target, drainAbove(target), `no job waits and ranks ${span} have been idle ${limits.idleSeconds} s: draining ${formatIdset(notIdle)} before shrinking ${par} -> ${target}${tooBigNote}`);
  }
  const reason = par > floor
    ? `no job waits; ranks ${formatIdset(idRange(floor, par))} go once idle ${limits.idleSeconds} s`
    : `no job waits; ${par} broker(s), ${busy.size} busy, at the least the Job may have (${floor})`;
  if (cancelsShrink) return result('undrain', par, drainAbove(par), `${reason}; ranks ${formatIdset(state.autoscaleDrained.filter((r) => r < par))} busy again: undrained${tooBigNote}`);
  return result('none', par, drainAbove(par), `${reason}${tooBigNote}`);
}

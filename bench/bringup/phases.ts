/** When each phase of a bring-up ended for the last pod, from podemu's summary. */
import { Summary } from '../../e2e/podemu';
import { medianCells } from '../stats';

/** Seconds from the first pod's start. */
export interface PhaseTimes {
  /** The last pod created (the stagger puts it (N-1) x stagger late). */
  readonly lastPod: number;
  /** The last pod's init containers (not sidecars) done; undefined when the pods have none. */
  readonly init?: number;
  /** The last pod's main containers started. */
  readonly mainStart: number;
  /** The last broker process seen. */
  readonly brokerStart: number;
  /** The last follower connected to its parent. */
  readonly connected: number;
  /** The last pod's main containers ended (the brokers' shutdown done); undefined while one runs. */
  readonly mainEnd?: number;
  readonly success: number;
}

export function phases(summary: Summary): PhaseTimes | undefined {
  if (summary.wall_time_s === null || summary.flux_instance_up_s === null) return undefined;
  const last = (values: Array<number | null | undefined>) => Math.max(...values.map((v) => v ?? 0));
  const runs = (type: string) => summary.pods.flatMap((p) => p.containers.filter((c) => c.type === type).map((c) => c.runs[0]));
  const inits = runs('init');
  return {
    lastPod: last(summary.pods.map((p) => p.times.created)),
    init: inits.length > 0 ? last(inits.map((r) => r?.end)) : undefined,
    mainStart: last(runs('main').map((r) => r?.start)),
    brokerStart: last(summary.pods.map((p) => p.broker?.first_seen)),
    connected: summary.flux_instance_up_s,
    mainEnd: runs('main').every((r) => r?.end != null) ? last(runs('main').map((r) => r?.end)) : undefined,
    success: summary.wall_time_s,
  };
}

const ALL_PHASES: Array<keyof PhaseTimes> = ['lastPod', 'init', 'mainStart', 'brokerStart', 'connected', 'success'];

/**
 * The phases' medians over runs as table cells, lastPod to success, '–' for a phase no run has (pods
 * without init containers). `keys`: fewer phases (a real cluster shows no broker process, only its container).
 */
export function phaseCells(ps: readonly PhaseTimes[], digits: number, keys: ReadonlyArray<keyof PhaseTimes> = ALL_PHASES): string {
  return medianCells(ps, keys, digits);
}

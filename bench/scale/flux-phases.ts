/**
 * bench:scale's table of Flux's own phases on a real cluster: how long the lead broker spent in each
 * of its states (its log, e2e/kube/lead-phases.ts), and what came after its exit until the Job's
 * success: the part of "every broker up to Job success" that is Flux's, and the part that is not.
 */
import { Summary } from '../../e2e/podemu';
import { medianCells } from '../stats';

/** Seconds of each phase in one run; absent when the lead's log did not date both its ends. */
export interface FluxDurations {
  /** The lead's rc1 (modules, the scheduler). */
  readonly rc1?: number;
  /** From the lead's rc1 done to every broker joined. */
  readonly waitForBrokers?: number;
  /** The initial program: the user's command. */
  readonly program?: number;
  /** From the program's end to every child broker gone (each ran its rc3 and exited). */
  readonly childrenShutdown?: number;
  /** The lead's rc3. */
  readonly rc3?: number;
  /** From the lead's rc3 done to the Job's success: the lead's exit, then the kubelets and the Job controller. */
  readonly toSuccess?: number;
}

export const FLUX_PHASE_COLUMNS = ['the lead\'s rc1', 'waiting for every broker', 'the program', 'the children\'s shutdown', 'the lead\'s rc3', 'then to Job success'];

const KEYS: ReadonlyArray<keyof FluxDurations> = ['rc1', 'waitForBrokers', 'program', 'childrenShutdown', 'rc3', 'toSuccess'];

export function fluxDurations(summary: Pick<Summary, 'lead_phases' | 'wall_time_s'>): FluxDurations {
  const p = summary.lead_phases ?? {};
  const span = (from?: number, to?: number | null): number | undefined =>
    (from === undefined || to === undefined || to === null ? undefined : Math.round((to - from) * 100) / 100);
  return {
    rc1: span(p.started, p.rc1Done),
    waitForBrokers: span(p.rc1Done, p.programStart),
    program: span(p.programStart, p.programEnd),
    childrenShutdown: span(p.programEnd, p.childrenDone),
    rc3: span(p.childrenDone, p.rc3Done),
    toSuccess: span(p.rc3Done, summary.wall_time_s),
  };
}

/** Medians over the runs, one cell per phase in FLUX_PHASE_COLUMNS' order; '–' where no run dated it. */
export function fluxPhaseCells(runs: readonly FluxDurations[]): string {
  return medianCells(runs, KEYS, 2);
}

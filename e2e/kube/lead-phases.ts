/**
 * Flux's own phases on a real cluster, from the lead broker's log: flux-core's broker logs each
 * change of its state as `broker.info[0]: EVENT: FROM->TO DURATION`. What the Flux containers' start
 * and end times cannot tell apart (rc1, the wait for every broker, the program, the children's
 * shutdown, rc3) each ends with one of these changes.
 */
import { secondsSince } from './record';

/** When the lead broker entered each state, in seconds from the run's first pod; absent when its log has no such line. */
export interface LeadPhases {
  /** Its builtin modules loaded (`load-builtins->join`): the broker runs. */
  readonly started?: number;
  /** rc1 done (`init->quorum`): now waiting for every broker. */
  readonly rc1Done?: number;
  /** Every broker joined (`quorum->run`): the initial program starts. */
  readonly programStart?: number;
  /** The initial program ended (`run->cleanup`). */
  readonly programEnd?: number;
  /** Every child broker left (`shutdown->finalize`): each ran its rc3 and exited. */
  readonly childrenDone?: number;
  /** The lead's rc3 done (`finalize->goodbye`): the broker exits. */
  readonly rc3Done?: number;
}

const TRANSITIONS: ReadonlyArray<[keyof LeadPhases, string]> = [
  ['started', 'load-builtins->join'],
  ['rc1Done', 'init->quorum'],
  ['programStart', 'quorum->run'],
  ['programEnd', 'run->cleanup'],
  ['childrenDone', 'shutdown->finalize'],
  ['rc3Done', 'finalize->goodbye'],
];

/**
 * The lead's phases in `flux dmesg` output (ISO time stamps, the default format), in seconds from
 * `t0` (epoch ms). The first line of each change counts: the benchmark follows one lead pod, whose
 * broker starts once.
 */
export function leadPhases(dmesg: string, t0: number): LeadPhases {
  const at: { -readonly [K in keyof LeadPhases]?: number } = {};
  for (const line of dmesg.split('\n')) {
    const m = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) broker\.info\[0\]: [\w-]+: ([a-z-]+->[a-z-]+) /.exec(line);
    const phase = m && TRANSITIONS.find(([, change]) => change === m[2])?.[0];
    if (m && phase && at[phase] === undefined) at[phase] = secondsSince(t0, Date.parse(m[1]));
  }
  return at;
}

/**
 * The Flux agent's snapshot (templates/autoscale-agent.sh writes it to STATE_FILE): ranks by state
 * and the jobs waiting for resources. Parsed strictly: a snapshot the autoscaler cannot read is no
 * reason to resize anything.
 */
import { parseIdset } from '../../core/idset';

/** A job in Flux's SCHED state that waits for resources (held jobs, urgency 0, are left out by the agent). */
export interface PendingJob {
  readonly id: string;
  /** Nodes the job asked for (`-N`), or 0 when it asked for tasks or cores only. */
  readonly nnodes: number;
  /** Cores it asked for, or 0 when unknown. */
  readonly ncores: number;
}

/** What Flux's queue and resources were at `time`. */
export interface FluxState {
  /** Seconds since the epoch when the agent read Flux. */
  readonly time: number;
  /** Ranks whose broker is up (online). */
  readonly up: number[];
  /** Ranks with an allocation: a job runs there. */
  readonly allocated: number[];
  /** Drained ranks with nothing allocated: safe to remove. */
  readonly drained: number[];
  /** Drained ranks that still run a job. */
  readonly draining: number[];
  /** Ranks the agent drained for the autoscaler (reason DRAIN_REASON). */
  readonly autoscaleDrained: number[];
  /** Drained, idle ranks the agent marked released: their worker exits 0 when its pod is deleted. */
  readonly released: number[];
  /** When a job last changed state (seconds since the epoch; 0: none seen): a job may start and end between two snapshots. */
  readonly lastJobEvent: number;
  /** Cores of each node in R. */
  readonly coresPerNode: number;
  readonly pending: PendingJob[];
}

/** The snapshot in `text`; throws with what is wrong. */
export function parseFluxState(text: string): FluxState {
  let raw: any;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`the Flux state is not JSON: ${(e as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null) throw new Error('the Flux state is not a JSON object');
  const num = (key: string): number => {
    const v = Number(raw[key]);
    if (raw[key] === undefined || raw[key] === '' || !Number.isFinite(v) || v < 0) throw new Error(`the Flux state's ${key} is not a number: ${JSON.stringify(raw[key])}`);
    return v;
  };
  const ranks = (key: string): number[] => {
    if (typeof raw[key] !== 'string') throw new Error(`the Flux state's ${key} is not an idset string: ${JSON.stringify(raw[key])}`);
    return parseIdset(raw[key]);
  };
  if (!Array.isArray(raw.pending)) throw new Error('the Flux state has no pending list');
  const pending = raw.pending.map((j: any, i: number): PendingJob => {
    const count = (v: unknown) => (v === '' || v === undefined || v === null ? 0 : Number(v));
    const nnodes = count(j?.nnodes);
    const ncores = count(j?.ncores);
    if (typeof j?.id !== 'string' || !Number.isInteger(nnodes) || nnodes < 0 || !Number.isInteger(ncores) || ncores < 0) {
      throw new Error(`the Flux state's pending[${i}] is not {id, nnodes, ncores}: ${JSON.stringify(j)}`);
    }
    return { id: j.id, nnodes, ncores };
  });
  return {
    time: num('time'),
    up: ranks('up'),
    allocated: ranks('allocated'),
    drained: ranks('drained'),
    draining: ranks('draining'),
    autoscaleDrained: ranks('autoscaleDrained'),
    released: ranks('released'),
    coresPerNode: Math.max(1, num('coresPerNode')),
    lastJobEvent: num('lastJobEvent'),
    pending,
  };
}

/** Nodes a pending job needs: its `-N`, else its cores over whole nodes, else one. */
export function nodesNeeded(job: PendingJob, coresPerNode: number): number {
  if (job.nnodes > 0) return job.nnodes;
  if (job.ncores > 0) return Math.ceil(job.ncores / coresPerNode);
  return 1;
}

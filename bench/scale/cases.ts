/**
 * SCALE_CASES: `size:source[:runs[:sidecar]]`, comma-separated; runs defaults to SCALE_RUNS (one
 * 128-pod run beside three of 16); `sidecar` keeps the handshake a native sidecar where it would run
 * in the Flux runner (handshake.inRunner false): a same-run comparison, and its memory per pod.
 */
import { FluxViewSource } from '../../lib';

export interface ScaleCase {
  readonly size: number;
  readonly source: FluxViewSource;
  readonly runs: number;
  /** The handshake as a native sidecar (handshake.inRunner false). */
  readonly sidecar?: boolean;
}

/** How a case is written in SCALE_CASES, and its name in directories and namespaces. */
export function scaleCaseName(c: Pick<ScaleCase, 'source' | 'sidecar'>): string {
  return c.sidecar ? `${c.source}-sidecar` : c.source;
}

/** One entry of SCALE_CASES; throws naming the entry and what is wrong. */
export function parseScaleCase(entry: string, defaultRuns: number): ScaleCase {
  const [size, source, runs, placement, ...rest] = entry.split(':');
  const n = Number(size);
  const r = runs === undefined || runs === '' ? defaultRuns : Number(runs);
  if (rest.length || !Number.isInteger(n) || n < 1) throw new Error(`SCALE_CASES: '${entry}' must be size:source[:runs[:sidecar]], size a positive integer`);
  if (placement !== undefined && placement !== 'sidecar') throw new Error(`SCALE_CASES: '${placement}' in '${entry}' must be 'sidecar' or left out`);
  if (!(Object.values(FluxViewSource) as string[]).includes(source)) throw new Error(`SCALE_CASES: unknown source '${source}' in '${entry}'`);
  if (!Number.isInteger(r) || r < 1) throw new Error(`SCALE_CASES: runs '${runs}' in '${entry}' must be a positive integer`);
  return { size: n, source: source as FluxViewSource, runs: r, ...(placement ? { sidecar: true } : {}) };
}

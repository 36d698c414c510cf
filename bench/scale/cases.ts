/** SCALE_CASES: `size:source[:runs]`, comma-separated; runs defaults to SCALE_RUNS (one 128-pod run beside three of 16). */
import { FluxViewSource } from '../../lib';

export interface ScaleCase {
  readonly size: number;
  readonly source: FluxViewSource;
  readonly runs: number;
}

/** One entry of SCALE_CASES; throws naming the entry and what is wrong. */
export function parseScaleCase(entry: string, defaultRuns: number): ScaleCase {
  const [size, source, runs, ...rest] = entry.split(':');
  const n = Number(size);
  const r = runs === undefined ? defaultRuns : Number(runs);
  if (rest.length || !Number.isInteger(n) || n < 1) throw new Error(`SCALE_CASES: '${entry}' must be size:source[:runs], size a positive integer`);
  if (!(Object.values(FluxViewSource) as string[]).includes(source)) throw new Error(`SCALE_CASES: unknown source '${source}' in '${entry}'`);
  if (!Number.isInteger(r) || r < 1) throw new Error(`SCALE_CASES: runs '${runs}' in '${entry}' must be a positive integer`);
  return { size: n, source: source as FluxViewSource, runs: r };
}

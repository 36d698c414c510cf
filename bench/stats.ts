/** Statistics the benchmarks print. */

/** The median (the mean of the two middle values for an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Table cells: for each key, the median over the runs that have a value for it, to `digits`
 * decimals, or '–' where none has; joined as a markdown row's inner cells.
 */
export function medianCells<T>(runs: readonly T[], keys: ReadonlyArray<keyof T>, digits: number): string {
  return keys.map((key) => {
    const values = runs.map((r) => r[key]).filter((v): v is T[keyof T] & number => typeof v === 'number');
    return values.length > 0 ? median(values).toFixed(digits) : '–';
  }).join(' | ');
}

/**
 * The floor's table cells. A figure over the floor is taken round by round (the floor measured in
 * the same round as the figure), then the median: a drift of the machine's load between rounds
 * then moves both sides of a ratio alike, as with the ratio to the naive Job.
 */
import { median } from './stats';

/** The `floor (s)` cell: the median of the floor's rounds. */
export function floorCell(floors: readonly number[], digits: number): string {
  return median([...floors]).toFixed(digits);
}

/**
 * An `x floor` cell: the median of `values[i] / floors[i]` over the rounds, two decimals; a round
 * whose value is null (not measured) is left out, and 'n/a' when none is left.
 */
export function xFloorCell(values: ReadonlyArray<number | null>, floors: readonly number[]): string {
  if (values.length !== floors.length) throw new Error(`xFloorCell: ${values.length} values but ${floors.length} floors (one of each per round)`);
  const ratios = values.flatMap((v, i) => (v === null ? [] : [v / floors[i]]));
  return ratios.length ? median(ratios).toFixed(2) : 'n/a';
}

/** RFC 22 idsets (`0-2,5`), as Flux prints ranks: parsed to sorted numbers and back. */

/** The ids of `text` (empty text: none); throws on anything that is not an idset. */
export function parseIdset(text: string): number[] {
  const out = new Set<number>();
  const trimmed = text.trim();
  if (trimmed === '') return [];
  for (const part of trimmed.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`'${text}' is not an idset (e.g. 0-2,5)`);
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo || hi - lo > 100000) throw new Error(`'${text}' is not an idset: bad range ${part}`);
    for (let i = lo; i <= hi; i++) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

/** The idset of `ids`, with ranges (`1-3,7`); '' for none. */
export function formatIdset(ids: Iterable<number>): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i];
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++;
    parts.push(start === sorted[i] ? String(start) : `${start}-${sorted[i]}`);
  }
  return parts.join(',');
}

/** The ids from..to-1 (ranks `from` up to the size `to`). */
export function idRange(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

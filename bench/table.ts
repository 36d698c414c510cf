/** Markdown tables for the benchmarks' output, pasted as they are into docs/. */

/**
 * Prints a header, its alignment row and the rows (already `| a | b |` lines).
 * `align` has one letter per column: `l` left, `r` right (numbers).
 */
export function printTable(columns: string[], align: string, rows: string[]): void {
  if (align.length !== columns.length) throw new Error(`printTable: ${columns.length} columns but ${align.length} alignment letters`);
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${[...align].map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`);
  for (const r of rows) console.log(r);
}

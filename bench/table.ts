/** Markdown tables for the benchmarks' output, pasted as they are into docs/. */

/**
 * Prints a header, its alignment row and the rows (already `| a | b |` lines).
 * `align` has one letter per column: `l` left, `r` right (numbers).
 */
export function printTable(columns: string[], align: string, rows: string[]): void {
  for (const line of tableLines(columns, align, rows)) console.log(line);
}

/** The lines printTable prints. */
export function tableLines(columns: string[], align: string, rows: string[]): string[] {
  if (align.length !== columns.length) throw new Error(`printTable: ${columns.length} columns but ${align.length} alignment letters`);
  return [`| ${columns.join(' | ')} |`, `|${[...align].map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`, ...rows];
}

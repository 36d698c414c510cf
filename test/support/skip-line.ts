/**
 * The one line that says why tests are skipped. Written to stderr, not console.warn: jest prints
 * nothing a suite logged when all of its tests are skipped, so a warning there is never seen.
 */
export function skipLine(text: string): void {
  process.stderr.write(`${text}\n`);
}

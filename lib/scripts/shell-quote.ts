/**
 * The one quoting helper of the script templates: every value rendered into a script goes through
 * `shellQuote`, so user text (quotes, `$`, backticks, newlines) never changes the script's syntax.
 */

/** `text` as one single-quoted bash word: `it's` becomes `'it'\''s'`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Each item as its own quoted word, separated by spaces (the inside of a bash array literal). */
export function shellWords(items: readonly string[]): string {
  return items.map(shellQuote).join(' ');
}

/**
 * The character and length rules of the certificate file, as flux-core's parser
 * (src/common/libzmqutil/cert.c `cert_read`) applies them. The writer and the parser share them.
 */

/** flux-core reads each line with `fgets` into a 256-byte buffer: 255 bytes, newline included. */
export const CERT_LINE_BUFFER_BYTES = 256;

/** The longest line content (without its newline) that fits the line buffer. */
export const CERT_MAX_LINE_BYTES = CERT_LINE_BUFFER_BYTES - 2;

/** Length of a Z85-encoded 32-byte key. */
export const CURVE_KEY_TEXT_LENGTH = 40;

/** Section names (written unindented). */
export const METADATA_SECTION = 'metadata';
export const CURVE_SECTION = 'curve';

/** The keys of the `curve` section. */
export const PUBLIC_KEY_ENTRY = 'public-key';
export const SECRET_KEY_ENTRY = 'secret-key';

/** The metadata entry rank 0 needs to authorize its children (`overlay_authorize`). */
export const NAME_ENTRY = 'name';

/** Header written by `flux keygen` (flux-core 0.88); comments carry no meaning. */
export const CERT_HEADER = ['#  ZeroMQ CURVE **Secret** Certificate', '#  DO NOT DISTRIBUTE'];

const KEY_EXTRA = '.-';
const VALUE_EXTRA = '.-:+=^!/*?&<>()[]{}@%$# \t';

/** A human description of the allowed metadata key characters. */
export const KEY_CHARSET_TEXT = '[A-Za-z0-9.-]';
/** A human description of the allowed value characters. */
export const VALUE_CHARSET_TEXT = 'A-Z a-z 0-9, space, tab and .-:+=^!/*?&<>()[]{}@%$#';

/** The whitespace C's `isspace` strips (flux-core `strstrip`). */
export const C_SPACE = ' \t\n\v\f\r';

function isAsciiAlnum(c: string): boolean {
  return /^[A-Za-z0-9]$/.test(c);
}

/** Why `key` is not a valid entry key, or undefined. Never quotes more than the bad character. */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return 'the key is empty';
  const bad = [...key].find((c) => !isAsciiAlnum(c) && !KEY_EXTRA.includes(c));
  return bad === undefined ? undefined : `key '${key}' has ${describeChar(bad)}, outside ${KEY_CHARSET_TEXT}`;
}

/**
 * Why `value` (unquoted) is not a valid entry value, or undefined. Never quotes the value; names
 * the offending character only when `showChar` (false for key material).
 */
export function valueProblem(value: string, showChar: boolean = true): string | undefined {
  const chars = [...value];
  const index = chars.findIndex((c) => !isAsciiAlnum(c) && !VALUE_EXTRA.includes(c));
  if (index < 0) return undefined;
  const what = showChar ? describeChar(chars[index]) : 'a character';
  return `${what} at position ${index + 1} is not allowed (allowed: ${VALUE_CHARSET_TEXT})`;
}

/** `'_' (U+005F)`: printable characters are shown, every character gets its code point. */
export function describeChar(c: string): string {
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\x21-\x7e]$/.test(c) ? `'${c}' (${code})` : code;
}

/** `s` without leading and trailing C whitespace. */
export function stripCSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && C_SPACE.includes(s[start])) start++;
  while (end > start && C_SPACE.includes(s[end - 1])) end--;
  return s.slice(start, end);
}

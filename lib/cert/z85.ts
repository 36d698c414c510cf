/**
 * Z85 (ZeroMQ RFC 32), the text encoding of CURVE keys in certificates: every 4 bytes, read as a
 * big-endian unsigned 32-bit number, become 5 base-85 digits.
 */

/** The 85 Z85 digits, most significant value last. */
export const Z85_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

const DIGIT_VALUE: ReadonlyMap<string, number> = new Map([...Z85_ALPHABET].map((c, i) => [c, i]));

/** Encodes bytes as Z85. The length must be a multiple of 4 (Z85 has no padding). */
export function z85Encode(data: Uint8Array): string {
  if (data.length % 4 !== 0) {
    throw new Error(`Z85 encodes whole 4-byte groups: got ${data.length} bytes, which is not a multiple of 4`);
  }
  let out = '';
  for (let i = 0; i < data.length; i += 4) {
    // Multiplying instead of shifting keeps the value an unsigned 32-bit number.
    let value = data[i] * 0x1000000 + data[i + 1] * 0x10000 + data[i + 2] * 0x100 + data[i + 3];
    const digits = new Array<string>(5);
    for (let d = 4; d >= 0; d--) {
      digits[d] = Z85_ALPHABET[value % 85];
      value = Math.floor(value / 85);
    }
    out += digits.join('');
  }
  return out;
}

/**
 * The reason `text` is not valid Z85, or undefined when it is. Like libzmq's decoder, a 5-digit
 * group worth more than 0xFFFFFFFF is invalid. The message never quotes the text (it may be a key).
 */
export function z85Problem(text: string): string | undefined {
  if (text.length % 5 !== 0) {
    return `Z85 text must be whole 5-character groups: got ${text.length} characters, which is not a multiple of 5`;
  }
  for (let i = 0; i < text.length; i++) {
    if (!DIGIT_VALUE.has(text[i])) {
      return `character ${i + 1} is not a Z85 digit (allowed: 0-9 a-z A-Z and .-:+=^!/*?&<>()[]{}@%$#)`;
    }
  }
  for (let i = 0; i < text.length; i += 5) {
    if (groupValue(text, i) > 0xffffffff) {
      return `characters ${i + 1}-${i + 5} encode a value above 0xFFFFFFFF (4 bytes cannot hold it)`;
    }
  }
  return undefined;
}

/** Decodes Z85 text; throws when z85Problem reports one. */
export function z85Decode(text: string): Uint8Array {
  const problem = z85Problem(text);
  if (problem) throw new Error(`invalid Z85: ${problem}`);
  const out = new Uint8Array((text.length / 5) * 4);
  for (let i = 0, o = 0; i < text.length; i += 5, o += 4) {
    const value = groupValue(text, i);
    out[o] = Math.floor(value / 0x1000000) & 0xff;
    out[o + 1] = Math.floor(value / 0x10000) & 0xff;
    out[o + 2] = Math.floor(value / 0x100) & 0xff;
    out[o + 3] = value & 0xff;
  }
  return out;
}

function groupValue(text: string, start: number): number {
  let value = 0;
  for (let d = 0; d < 5; d++) value = value * 85 + DIGIT_VALUE.get(text[start + d])!;
  return value;
}

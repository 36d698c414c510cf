import * as fc from 'fast-check';
import { Z85_ALPHABET, z85Decode, z85Encode, z85Problem } from '../../lib/cert';
import { LIBZMQ_MAX_GROUP, LIBZMQ_OVERFLOW_GROUPS, RFC32_HELLO_WORLD, ZMQ_CURVE_TEST_KEYS } from './published-vectors';

/** Independent reference: the whole group as one BigInt, digits by repeated division. */
function referenceEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    let value = BigInt(`0x${Buffer.from(bytes.subarray(i, i + 4)).toString('hex')}`);
    let group = '';
    for (let d = 0; d < 5; d++) {
      group = Z85_ALPHABET[Number(value % 85n)] + group;
      value /= 85n;
    }
    out += group;
  }
  return out;
}

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

describe('Z85', () => {
  test('the RFC 32 vector encodes and decodes: 864FD26FB559F75B <-> HelloWorld', () => {
    expect(z85Encode(Uint8Array.from(RFC32_HELLO_WORLD.bytes))).toBe(RFC32_HELLO_WORLD.text);
    expect([...z85Decode(RFC32_HELLO_WORLD.text)]).toEqual(RFC32_HELLO_WORLD.bytes);
  });

  test('the zmq_curve(7) test keys encode to their published Z85 text and back', () => {
    for (const pair of [ZMQ_CURVE_TEST_KEYS.client, ZMQ_CURVE_TEST_KEYS.server]) {
      for (const [h, text] of [[pair.publicHex, pair.publicZ85], [pair.secretHex, pair.secretZ85]]) {
        expect(z85Encode(hex(h))).toBe(text);
        expect(Buffer.from(z85Decode(text)).toString('hex').toUpperCase()).toBe(h);
      }
    }
  });

  test('the alphabet has 85 distinct characters in RFC 32 order', () => {
    expect(Z85_ALPHABET).toBe('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#');
    expect(new Set(Z85_ALPHABET).size).toBe(85);
  });

  test('the smallest and largest 4-byte groups round-trip (libzmq test_base85)', () => {
    expect(z85Encode(new Uint8Array(4))).toBe('00000');
    expect(z85Encode(Uint8Array.from(LIBZMQ_MAX_GROUP.bytes))).toBe(LIBZMQ_MAX_GROUP.text);
    expect([...z85Decode(LIBZMQ_MAX_GROUP.text)]).toEqual(LIBZMQ_MAX_GROUP.bytes);
    expect(z85Encode(new Uint8Array(0))).toBe('');
  });

  test('groups above 0xFFFFFFFF are rejected, like libzmq', () => {
    for (const text of LIBZMQ_OVERFLOW_GROUPS) {
      expect(z85Problem(text)).toBe('characters 1-5 encode a value above 0xFFFFFFFF (4 bytes cannot hold it)');
      expect(() => z85Decode(text)).toThrow(/above 0xFFFFFFFF/);
    }
    expect(z85Problem(`HelloWorld${LIBZMQ_OVERFLOW_GROUPS[0]}`)).toMatch(/^characters 11-15 /);
  });

  test('lengths that are not whole groups are rejected', () => {
    expect(() => z85Encode(new Uint8Array(1))).toThrow('got 1 bytes, which is not a multiple of 4');
    expect(() => z85Encode(new Uint8Array(42))).toThrow('got 42 bytes, which is not a multiple of 4');
    expect(() => z85Decode('01234567')).toThrow('got 8 characters, which is not a multiple of 5');
    expect(() => z85Decode('0')).toThrow('got 1 characters, which is not a multiple of 5');
  });

  test('every printable ASCII character outside the alphabet is rejected, without quoting the text', () => {
    const outside = [...Array(95).keys()].map((i) => String.fromCharCode(32 + i)).filter((c) => !Z85_ALPHABET.includes(c));
    expect(outside.join('')).toBe(' "\',;\\_`|~');
    for (const c of outside) {
      expect(z85Problem(`Hell${c}`)).toBe('character 5 is not a Z85 digit (allowed: 0-9 a-z A-Z and .-:+=^!/*?&<>()[]{}@%$#)');
    }
  });

  test('encoding matches an independent BigInt reference and decoding inverts it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 16 }).chain((n) => fc.uint8Array({ minLength: 4 * n, maxLength: 4 * n })), (bytes) => {
        const text = z85Encode(bytes);
        expect(text).toBe(referenceEncode(bytes));
        expect(Buffer.from(z85Decode(text)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

import * as fc from 'fast-check';
import * as nacl from 'tweetnacl';
import {
  CurveCertError,
  createCurveCert,
  curveCertProblems,
  formatCurveCert,
  generateCurveKeyPair,
  parseCurveCert,
  z85Decode,
  z85Encode,
} from '../../lib/cert';
import { ZMQ_CURVE_TEST_KEYS } from './published-vectors';

const SERVER = ZMQ_CURVE_TEST_KEYS.server;
const CLIENT = ZMQ_CURVE_TEST_KEYS.client;

/** A certificate assembled by hand from lines, so each test shows exactly what Flux would read. */
function cert(lines: string[], eol = '\n'): string {
  return lines.join(eol) + eol;
}
const curve = (pub = SERVER.publicZ85, sec = SERVER.secretZ85) => ['curve', `    public-key = "${pub}"`, `    secret-key = "${sec}"`];
const VALID = ['metadata', '    name = "fluxtest"', ...curve()];

function problemsOf(text: string): string[] {
  try {
    parseCurveCert(text);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(CurveCertError);
    return (e as CurveCertError).problems;
  }
}

describe('certificate writer', () => {
  test('writes the flux keygen layout, byte for byte (zmq_curve(7) server key as seed)', () => {
    // GIVEN the published server secret key as seed
    // WHEN
    const text = createCurveCert({ name: 'fluxtest', seed: SERVER.secretHex, metadata: { 'keygen.hostname': 'fluxtest-0' } });
    // THEN
    expect(text).toBe(
      '#  ZeroMQ CURVE **Secret** Certificate\n' +
        '#  DO NOT DISTRIBUTE\n' +
        '\n' +
        'metadata\n' +
        '    name = "fluxtest"\n' +
        '    keygen.hostname = "fluxtest-0"\n' +
        'curve\n' +
        `    public-key = "${SERVER.publicZ85}"\n` +
        `    secret-key = "${SERVER.secretZ85}"\n`,
    );
  });

  test('the same seed and options give byte-identical text; metadata is written in key order', () => {
    const a = createCurveCert({ name: 'x', seed: CLIENT.secretHex, metadata: { b: '2', a: '1', 'a.b': '3' } });
    const b = createCurveCert({ name: 'x', seed: CLIENT.secretHex.toLowerCase(), metadata: { 'a.b': '3', a: '1', b: '2' } });
    expect(a).toBe(b);
    expect(a).toContain('    name = "x"\n    a = "1"\n    a.b = "3"\n    b = "2"\ncurve\n');
  });

  test('fresh certificates parse, and their public key is tweetnacl scalarMult.base(secret)', () => {
    for (let i = 0; i < 25; i++) {
      const parsed = parseCurveCert(createCurveCert({ name: 'flux-sample' }));
      expect(parsed.name).toBe('flux-sample');
      expect(parsed.metadata).toEqual({ name: 'flux-sample' });
      expect(Buffer.from(nacl.scalarMult.base(z85Decode(parsed.secretKey))).equals(Buffer.from(z85Decode(parsed.publicKey)))).toBe(true);
    }
  });

  test('every written line follows the parser rules: sections unindented, entries indented and double-quoted, < 255 bytes', () => {
    const text = formatCurveCert(generateCurveKeyPair(), { name: 'n', metadata: { 'keygen.time': '2026-11-22T01:57:34' } });
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    for (const line of lines) {
      expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(255);
      expect(line).toMatch(/^(#.*|metadata|curve|    [A-Za-z0-9.-]+ = "[A-Za-z0-9.\-:+=^!/*?&<>()[\]{}@%$# \t]*"|)$/);
    }
    expect(lines.filter((l) => /^    (public|secret)-key = "[^"]{40}"$/.test(l))).toHaveLength(2);
  });

  test('writer and parser agree on any valid name and metadata', () => {
    const keyChar = fc.constantFrom(...'abcXYZ019.-');
    const valueChar = fc.constantFrom(...'aZ09.-:+=^!/*?&<>()[]{}@%$# \t');
    const key = fc.string({ unit: keyChar, minLength: 1, maxLength: 20 }).filter((k) => k !== 'name');
    const value = fc.string({ unit: valueChar, maxLength: 60 });
    fc.assert(
      fc.property(value, fc.dictionary(key, value, { maxKeys: 5 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (name, metadata, seed) => {
        const parsed = parseCurveCert(createCurveCert({ name, metadata, seed: Buffer.from(seed).toString('hex') }));
        // Values keep inner spaces; the parser strips around the quotes, never inside them.
        expect(parsed.metadata).toEqual({ ...metadata, name });
        expect(parsed.secretKey).toBe(z85Encode(seed));
      }),
      { numRuns: 100 },
    );
  });

  test('bad names, metadata and seeds are all reported at once, naming the field and rule', () => {
    let message = '';
    try {
      createCurveCert({ name: 'flux_test', seed: 'zz', metadata: { keygen_time: 'now', name: 'dup', ok: 'x'.repeat(250) } });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'cannot create the CURVE certificate:',
      '  - seed: must be 64 hexadecimal characters (32 bytes), got 2 characters including non-hexadecimal ones',
      "  - metadata['name']: set the name with the name option, not in metadata",
      "  - name: '_' (U+005F) at position 5 is not allowed (allowed: A-Z a-z 0-9, space, tab and .-:+=^!/*?&<>()[]{}@%$#)",
      "  - metadata['keygen_time']: key 'keygen_time' has '_' (U+005F), outside [A-Za-z0-9.-]",
      "  - metadata['ok']: its line would be 261 bytes; flux-core reads lines into a 256-byte buffer (at most 254 bytes plus the newline)",
    ]);
  });

  test('a key pair whose public key does not belong to its secret key is refused', () => {
    const pair = { publicKey: z85Decode(CLIENT.publicZ85), secretKey: z85Decode(SERVER.secretZ85) };
    expect(() => formatCurveCert(pair, { name: 'n' })).toThrow('keyPair.publicKey: does not belong to keyPair.secretKey');
    expect(() => formatCurveCert({ publicKey: new Uint8Array(3), secretKey: new Uint8Array(32) }, { name: 'n' })).toThrow('keyPair.publicKey: must be 32 bytes, got 3');
  });
});

// flux-runtime.md §8.3: what flux-core 0.88 accepts and rejects, row by row.
describe('certificate parser: the flux-core 0.88 acceptance table', () => {
  test('only `name` in metadata: accepted', () => {
    const parsed = parseCurveCert(cert(VALID));
    expect(parsed).toEqual({ name: 'fluxtest', metadata: { name: 'fluxtest' }, publicKey: SERVER.publicZ85, secretKey: SERVER.secretZ85 });
  });

  test('no metadata entries (no section, or an empty one): rejected for rank 0, accepted for a follower', () => {
    for (const text of [cert(curve()), cert(['metadata', ...curve()])]) {
      expect(problemsOf(text)).toEqual([
        "no 'name' entry in the 'metadata' section: rank 0 needs it to authorize its children (flux-core fails with 'overlay_authorize: Invalid argument')",
      ]);
      expect(parseCurveCert(text, { requireName: false }).metadata).toEqual({});
    }
  });

  test('metadata key or value with `_`: rejected', () => {
    expect(problemsOf(cert(['metadata', '    name = "x"', '    keygen_time = "1"', ...curve()]))).toEqual([
      "line 3: key 'keygen_time' has '_' (U+005F), outside [A-Za-z0-9.-]",
    ]);
    expect(problemsOf(cert(['metadata', '    name = "flux_test"', ...curve()]))).toEqual([
      "line 2: the value of 'name': '_' (U+005F) at position 5 is not allowed (allowed: A-Z a-z 0-9, space, tab and .-:+=^!/*?&<>()[]{}@%$#)",
    ]);
  });

  test('a public key that does not match the secret: rejected', () => {
    expect(problemsOf(cert(['metadata', '    name = "x"', ...curve(CLIENT.publicZ85, SERVER.secretZ85)]))).toEqual([
      'public-key does not belong to secret-key: Flux requires public = curve25519(secret) (zmq_curve_public)',
    ]);
  });

  test('entry lines not indented: rejected', () => {
    expect(problemsOf(cert(['metadata', 'name = "x"', 'curve', `public-key = "${SERVER.publicZ85}"`, `    secret-key = "${SERVER.secretZ85}"`]))).toEqual([
      "line 2: entries must be indented (a space or a tab) under their 'metadata' or 'curve' section",
      "line 4: entries must be indented (a space or a tab) under their 'metadata' or 'curve' section",
      "no public-key entry in a 'curve' section (both keys are required)",
      "no 'name' entry in the 'metadata' section: rank 0 needs it to authorize its children (flux-core fails with 'overlay_authorize: Invalid argument')",
    ]);
  });

  test('single-quoted values: rejected', () => {
    expect(problemsOf(cert(['metadata', "    name = 'x'", ...curve()]))).toEqual([
      "line 2: the value of 'name' must be in double quotes (single quotes are not accepted)",
    ]);
  });

  test('CRLF, tab indentation, curve before metadata, secret before public, no final newline: accepted', () => {
    const expected = { name: 'fluxtest', metadata: { name: 'fluxtest' }, publicKey: SERVER.publicZ85, secretKey: SERVER.secretZ85 };
    expect(parseCurveCert(cert(VALID, '\r\n'))).toEqual(expected);
    expect(parseCurveCert(cert(VALID.map((l) => l.replace(/^ {4}/, '\t'))))).toEqual(expected);
    expect(parseCurveCert(cert([...curve(), 'metadata', '    name = "fluxtest"']))).toEqual(expected);
    expect(parseCurveCert(cert(['metadata', '    name = "fluxtest"', 'curve', `    secret-key = "${SERVER.secretZ85}"`, `    public-key = "${SERVER.publicZ85}"`]))).toEqual(expected);
    expect(parseCurveCert(VALID.join('\n'))).toEqual(expected);
  });

  test('lines must fit the 256-byte buffer: 255 bytes with the newline pass, 256 fail', () => {
    const entry = (valueLength: number) => `    long = "${'v'.repeat(valueLength)}"`;
    expect(Buffer.byteLength(entry(241)) + 1).toBe(255);
    expect(parseCurveCert(cert([...VALID, 'metadata', entry(241)])).metadata.long).toHaveLength(241);
    expect(problemsOf(cert([...VALID, 'metadata', entry(242)]))).toEqual([
      'line 7: 256 bytes with its newline; flux-core reads lines into a 256-byte buffer, so a line may hold at most 255 bytes including the newline',
    ]);
    expect(problemsOf(cert([`# ${'c'.repeat(300)}`, ...VALID]))).toEqual([expect.stringMatching(/^line 1: 303 bytes with its newline;/)]);
  });
});

describe('certificate parser: the other rules of flux-core cert_read', () => {
  test('comments (indented too), blank lines, repeated sections, spacing around = and "=" inside values are fine', () => {
    const parsed = parseCurveCert(
      cert(['# header', '', '   # indented comment', 'metadata', '    name="a=b"', '   ', 'metadata  ', '\tx.y-z   =   ""', ...curve()]),
    );
    expect(parsed.metadata).toEqual({ name: 'a=b', 'x.y-z': '' });
  });

  test('a repeated curve key replaces the earlier one, as in flux-core', () => {
    const text = cert(['metadata', '    name = "n"', 'curve', `    public-key = "${CLIENT.publicZ85}"`, `    secret-key = "${SERVER.secretZ85}"`, `    public-key = "${SERVER.publicZ85}"`]);
    expect(parseCurveCert(text).publicKey).toBe(SERVER.publicZ85);
  });

  test('structural errors name the line and the rule, all at once', () => {
    const text = cert([
      '    name = "before any section"',
      '\uFEFFmetadata',
      'metadata',
      '    name = "n"',
      '    name = "again"',
      '    no equals sign',
      '    = "empty key"',
      '    quote = "a"b"',
      'curve extra',
      'curve',
      `    private-key = "${SERVER.secretZ85}"`,
      `    public-key = "${SERVER.publicZ85.slice(1)}"`,
      `    secret-key = "#####${SERVER.secretZ85.slice(5)}"`,
    ]);
    expect(curveCertProblems(text)).toEqual([
      "line 1: indented entry before any 'metadata' or 'curve' section line",
      'line 2: starts with a byte-order mark (U+FEFF), which flux-core does not skip',
      "line 5: metadata key 'name' appears twice (flux-core rejects duplicates)",
      'line 6: expected an entry of the form key = "value"',
      'line 7: the key is empty',
      "line 8: the value of 'quote': '\"' (U+0022) at position 2 is not allowed (allowed: A-Z a-z 0-9, space, tab and .-:+=^!/*?&<>()[]{}@%$#)",
      "line 9: unexpected unindented line starting with 'c' (U+0063): only the section names 'metadata' and 'curve' (alone on the line) and comments may start at column 1",
      "line 11: unknown key 'private-key' in the 'curve' section (only public-key and secret-key are allowed)",
      'line 12: public-key must be 40 Z85 characters (32 bytes), got 39',
      'line 13: secret-key is not valid Z85: characters 1-5 encode a value above 0xFFFFFFFF (4 bytes cannot hold it)',
    ]);
  });

  test('problems never quote key material', () => {
    const secret = `${SERVER.secretZ85.slice(0, 20)}_${SERVER.secretZ85.slice(21)}`;
    const problems = curveCertProblems(cert(['metadata', '    name = "n"', 'curve', `    public-key = "${SERVER.publicZ85}"`, `secret-key = "${secret}"`, `    secret-key = "${secret}"`]));
    expect(problems).toEqual([
      "line 5: entries must be indented (a space or a tab) under their 'metadata' or 'curve' section",
      'line 6: the value of \'secret-key\': a character at position 21 is not allowed (allowed: A-Z a-z 0-9, space, tab and .-:+=^!/*?&<>()[]{}@%$#)',
    ]);
    for (const fragment of [secret.slice(0, 8), secret.slice(-8), SERVER.publicZ85.slice(0, 8)]) {
      expect(problems.join('\n')).not.toContain(fragment);
    }
  });

  test('NUL characters and missing keys are rejected', () => {
    expect(problemsOf(cert(['metadata', '    name = "a"', '    other = "b\0"', ...curve()]))).toEqual(['line 3: contains a NUL character']);
    expect(problemsOf(cert(['metadata', '    name = "n"']))).toEqual([
      "no public-key entry in a 'curve' section (both keys are required)",
      "no secret-key entry in a 'curve' section (both keys are required)",
    ]);
    expect(problemsOf('')).toHaveLength(3);
  });

  test('CurveCertError lists every problem in its message', () => {
    expect(() => parseCurveCert(cert(['metadata', 'name = "x"']))).toThrow(
      /^invalid CURVE certificate:\n {2}- line 2: entries must be indented[^\n]*\n {2}- no public-key entry/,
    );
  });
});

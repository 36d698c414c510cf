import * as fc from 'fast-check';
import * as nacl from 'tweetnacl';
import { curveKeyPairFromSecret, curvePublicKey, generateCurveKeyPair, z85Decode, z85Encode } from '../../lib/cert';
import { ZMQ_CURVE_TEST_KEYS } from './published-vectors';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('CURVE key pairs', () => {
  test('the zmq_curve(7) test secrets give their published public keys', () => {
    for (const pair of [ZMQ_CURVE_TEST_KEYS.client, ZMQ_CURVE_TEST_KEYS.server]) {
      expect(z85Encode(curvePublicKey(z85Decode(pair.secretZ85)))).toBe(pair.publicZ85);
    }
  });

  // tweetnacl's pure-JS scalar multiplication is slow (tens of ms), so 100 + 100 keys.
  test('generated pairs match tweetnacl byte for byte: public = scalarMult.base(secret)', () => {
    for (let i = 0; i < 100; i++) {
      const { publicKey, secretKey } = generateCurveKeyPair();
      expect(secretKey).toHaveLength(32);
      expect(publicKey).toHaveLength(32);
      expect(same(nacl.scalarMult.base(secretKey), publicKey)).toBe(true);
    }
  });

  test('any 32 bytes are a secret key whose public key matches tweetnacl', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (secret) => {
        const pair = curveKeyPairFromSecret(secret);
        expect(same(pair.secretKey, secret)).toBe(true); // stored as given, not clamped
        expect(same(pair.publicKey, nacl.scalarMult.base(secret))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  test('fresh pairs are all different', () => {
    const secrets = new Set(Array.from({ length: 200 }, () => Buffer.from(generateCurveKeyPair().secretKey).toString('hex')));
    expect(secrets.size).toBe(200);
  });

  test('a secret key that is not 32 bytes is rejected', () => {
    expect(() => curvePublicKey(new Uint8Array(31))).toThrow('a CURVE secret key is 32 bytes, got 31');
    expect(() => curveKeyPairFromSecret(new Uint8Array(33))).toThrow('got 33');
  });
});

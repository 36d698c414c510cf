/**
 * CURVE key pairs: Curve25519 (X25519) keys as ZeroMQ uses them, computed with node:crypto.
 */
import * as crypto from 'crypto';

/** CURVE public and secret keys are always 32 bytes (ZeroMQ RFC 26). */
export const CURVE_KEY_BYTES = 32;

/** A CURVE key pair, raw bytes. */
export interface CurveKeyPair {
  /** X25519 public key: the secret key times the curve's base point. */
  readonly publicKey: Uint8Array;
  /** X25519 secret key, exactly as stored in the certificate (not clamped). */
  readonly secretKey: Uint8Array;
}

// DER prefixes of an X25519 PKCS#8 private key and SubjectPublicKeyInfo (RFC 8410); the raw
// 32-byte key follows. Node's JWK import needs the public key too, so DER is the way in.
const PKCS8_X25519_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_X25519_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

/** A fresh random key pair. */
export function generateCurveKeyPair(): CurveKeyPair {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('x25519');
  return {
    publicKey: rawKey(publicKey.export({ format: 'der', type: 'spki' }), SPKI_X25519_PREFIX),
    secretKey: rawKey(privateKey.export({ format: 'der', type: 'pkcs8' }), PKCS8_X25519_PREFIX),
  };
}

/** The key pair whose secret key is `secretKey` (any 32 bytes, as `zmq_curve_public` accepts). */
export function curveKeyPairFromSecret(secretKey: Uint8Array): CurveKeyPair {
  return { publicKey: curvePublicKey(secretKey), secretKey: Uint8Array.from(secretKey) };
}

/** The public key of `secretKey`, as libzmq's `zmq_curve_public` computes it. */
export function curvePublicKey(secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== CURVE_KEY_BYTES) {
    throw new Error(`a CURVE secret key is ${CURVE_KEY_BYTES} bytes, got ${secretKey.length}`);
  }
  const privateKey = crypto.createPrivateKey({
    key: Buffer.concat([PKCS8_X25519_PREFIX, secretKey]),
    format: 'der',
    type: 'pkcs8',
  });
  return rawKey(crypto.createPublicKey(privateKey).export({ format: 'der', type: 'spki' }), SPKI_X25519_PREFIX);
}

/** The 32 raw key bytes that follow `prefix` in a DER export. */
function rawKey(der: Buffer, prefix: Buffer): Uint8Array {
  if (der.length !== prefix.length + CURVE_KEY_BYTES || !der.subarray(0, prefix.length).equals(prefix)) {
    throw new Error('unexpected X25519 key encoding from node:crypto');
  }
  return new Uint8Array(der.subarray(prefix.length));
}

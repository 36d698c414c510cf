import * as crypto from 'crypto';

/**
 * Keys derived from the cluster's CURVE certificate file. The certificate holds a 256-bit secret,
 * so HKDF outputs are unguessable without it; distinct `info` strings keep the uses apart.
 */
export interface HandshakeKeys {
  /** HMAC key for the challenge-response; never sent, never logged. */
  readonly authKey: Buffer;
  /**
   * A public, one-way value that differs when certificates differ, exchanged in the clear so a
   * peer with another certificate is reported as a mismatch rather than as a stranger.
   */
  readonly fingerprint: string;
}

const SALT = Buffer.from('cdk8s-minicluster/flux-handshake/v1');

export function deriveKeys(certificate: Buffer): HandshakeKeys {
  const derive = (info: string, length: number): Buffer =>
    Buffer.from(crypto.hkdfSync('sha256', certificate, SALT, Buffer.from(info), length));
  return {
    authKey: derive('challenge-response key', 32),
    fingerprint: derive('certificate fingerprint', 16).toString('hex'),
  };
}

/** Random bytes drawn in blocks: one getrandom call per 128 nonces instead of one per nonce. */
const pool = Buffer.alloc(32 * 128);
let poolOffset = pool.length;

export function nonce(): string {
  if (poolOffset === pool.length) {
    crypto.randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 32;
  return pool.toString('hex', poolOffset - 32, poolOffset);
}

export function hmac(key: Buffer, ...parts: string[]): string {
  // Length-prefix each part so distinct part lists never hash the same.
  let text = '';
  for (const p of parts) text += `${Buffer.byteLength(p)}:${p};`;
  return crypto.createHmac('sha256', key).update(text).digest('hex');
}

/** Constant-time comparison of two hex MACs. */
export function macEqual(a: string, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

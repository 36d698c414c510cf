/**
 * One call from options to certificate text: a fresh key pair, or one derived from a seed so that
 * synthesis is reproducible (at the price of the secret living wherever the seed lives).
 */
import { CURVE_KEY_BYTES, curveKeyPairFromSecret, generateCurveKeyPair } from './keypair';
import { CurveCertMetadata, curveCertMetadataProblems, formatCurveCert } from './write';

/** Options of createCurveCert. */
export interface CreateCurveCertOptions extends CurveCertMetadata {
  /**
   * 32 bytes as 64 hexadecimal characters, used as the X25519 secret key: the same seed always
   * gives the same certificate. Treat it as the private key it is.
   * @default - a fresh random key pair
   */
  readonly seed?: string;
}

/** Certificate text for `options`; throws listing every invalid option. */
export function createCurveCert(options: CreateCurveCertOptions): string {
  const problems = [...seedProblems(options.seed), ...curveCertMetadataProblems(options)];
  if (problems.length > 0) throw new Error(`cannot create the CURVE certificate:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  const keyPair = options.seed === undefined ? generateCurveKeyPair() : curveKeyPairFromSecret(Buffer.from(options.seed, 'hex'));
  return formatCurveCert(keyPair, options);
}

// Describes the seed by shape only: it is a private key.
function seedProblems(seed: string | undefined): string[] {
  if (seed === undefined) return [];
  const hex = /^[0-9a-fA-F]*$/.test(seed);
  if (hex && seed.length === CURVE_KEY_BYTES * 2) return [];
  const detail = hex ? '' : ' including non-hexadecimal ones';
  return [`seed: must be ${CURVE_KEY_BYTES * 2} hexadecimal characters (${CURVE_KEY_BYTES} bytes), got ${seed.length} characters${detail}`];
}

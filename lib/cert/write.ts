/**
 * Writer of CURVE certificate text in the layout `flux keygen` (flux-core 0.88) writes.
 * Output is deterministic: the same key pair and options give byte-identical text.
 */
import { CURVE_KEY_BYTES, CurveKeyPair, curvePublicKey } from './keypair';
import {
  CERT_HEADER,
  CERT_MAX_LINE_BYTES,
  CURVE_SECTION,
  METADATA_SECTION,
  NAME_ENTRY,
  PUBLIC_KEY_ENTRY,
  SECRET_KEY_ENTRY,
  keyProblem,
  valueProblem,
} from './format-rules';
import { z85Encode } from './z85';

/** What a certificate says besides its keys. */
export interface CurveCertMetadata {
  /**
   * Value of the `name` metadata entry, which rank 0 requires (it authorizes its children under
   * this name). Characters: A-Z a-z 0-9, space, tab and `.-:+=^!/*?&<>()[]{}@%$#`.
   */
  readonly name: string;
  /**
   * Further metadata entries, written after `name` in key order. Keys: `[A-Za-z0-9.-]`, not `name`.
   * @default - none
   */
  readonly metadata?: { [key: string]: string };
}

/** The certificate text of `keyPair`; throws listing every invalid name, key or value. */
export function formatCurveCert(keyPair: CurveKeyPair, options: CurveCertMetadata): string {
  const problems = [...keyPairProblems(keyPair), ...curveCertMetadataProblems(options)];
  if (problems.length > 0) throw new Error(`cannot write the CURVE certificate:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return [
    ...CERT_HEADER,
    '',
    METADATA_SECTION,
    ...metadataEntries(options).map(([key, value]) => entryLine(key, value)),
    CURVE_SECTION,
    entryLine(PUBLIC_KEY_ENTRY, z85Encode(keyPair.publicKey)),
    entryLine(SECRET_KEY_ENTRY, z85Encode(keyPair.secretKey)),
    '',
  ].join('\n');
}

/** Every rule the name and metadata break (empty when they can be written). */
export function curveCertMetadataProblems(options: CurveCertMetadata): string[] {
  const problems: string[] = [];
  if (options.metadata && Object.prototype.hasOwnProperty.call(options.metadata, NAME_ENTRY)) {
    problems.push(`metadata['${NAME_ENTRY}']: set the name with the name option, not in metadata`);
  }
  for (const [key, value, field] of metadataEntries(options)) {
    const bad = [keyProblem(key), valueProblem(value)].filter((p) => p !== undefined);
    problems.push(...bad.map((p) => `${field}: ${p}`));
    const bytes = Buffer.byteLength(entryLine(key, value), 'utf8');
    if (bad.length === 0 && bytes > CERT_MAX_LINE_BYTES) {
      problems.push(`${field}: its line would be ${bytes} bytes; flux-core reads lines into a 256-byte buffer (at most ${CERT_MAX_LINE_BYTES} bytes plus the newline)`);
    }
  }
  return problems;
}

/** [key, value, option field] for `name`, then the other metadata in key order. */
function metadataEntries(options: CurveCertMetadata): Array<[string, string, string]> {
  const extra = options.metadata ?? {};
  const keys = Object.keys(extra).filter((key) => key !== NAME_ENTRY).sort();
  return [[NAME_ENTRY, options.name, 'name'], ...keys.map((key): [string, string, string] => [key, extra[key], `metadata['${key}']`])];
}

function entryLine(key: string, value: string): string {
  return `    ${key} = "${value}"`;
}

function keyPairProblems(keyPair: CurveKeyPair): string[] {
  const sizes = [['publicKey', keyPair.publicKey], ['secretKey', keyPair.secretKey]] as const;
  const problems = sizes
    .filter(([, key]) => key.length !== CURVE_KEY_BYTES)
    .map(([field, key]) => `keyPair.${field}: must be ${CURVE_KEY_BYTES} bytes, got ${key.length}`);
  if (problems.length === 0 && !Buffer.from(curvePublicKey(keyPair.secretKey)).equals(keyPair.publicKey)) {
    problems.push('keyPair.publicKey: does not belong to keyPair.secretKey (public must be curve25519(secret))');
  }
  return problems;
}

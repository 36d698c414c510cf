/**
 * Parser and validator of CURVE certificate text, applying the rules of flux-core's `cert_read`
 * (flux-core 0.88) plus rank 0's need for a `name` metadata entry. It reports every problem at once,
 * each with its line and rule, and never quotes key material.
 */
import { curvePublicKey } from './keypair';
import {
  CERT_LINE_BUFFER_BYTES,
  CURVE_KEY_TEXT_LENGTH,
  CURVE_SECTION,
  METADATA_SECTION,
  NAME_ENTRY,
  PUBLIC_KEY_ENTRY,
  SECRET_KEY_ENTRY,
  describeChar,
  keyProblem,
  stripCSpace,
  valueProblem,
} from './format-rules';
import { z85Decode, z85Encode, z85Problem } from './z85';

/** A certificate that passed every rule. */
export interface ParsedCurveCert {
  /** Value of the `name` metadata entry, if present. */
  readonly name?: string;
  /** All metadata entries (including `name`). */
  readonly metadata: { readonly [key: string]: string };
  /** Z85 public key (40 characters). */
  readonly publicKey: string;
  /** Z85 secret key (40 characters). */
  readonly secretKey: string;
}

/** Options of parseCurveCert. */
export interface ParseCurveCertOptions {
  /**
   * Require the `name` metadata entry. Every MiniCluster rank loads the same certificate and rank 0
   * fails without it (`overlay_authorize: Invalid argument`); a lone follower would accept it.
   * @default true
   */
  readonly requireName?: boolean;
}

/** Thrown by parseCurveCert; `problems` lists every rule the text breaks. */
export class CurveCertError extends Error {
  public readonly problems: string[];

  constructor(problems: string[]) {
    super(`invalid CURVE certificate:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'CurveCertError';
    this.problems = problems;
  }
}

/** Parses certificate text; throws CurveCertError listing every problem. */
export function parseCurveCert(text: string, options: ParseCurveCertOptions = {}): ParsedCurveCert {
  const { cert, problems } = scan(text, options);
  if (problems.length > 0 || !cert) throw new CurveCertError(problems);
  return cert;
}

/** Every problem of certificate text (empty when valid), for callers that collect errors. */
export function curveCertProblems(text: string, options: ParseCurveCertOptions = {}): string[] {
  return scan(text, options).problems;
}

type Section = 'none' | typeof METADATA_SECTION | typeof CURVE_SECTION;

function scan(text: string, options: ParseCurveCertOptions): { cert?: ParsedCurveCert; problems: string[] } {
  const problems: string[] = [];
  const metadata = new Map<string, string>();
  const keys: { [entry: string]: string | undefined } = {};
  const seenKeys = new Set<string>();
  const seenMetadata = new Set<string>();
  let section: Section = 'none';

  const pieces = text.split('\n');
  pieces.forEach((piece, i) => {
    const hasNewline = i < pieces.length - 1;
    if (!hasNewline && piece === '') return; // text ended with a newline
    const at = `line ${i + 1}`;
    const bytes = Buffer.byteLength(piece, 'utf8') + (hasNewline ? 1 : 0);
    if (bytes > CERT_LINE_BUFFER_BYTES - 1) {
      problems.push(`${at}: ${bytes} bytes${hasNewline ? ' with its newline' : ''}; flux-core reads lines into a ${CERT_LINE_BUFFER_BYTES}-byte buffer, so a line may hold at most ${CERT_LINE_BUFFER_BYTES - 1} bytes including the newline`);
      return;
    }
    if (piece.includes('\0')) {
      problems.push(`${at}: contains a NUL character`);
      return;
    }
    const indented = piece.startsWith(' ') || piece.startsWith('\t');
    const stripped = stripCSpace(piece);
    if (stripped === '' || stripped.startsWith('#')) return;

    if (!indented && (stripped === METADATA_SECTION || stripped === CURVE_SECTION)) {
      section = stripped;
    } else if (indented && section === METADATA_SECTION) {
      const { key, value } = parseEntry(stripped, at, problems, true);
      if (key === undefined) return;
      if (seenMetadata.has(key)) problems.push(`${at}: metadata key '${key}' appears twice (flux-core rejects duplicates)`);
      seenMetadata.add(key);
      if (value !== undefined && !metadata.has(key)) metadata.set(key, value);
    } else if (indented && section === CURVE_SECTION) {
      const { key, value } = parseEntry(stripped, at, problems, false);
      if (key === undefined) return;
      if (key !== PUBLIC_KEY_ENTRY && key !== SECRET_KEY_ENTRY) {
        problems.push(`${at}: unknown key '${key}' in the '${CURVE_SECTION}' section (only ${PUBLIC_KEY_ENTRY} and ${SECRET_KEY_ENTRY} are allowed)`);
        return;
      }
      seenKeys.add(key);
      if (value === undefined) return;
      const problem = keyTextProblem(value);
      if (problem) problems.push(`${at}: ${key} ${problem}`);
      else keys[key] = value; // a repeated key replaces the earlier one, as in flux-core
    } else if (indented) {
      problems.push(`${at}: indented entry before any '${METADATA_SECTION}' or '${CURVE_SECTION}' section line`);
    } else {
      problems.push(`${at}: ${unindentedProblem(stripped)}`);
    }
  });

  const publicKey = keys[PUBLIC_KEY_ENTRY];
  const secretKey = keys[SECRET_KEY_ENTRY];
  for (const entry of [PUBLIC_KEY_ENTRY, SECRET_KEY_ENTRY]) {
    if (keys[entry] === undefined && !seenKeys.has(entry)) {
      problems.push(`no ${entry} entry in a '${CURVE_SECTION}' section (both keys are required)`);
    }
  }
  if (publicKey !== undefined && secretKey !== undefined && z85Encode(curvePublicKey(z85Decode(secretKey))) !== publicKey) {
    problems.push(`${PUBLIC_KEY_ENTRY} does not belong to ${SECRET_KEY_ENTRY}: Flux requires public = curve25519(secret) (zmq_curve_public)`);
  }
  if ((options.requireName ?? true) && !seenMetadata.has(NAME_ENTRY)) {
    problems.push(`no '${NAME_ENTRY}' entry in the '${METADATA_SECTION}' section: rank 0 needs it to authorize its children (flux-core fails with 'overlay_authorize: Invalid argument')`);
  }
  if (problems.length > 0 || publicKey === undefined || secretKey === undefined) return { problems };
  return {
    problems,
    cert: { name: metadata.get(NAME_ENTRY), metadata: Object.fromEntries(metadata), publicKey, secretKey },
  };
}

/**
 * Parses `key = "value"`, pushing every problem of the entry. Returns the key if it is valid and the
 * value if it is valid. `showChars` false keeps characters of the value (maybe a key) out of messages.
 */
function parseEntry(stripped: string, at: string, problems: string[], showChars: boolean): { key?: string; value?: string } {
  const eq = stripped.indexOf('=');
  if (eq < 0) {
    problems.push(`${at}: expected an entry of the form key = "value"`);
    return {};
  }
  const key = stripCSpace(stripped.slice(0, eq));
  const quoted = stripCSpace(stripped.slice(eq + 1));
  const badKey = keyProblem(key);
  if (badKey) problems.push(`${at}: ${badKey}`);
  const label = badKey ? 'the value' : `the value of '${key}'`;
  let badValue: string | undefined;
  if (quoted.length < 2 || !quoted.startsWith('"') || !quoted.endsWith('"')) {
    const hint = quoted.startsWith("'") ? ' (single quotes are not accepted)' : '';
    badValue = `${at}: ${label} must be in double quotes${hint}`;
  } else {
    const problem = valueProblem(quoted.slice(1, -1), showChars);
    if (problem) badValue = `${at}: ${label}: ${problem}`;
  }
  if (badValue) problems.push(badValue);
  return { key: badKey ? undefined : key, value: badValue ? undefined : quoted.slice(1, -1) };
}

function keyTextProblem(value: string): string | undefined {
  if (value.length !== CURVE_KEY_TEXT_LENGTH) {
    return `must be ${CURVE_KEY_TEXT_LENGTH} Z85 characters (32 bytes), got ${value.length}`;
  }
  const problem = z85Problem(value);
  return problem ? `is not valid Z85: ${problem}` : undefined;
}

function unindentedProblem(stripped: string): string {
  if (stripped.startsWith('\uFEFF')) return 'starts with a byte-order mark (U+FEFF), which flux-core does not skip';
  if (stripped.includes('=')) return `entries must be indented (a space or a tab) under their '${METADATA_SECTION}' or '${CURVE_SECTION}' section`;
  const first = describeChar([...stripped][0]);
  return `unexpected unindented line starting with ${first}: only the section names '${METADATA_SECTION}' and '${CURVE_SECTION}' (alone on the line) and comments may start at column 1`;
}

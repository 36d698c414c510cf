/**
 * Container image references, checked against the grammar of the distribution/reference library
 * that container runtimes use: `[host[:port]/]path[:tag][@algorithm:hex]`.
 */

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = new RegExp(`^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]+)?$`);
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
/** Digest algorithms a pin may use, with their hex length. */
const DIGESTS: { [algorithm: string]: number } = { sha256: 64, sha512: 128 };
const MAX_NAME_LENGTH = 255;

/** What a valid reference looks like, for error messages. */
export const IMAGE_REFERENCE_FORM = '[registry[:port]/]path[:tag][@sha256:<64 hex digits>]';

/** Why `ref` is not an image reference, or undefined when it is one. */
export function imageReferenceError(ref: string): string | undefined {
  const form = `must be an image reference ${IMAGE_REFERENCE_FORM}`;
  const at = ref.indexOf('@');
  let rest = ref;
  if (at >= 0) {
    const digest = ref.slice(at + 1);
    rest = ref.slice(0, at);
    const [algorithm, hex, extra] = digest.split(':');
    const length = DIGESTS[algorithm];
    if (length === undefined || extra !== undefined || hex === undefined) {
      return `${form}: the digest '${digest}' must be sha256:<64 hex digits> (or sha512:<128 hex digits>)`;
    }
    if (!new RegExp(`^[a-f0-9]{${length}}$`).test(hex)) return `${form}: a ${algorithm} digest is ${length} lower-case hex digits`;
  }
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  let name = rest;
  if (colon > slash) {
    const tag = rest.slice(colon + 1);
    name = rest.slice(0, colon);
    if (!TAG.test(tag)) return `${form}: the tag '${tag}' must be 1-128 letters, digits, '_', '.' or '-', not starting with '.' or '-'`;
  }
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return `${form}: the name must have 1-${MAX_NAME_LENGTH} characters`;
  const parts = name.split('/');
  // The first part is a registry host when more parts follow and it looks like one (as docker reads it).
  const first = parts[0];
  const isDomain = parts.length > 1 && (/[.:]/.test(first) || first === 'localhost' || first !== first.toLowerCase() || first.startsWith('['));
  if (isDomain && !DOMAIN.test(first)) return `${form}: '${first}' is not a registry host[:port]`;
  const path = isDomain ? parts.slice(1) : parts;
  const bad = path.find((p) => !PATH_COMPONENT.test(p));
  if (bad !== undefined) return `${form}: the path component '${bad}' must be lower-case letters and digits separated by '.', '_', '__' or '-'`;
  return undefined;
}

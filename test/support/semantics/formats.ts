/**
 * Value formats of k8s.io/apimachinery/pkg/util/validation (validation.go and the content package),
 * each returning the upstream messages ([] when valid), plus exact resource quantities
 * (k8s.io/apimachinery/pkg/api/resource) for comparisons: the library's own parser, so the
 * library's synth-time checks and this port cannot disagree about a quantity.
 */
import * as net from 'net';

export { ceilMilliValue, ceilValue, compareQuantities, parseQuantity } from '../../../lib/core/k8s-formats';
export type { Quantity } from '../../../lib/core/k8s-formats';

const MAX_UNIX_ID = 2147483647;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_LABEL_US_FMT = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_US_FMT = `${DNS1123_LABEL_US_FMT}(\\.${DNS1123_LABEL_US_FMT})*`;
const DNS1123_SUBDOMAIN_US = new RegExp(`^${DNS1123_SUBDOMAIN_US_FMT}$`);
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/** MaxLenError. */
export const maxLen = (n: number) => `must be no more than ${n} characters`;
/** InclusiveRangeError. */
export const inclusiveRange = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

/** RegexError. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}'`).join(' or ')}, regex used for validation is '${fmt}')`;
}

/** IsDNS1123Label. */
export function dns1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!DNS1123_LABEL.test(v)) {
    errs.push(DNS1123_SUBDOMAIN.test(v) ? 'must not contain dots'
      : regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

/** IsDNS1123Subdomain. */
export function dns1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!DNS1123_SUBDOMAIN.test(v)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

/** IsDNS1123SubdomainWithUnderscore (relaxed DNS search paths). */
export function dns1123SubdomainWithUnderscore(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!DNS1123_SUBDOMAIN_US.test(v)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN_US_FMT, 'example.com'));
  }
  return errs;
}

/** IsDNS1035Label. */
export function dns1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!DNS1035_LABEL.test(v)) {
    errs.push(regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  }
  return errs;
}

/** IsQualifiedName (content.IsLabelKey): label and annotation keys, condition types. */
export function qualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...dns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** IsValidLabelValue (content.IsLabelValue). */
export function labelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!LABEL_VALUE.test(v)) {
    errs.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

/** hasChDirPrefix. */
function chDirPrefix(v: string): string[] {
  if (v === '.') return ["must not be '.'"];
  if (v === '..') return ["must not be '..'"];
  if (v.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** IsConfigMapKey: ConfigMap and Secret data keys, key selectors. */
export function configMapKey(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!new RegExp(`^${CONFIG_MAP_KEY_FMT}$`).test(v)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  }
  return [...errs, ...chDirPrefix(v)];
}

/** IsEnvVarName (strict, before RelaxedEnvironmentVariableValidation). */
export function envVarName(v: string): string[] {
  const errs: string[] = [];
  if (!new RegExp(`^${ENV_VAR_NAME_FMT}$`).test(v)) {
    errs.push(regexError("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit", ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  }
  return [...errs, ...chDirPrefix(v)];
}

/** IsRelaxedEnvVarName. */
export function relaxedEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (v.length === 0) errs.push('environment variable name must be non-empty');
  if ([...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0x7e || c === '=')) {
    errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
  }
  return errs;
}

/** IsValidPortName (IANA_SVC_NAME). */
export function portName(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 15) errs.push(maxLen(15));
  if (!/^[-a-z0-9]+$/.test(v)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(v)) errs.push('must contain at least one letter (a-z)');
  if (v.includes('--')) errs.push('must not contain consecutive hyphens');
  if (v.length > 0 && (v.startsWith('-') || v.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** IsValidPortNum. */
export function portNum(v: number): string[] {
  return v >= 1 && v <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

/** IsValidUserID / IsValidGroupID: 0 to math.MaxInt32 (not the uint32 range). */
export function unixId(v: number): string[] {
  return v >= 0 && v <= MAX_UNIX_ID ? [] : [inclusiveRange(0, MAX_UNIX_ID)];
}

/** path.IsValidPathSegmentName: RBAC object names. */
export function pathSegmentName(v: string): string[] {
  if (v === '.' || v === '..') return [`may not be '${v}'`];
  return ['/', '%'].filter((c) => v.includes(c)).map((c) => `may not contain '${c}'`);
}

/** IsDomainPrefixedPath (Job managedBy); [] when valid. */
export function domainPrefixedPath(v: string): string[] {
  const slash = v.indexOf('/');
  if (slash <= 0 || slash === v.length - 1) return ['must be a domain-prefixed path (such as "acme.io/foo")'];
  const errs = dns1123Subdomain(v.slice(0, slash));
  if (!new RegExp(`^${HTTP_PATH_FMT}$`).test(v.slice(slash + 1))) errs.push(regexError('Invalid path', HTTP_PATH_FMT));
  return errs;
}

/** IsValidIP (Go's net.ParseIP: no leading zeros in IPv4). */
export function ipAddress(v: string): string[] {
  return net.isIP(v) !== 0 ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

/** A parsed CIDR, or undefined (net.ParseCIDR). */
export function parseCidr(v: string): { family: 4 | 6; bits: bigint; prefix: number } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(v);
  if (!m) return undefined;
  const family = net.isIP(m[1]);
  const prefix = Number(m[2]);
  if (family === 0 || prefix > (family === 4 ? 32 : 128)) return undefined;
  return { family: family as 4 | 6, bits: ipBits(m[1], family as 4 | 6), prefix };
}

function ipBits(ip: string, family: 4 | 6): bigint {
  if (family === 4) return ip.split('.').reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
  const gap = ip.indexOf('::');
  const groups = (s: string) => (s ? s.split(':') : []).flatMap((g) => (g.includes('.') ? v4Groups(g) : [g]));
  const head = groups(gap >= 0 ? ip.slice(0, gap) : ip);
  const tail = gap >= 0 ? groups(ip.slice(gap + 2)) : [];
  const all = [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function v4Groups(v4: string): string[] {
  const n = Number(ipBits(v4, 4));
  return [((n >>> 16) & 0xffff).toString(16), (n & 0xffff).toString(16)];
}

/** Whether CIDR `inner` lies strictly inside `outer` (ValidateIPBlock's except rule). */
export function strictSubnet(outer: NonNullable<ReturnType<typeof parseCidr>>, inner: NonNullable<ReturnType<typeof parseCidr>>): boolean {
  if (outer.family !== inner.family || inner.prefix <= outer.prefix) return false;
  const width = BigInt(outer.family === 4 ? 32 : 128);
  const shift = width - BigInt(outer.prefix);
  return (outer.bits >> shift) === (inner.bits >> shift);
}

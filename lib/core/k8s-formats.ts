/** Kubernetes value formats the API server enforces but cdk8s does not check at synth time. */

/** DNS-1123 label: pod, container, volume and namespace names. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1035 label: Service names (and so the MiniCluster name, the default Service name). */
export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1123 subdomain: ConfigMap, Secret and PVC names, cluster domains. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A resource quantity (`500m`, `2Gi`, `1e3`). */
export const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;
/** An environment variable name the API server accepts. */
export const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
/** An RFC 23 (Flux Standard Duration) value such as `5s`, `1.5m`, `100ms`. */
export const FSD = /^\d+(\.\d+)?(ms|s|m|h|d)?$/;

/** Largest user or group ID the API server accepts (IsValidUserID / IsValidGroupID: math.MaxInt32). */
export const MAX_UNIX_ID = 2147483647;
/** The rule a runAsUser, runAsGroup or fsGroup breaks. */
export const UNIX_ID_RULE = `must be an integer from 0 to ${MAX_UNIX_ID} (the API server's user and group ID range)`;

/** Whether `v` is a user or group ID the API server accepts. */
export function isUnixId(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_UNIX_ID;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Why `key` is not a valid label or annotation key, or undefined when it is. */
export function labelKeyError(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) {
    return 'key prefix must be a DNS-1123 subdomain';
  }
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    return 'key name must be 1-63 alphanumerics, -, _ or . starting and ending alphanumeric';
  }
  return undefined;
}

/** Why `value` is not a valid label value, or undefined when it is. */
export function labelValueError(value: string): string | undefined {
  if (value.length > 63 || !LABEL_VALUE.test(value)) {
    return 'label value must be at most 63 alphanumerics, -, _ or . starting and ending alphanumeric';
  }
  return undefined;
}

/** A resource quantity as the exact rational num/den (den > 0), as the API server compares it. */
export interface Quantity {
  readonly num: bigint;
  readonly den: bigint;
}

const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
/** An exponent suffix (`e3`, `E-2`); a bare `E` is the exa suffix. */
const EXPONENT = /^[eE][+-]?\d/;
const NANOS_PER_UNIT = 10n ** 9n;
/**
 * Exact arithmetic expands 10^exponent: beyond this a value like `1e99999999` would take minutes
 * and gigabytes to synthesize. No real resource comes near it (`1e1000` cores).
 */
const MAX_EXPONENT = 1000;

/**
 * resource.ParseQuantity, exactly; undefined when `v` is not a quantity. Exact because the API
 * server compares exactly: in floats 700m is 0.7000000000000001, more than 0.7.
 */
export function parseQuantity(v: unknown): Quantity | undefined {
  const text = typeof v === 'number' ? String(v) : v;
  if (typeof text !== 'string') return undefined;
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const [int, frac = ''] = m[1].split('.');
  let num = BigInt(`${int || '0'}${frac}`) * (text.startsWith('-') ? -1n : 1n);
  let den = 10n ** BigInt(frac.length);
  const suffix = m[3] ?? '';
  const exp10 = EXPONENT.test(suffix) ? Number(suffix.slice(1)) : DECIMAL_SUFFIXES[suffix] ?? 0;
  if (Math.abs(exp10) > MAX_EXPONENT || frac.length > MAX_EXPONENT) return undefined;
  if (suffix in BINARY_SUFFIXES) num *= 2n ** BigInt(BINARY_SUFFIXES[suffix]);
  if (exp10 >= 0) num *= 10n ** BigInt(exp10);
  else den *= 10n ** BigInt(-exp10);
  return roundUpToNano({ num, den });
}

/** ParseQuantity keeps at most nano precision, rounding finer values away from zero. */
function roundUpToNano(q: Quantity): Quantity {
  const sign = q.num < 0n ? -1n : 1n;
  const scaled = sign * q.num * NANOS_PER_UNIT;
  if (scaled % q.den === 0n) return q;
  return { num: sign * (scaled / q.den + 1n), den: NANOS_PER_UNIT };
}

/** Sign of a - b. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const d = a.num * b.den - b.num * a.den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/** Quantity.Value() (rounded up to an integer). */
export function ceilValue(q: Quantity): bigint {
  const whole = q.num / q.den;
  return q.num % q.den > 0n ? whole + 1n : whole;
}

/** Quantity.MilliValue(). */
export function ceilMilliValue(q: Quantity): bigint {
  return ceilValue({ num: q.num * 1000n, den: q.den });
}

/** The quantity as an integer when it is a whole number (`4`, `4000m`, `1.1k`), else undefined. */
export function wholeQuantity(v: unknown): number | undefined {
  const q = parseQuantity(v);
  return q && q.num % q.den === 0n ? Number(q.num / q.den) : undefined;
}

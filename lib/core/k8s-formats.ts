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

/** The value of a quantity in base units, or undefined if it does not parse. */
export function quantityValue(q: string): number | undefined {
  const m = QUANTITY.exec(q);
  if (!m) return undefined;
  const n = Number(q.slice(0, q.length - (m[3]?.length ?? 0)));
  const suffix = m[3] ?? '';
  const factors: Record<string, number> = {
    '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
    Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  };
  if (/^[eE]/.test(suffix)) return Number(q);
  return n * factors[suffix];
}

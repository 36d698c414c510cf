/**
 * ConfigMaps, Secrets and ServiceAccounts, after ValidateConfigMap, ValidateSecret and
 * ValidateServiceAccount in pkg/apis/core/validation/validation.go. A Secret's stringData is merged
 * over its data by the v1 conversion before validation, so both count.
 */
import { FieldErrors, asObject, asString } from './field-errors';
import { configMapKey } from './formats';
import { nameIsDNSSubdomain, validateObjectMeta } from './meta';

/** core.MaxSecretSize: 1 MiB of values, for ConfigMaps and Secrets alike. */
export const MAX_SECRET_SIZE = 1024 * 1024;

const decodedLength = (b64: unknown) => (typeof b64 === 'string' ? Buffer.from(b64, 'base64').length : 0);

/** ValidateConfigMap: keys, no key in both data and binaryData, values total at most 1 MiB. */
export function validateConfigMap(e: FieldErrors, cm: Record<string, any>): void {
  validateObjectMeta(e, cm.metadata, nameIsDNSSubdomain, true);
  const data = asObject(cm.data);
  const binary = asObject(cm.binaryData);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    e.invalidEach(['data', key], key, configMapKey(key), 'ValidateConfigMap');
    if (key in binary) e.invalid(['data', key], key, 'duplicate of key present in binaryData', 'ValidateConfigMap');
    total += typeof value === 'string' ? Buffer.byteLength(value) : 0;
  }
  for (const [key, value] of Object.entries(binary)) {
    e.invalidEach(['binaryData', key], key, configMapKey(key), 'ValidateConfigMap');
    total += decodedLength(value);
  }
  if (total > MAX_SECRET_SIZE) e.tooLong([], MAX_SECRET_SIZE, 'ValidateConfigMap');
}

/** ValidateSecret: keys, values total at most 1 MiB, the keys each type requires. */
export function validateSecret(e: FieldErrors, secret: Record<string, any>): void {
  validateObjectMeta(e, secret.metadata, nameIsDNSSubdomain, true);
  const values = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(asObject(secret.data))) values.set(k, Buffer.from(asString(v), 'base64'));
  for (const [k, v] of Object.entries(asObject(secret.stringData))) values.set(k, Buffer.from(asString(v), 'utf8'));
  let total = 0;
  for (const [key, value] of values) {
    e.invalidEach(['data', key], key, configMapKey(key), 'ValidateSecret');
    total += value.length;
  }
  if (total > MAX_SECRET_SIZE) e.tooLong(['data'], MAX_SECRET_SIZE, 'ValidateSecret');
  const requireKeys = (...keys: string[]) => {
    for (const k of keys) if (!values.has(k)) e.required(['data', k], '', 'ValidateSecret');
  };
  const json = (key: string) => {
    if (!values.has(key)) {
      e.required(['data', key], '', 'ValidateSecret');
      return;
    }
    try {
      const parsed = JSON.parse(values.get(key)!.toString('utf8'));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    } catch (err) {
      e.invalid(['data', key], '<secret contents redacted>', (err as Error).message, 'ValidateSecret');
    }
  };
  switch (secret.type ?? 'Opaque') {
    case 'kubernetes.io/service-account-token':
      if (asString(asObject(asObject(secret.metadata).annotations)['kubernetes.io/service-account.name']) === '') {
        e.required(['metadata', 'annotations', 'kubernetes.io/service-account.name'], '', 'ValidateSecret');
      }
      break;
    case 'kubernetes.io/dockercfg':
      json('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      json('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!values.has('username') && !values.has('password')) requireKeys('username', 'password');
      break;
    case 'kubernetes.io/ssh-auth':
      if ((values.get('ssh-privatekey')?.length ?? 0) === 0) e.required(['data', 'ssh-privatekey'], '', 'ValidateSecret');
      break;
    case 'kubernetes.io/tls':
      requireKeys('tls.crt', 'tls.key');
      break;
    default:
  }
}

/** ValidateServiceAccount: its name is a DNS-1123 subdomain. */
export function validateServiceAccount(e: FieldErrors, sa: Record<string, any>): void {
  validateObjectMeta(e, sa.metadata, nameIsDNSSubdomain, true);
}

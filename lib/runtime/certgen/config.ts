/**
 * Everything certgen needs, read from the environment and the pod's service account files.
 * Reports every missing or invalid input at once.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_SERVICE_ACCOUNT_DIR,
  ENV_CERT_NAME,
  ENV_REQUEST_TIMEOUT_SECONDS,
  ENV_SECRET_LABELS,
  ENV_SECRET_NAME,
  ENV_SERVICE_ACCOUNT_DIR,
} from './contract';

export interface CertgenConfig {
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly ca: Buffer;
  readonly caPath: string;
  readonly namespace: string;
  readonly secretName: string;
  readonly certName: string;
  readonly labels: { [key: string]: string };
  readonly timeoutMs: number;
}

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv): CertgenConfig {
  const problems: string[] = [];
  const required = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === '') problems.push(`environment variable ${name} is not set`);
    return value ?? '';
  };
  const host = required('KUBERNETES_SERVICE_HOST');
  const portText = required('KUBERNETES_SERVICE_PORT');
  const port = Number(portText);
  if (portText !== '' && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    problems.push(`KUBERNETES_SERVICE_PORT must be a port number (1-65535), got '${portText}'`);
  }
  const secretName = required(ENV_SECRET_NAME);
  const certName = required(ENV_CERT_NAME);
  const labels = parseLabels(env[ENV_SECRET_LABELS], problems);
  const timeoutText = env[ENV_REQUEST_TIMEOUT_SECONDS];
  const timeout = timeoutText === undefined || timeoutText === '' ? DEFAULT_REQUEST_TIMEOUT_SECONDS : Number(timeoutText);
  if (!(Number.isFinite(timeout) && timeout > 0)) {
    problems.push(`${ENV_REQUEST_TIMEOUT_SECONDS} must be a positive number of seconds, got '${timeoutText}'`);
  }

  const dir = env[ENV_SERVICE_ACCOUNT_DIR] || DEFAULT_SERVICE_ACCOUNT_DIR;
  const readServiceAccountFile = (file: string): Buffer => {
    const full = path.join(dir, file);
    try {
      return fs.readFileSync(full);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push(`cannot read the service account ${file} at ${full} (${code ?? (e as Error).message}); is automountServiceAccountToken true on the pod?`);
      return Buffer.alloc(0);
    }
  };
  const token = readServiceAccountFile('token').toString('utf8').trim();
  const ca = readServiceAccountFile('ca.crt');
  const namespace = readServiceAccountFile('namespace').toString('utf8').trim();

  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return { host, port, token, ca, caPath: path.join(dir, 'ca.crt'), namespace, secretName, certName, labels, timeoutMs: timeout * 1000 };
}

function parseLabels(text: string | undefined, problems: string[]): { [key: string]: string } {
  if (text === undefined || text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    problems.push(`${ENV_SECRET_LABELS} is not valid JSON: ${(e as Error).message}`);
    return {};
  }
  const isStringMap = typeof value === 'object' && value !== null && !Array.isArray(value)
    && Object.values(value).every((v) => typeof v === 'string');
  if (!isStringMap) {
    problems.push(`${ENV_SECRET_LABELS} must be a JSON object of string values`);
    return {};
  }
  return value as { [key: string]: string };
}

/** The autoscaler's settings, from its environment (set by the MiniCluster); every problem at once. */
import * as path from 'path';
import { AUTOSCALE_DIR, ENV, TOKEN_DIR } from '../../core/autoscale-contract';

export interface AutoscaleConfig {
  readonly jobName: string;
  readonly namespace: string;
  readonly minSize: number;
  readonly maxSize: number;
  readonly idleSeconds: number;
  readonly periodSeconds: number;
  /** The emptyDir shared with the Flux agent. */
  readonly dir: string;
  /** The projected token, CA and namespace. */
  readonly tokenDir: string;
  /** The API server's origin: `https://KUBERNETES_SERVICE_HOST:PORT`, or AUTOSCALE_API_URL in tests. */
  readonly apiUrl: string;
  /** The index of this pod (JOB_COMPLETION_INDEX): only index 0 acts. */
  readonly index: number;
}

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv): AutoscaleConfig {
  const problems: string[] = [];
  const text = (name: string): string => {
    const v = env[name];
    if (v === undefined || v === '') problems.push(`environment variable ${name} is not set`);
    return v ?? '';
  };
  const int = (name: string, min: number): number => {
    const raw = text(name);
    const v = Number(raw);
    if (raw !== '' && !(Number.isInteger(v) && v >= min)) problems.push(`${name} must be an integer >= ${min}, got '${raw}'`);
    return v;
  };
  const jobName = text(ENV.jobName);
  const namespace = text(ENV.namespace);
  const minSize = int(ENV.minSize, 1);
  const maxSize = int(ENV.maxSize, 1);
  if (Number.isInteger(minSize) && Number.isInteger(maxSize) && minSize >= maxSize) {
    problems.push(`${ENV.minSize} (${minSize}) must be below ${ENV.maxSize} (${maxSize}): the cluster is not elastic`);
  }
  const idleSeconds = int(ENV.idleSeconds, 0);
  const periodSeconds = int(ENV.periodSeconds, 1);
  const index = int('JOB_COMPLETION_INDEX', 0);
  let apiUrl = env[ENV.apiUrl] ?? '';
  if (apiUrl === '') {
    const host = text('KUBERNETES_SERVICE_HOST');
    const port = text('KUBERNETES_SERVICE_PORT');
    apiUrl = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return {
    jobName, namespace, minSize, maxSize, idleSeconds, periodSeconds, index, apiUrl,
    dir: env[ENV.dir] || AUTOSCALE_DIR,
    tokenDir: env[ENV.tokenDir] || TOKEN_DIR,
  };
}

/** Paths of the token and CA (read at every request: the kubelet rotates the projected token). */
export function tokenFiles(config: AutoscaleConfig): { token: string; ca: string } {
  return { token: path.join(config.tokenDir, 'token'), ca: path.join(config.tokenDir, 'ca.crt') };
}

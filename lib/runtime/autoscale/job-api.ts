/**
 * The autoscaler's two API calls, on its own Job only: GET, and a JSON merge patch of
 * parallelism, completions and its decision annotation. The token and CA are read from the
 * projected volume at each call (the kubelet rotates the token); TLS is always verified.
 */
import * as fs from 'fs';
import { apiOrigin, connectionTo, kubeApiRequest, KubeApiMethod, statusMessage } from '../shared/kube-api';
import { AutoscaleConfig, tokenFiles } from './config';

const TIMEOUT_MS = 10000;

/** An API answer that is not 2xx, with the server's message. */
export class JobApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

export interface JobApi {
  get(): Promise<any>;
  patch(body: unknown): Promise<any>;
}

export function jobApi(config: AutoscaleConfig): JobApi {
  const path = `/apis/batch/v1/namespaces/${encodeURIComponent(config.namespace)}/jobs/${encodeURIComponent(config.jobName)}`;
  const files = tokenFiles(config);
  // AUTOSCALE_API_URL (tests only) may be plain HTTP.
  const conn = connectionTo(config.apiUrl, {
    token: () => fs.readFileSync(files.token, 'utf8'),
    ca: () => fs.readFileSync(files.ca),
    caPath: files.ca,
    timeoutMs: TIMEOUT_MS,
  });
  const call = async (method: KubeApiMethod, body?: unknown) => {
    const res = await kubeApiRequest(conn, method, path, body);
    if (res.status >= 200 && res.status < 300) return res.body;
    throw new JobApiError(`${method} ${apiOrigin(conn)}${path}: ${res.status} ${statusMessage(res.body) ?? ''}`.trim(), res.status);
  };
  return {
    get: () => call('GET'),
    patch: (body) => call('PATCH', body),
  };
}

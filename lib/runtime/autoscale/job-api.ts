/**
 * The autoscaler's two API calls, on its own Job only: GET, and a JSON merge patch of
 * parallelism, completions and its decision annotation. The token and CA are read from the
 * projected volume at each call (the kubelet rotates the token); TLS is always verified.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import { AutoscaleConfig, tokenFiles } from './config';

const TIMEOUT_MS = 10000;
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

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
  return {
    get: () => call(config, 'GET', path),
    patch: (body) => call(config, 'PATCH', path, body),
  };
}

function call(config: AutoscaleConfig, method: 'GET' | 'PATCH', path: string, body?: unknown): Promise<any> {
  const files = tokenFiles(config);
  const token = fs.readFileSync(files.token, 'utf8').trim();
  const url = new URL(path, config.apiUrl);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  const what = `${method} ${url.origin}${path}`;
  const headers: Record<string, string | number> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (payload) {
    headers['Content-Type'] = 'application/merge-patch+json';
    headers['Content-Length'] = payload.length;
  }
  const options = { method, host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path, headers, agent: false as const };
  return new Promise((resolve, reject) => {
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) req.destroy(new Error(`${what}: response larger than ${MAX_RESPONSE_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        let parsed: any;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          parsed = undefined;
        }
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(parsed);
        else reject(new JobApiError(`${what}: ${status} ${typeof parsed?.message === 'string' ? parsed.message : res.statusMessage ?? ''}`.trim(), status));
      });
      res.on('error', (e) => reject(new Error(`${what}: ${e.message}`)));
    };
    // The CA only over TLS: AUTOSCALE_API_URL (tests) may be plain HTTP.
    const req = url.protocol === 'https:'
      ? https.request({ ...options, ca: fs.readFileSync(files.ca) }, onResponse)
      : http.request(options, onResponse);
    const timer = setTimeout(() => req.destroy(new Error(`${what}: no response within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e.message.startsWith(what) ? e : new Error(`${what}: ${e.message}`));
    });
    req.end(payload);
  });
}

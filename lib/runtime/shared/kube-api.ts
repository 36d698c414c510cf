/**
 * The runtime programs' Kubernetes API client (certgen, the autoscaler): one request with the
 * pod's service account token, the server certificate always verified against the cluster CA, and
 * every request bounded in time and size. No dependency: the programs ship as single files.
 */
import * as http from 'http';
import * as https from 'https';

export interface KubeApiConnection {
  readonly host: string;
  readonly port: number;
  /** The bearer token; a function is called at every request (the kubelet rotates a projected token). */
  readonly token: string | (() => string);
  /** The cluster CA; a function is called at every request, like the token. */
  readonly ca: Buffer | (() => Buffer);
  /** Where the CA came from, for messages. */
  readonly caPath: string;
  readonly timeoutMs: number;
  /** Plain HTTP, without a CA: for tests against a local server only. @default false */
  readonly plainHttp?: boolean;
}

export interface KubeApiResponse {
  readonly status: number;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  readonly body: unknown;
}

/** GET, POST (a new object) and PATCH (a JSON merge patch). */
export type KubeApiMethod = 'GET' | 'POST' | 'PATCH';

/** A failure to get any HTTP response (network, TLS, timeout). */
export class KubeApiUnreachable extends Error {}

const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

const CONTENT_TYPES: Record<KubeApiMethod, string | undefined> = {
  GET: undefined,
  POST: 'application/json',
  PATCH: 'application/merge-patch+json',
};

const TLS_VERIFY_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The API server's address as a URL origin (IPv6 hosts in brackets). */
export function apiOrigin(conn: KubeApiConnection): string {
  return `${conn.plainHttp ? 'http' : 'https'}://${conn.host.includes(':') ? `[${conn.host}]` : conn.host}:${conn.port}`;
}

/** The connection to the origin of `url` (https://host:port; http:// only for tests). */
export function connectionTo(url: string, rest: Omit<KubeApiConnection, 'host' | 'port' | 'plainHttp'>): KubeApiConnection {
  const u = new URL(url);
  const plainHttp = u.protocol === 'http:';
  return { ...rest, host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || (plainHttp ? 80 : 443)), plainHttp };
}

export function kubeApiRequest(conn: KubeApiConnection, method: KubeApiMethod, path: string, body?: unknown): Promise<KubeApiResponse> {
  const what = `${method} ${apiOrigin(conn)}${path}`;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, response?: KubeApiResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(response!);
    };
    let req: http.ClientRequest;
    let payload: Buffer | undefined;
    try {
      payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
      const contentType = CONTENT_TYPES[method];
      const options: https.RequestOptions = {
        host: conn.host,
        port: conn.port,
        method,
        path,
        agent: false,
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${(typeof conn.token === 'function' ? conn.token() : conn.token).trim()}`,
          ...(payload && contentType ? { 'Content-Type': contentType, 'Content-Length': payload.length } : {}),
        },
      };
      const onResponse = (res: http.IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(new KubeApiUnreachable(`${what}: response larger than ${MAX_RESPONSE_BYTES} bytes`));
          } else {
            chunks.push(chunk);
          }
        });
        res.on('end', () => finish(undefined, { status: res.statusCode ?? 0, body: parseJson(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', (e) => finish(describeNetworkError(e, what, conn)));
      };
      req = conn.plainHttp
        ? http.request(options, onResponse)
        : https.request({ ...options, ca: typeof conn.ca === 'function' ? conn.ca() : conn.ca }, onResponse);
    } catch (e) {
      // The token or the CA could not be read.
      reject(new KubeApiUnreachable(`${what}: ${(e as Error).message}`));
      return;
    }
    const timer = setTimeout(() => {
      req.destroy(new KubeApiUnreachable(`${what}: no complete response within ${conn.timeoutMs / 1000} s (request timed out)`));
    }, conn.timeoutMs);
    req.on('error', (e) => finish(e instanceof KubeApiUnreachable ? e : describeNetworkError(e, what, conn)));
    req.end(payload);
  });
}

function describeNetworkError(e: Error, what: string, conn: KubeApiConnection): KubeApiUnreachable {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  if (TLS_VERIFY_CODES.has(code)) {
    return new KubeApiUnreachable(`${what}: the API server's TLS certificate failed verification against the CA in ${conn.caPath} (${code}: ${e.message})`);
  }
  return new KubeApiUnreachable(`${what}: cannot reach the Kubernetes API (${code ? `${code}: ` : ''}${e.message})`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The `message` of a Kubernetes Status body, if any. */
export function statusMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/**
 * The connection to the Kubernetes API, through the official client library, configured as kubectl
 * is: KUBECONFIG or ~/.kube/config, else the in-cluster service account; --kubeconfig, --context
 * and -n override. The library is loaded on first use, never by importing the constructs.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as k8s from '@kubernetes/client-node';
import { Day2Error, EXIT } from './errors';

export type ClientLibrary = typeof import('./kubernetes-client');

let library: ClientLibrary | undefined;
/** The client library, bundled into one file by the build (kubernetes-client.ts). */
export function clientLibrary(): ClientLibrary {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  library ??= require('./kubernetes-client') as ClientLibrary;
  return library;
}

/** The connection options every day-2 command takes. */
export interface KubeOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly namespace?: string;
}

export interface Kube {
  readonly lib: ClientLibrary;
  readonly config: k8s.KubeConfig;
  readonly namespace: string;
  /** The API server's URL, for messages. */
  readonly server: string;
  readonly core: k8s.CoreV1Api;
  readonly batch: k8s.BatchV1Api;
  /** Objects of custom resources (Kueue's Workloads). */
  readonly custom: k8s.CustomObjectsApi;
}

const IN_CLUSTER_NAMESPACE_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

export function connect(options: KubeOptions): Kube {
  const lib = clientLibrary();
  const config = new lib.KubeConfig();
  // With nothing to read, the library (as kubectl) would try http://localhost:8080: say so instead.
  if (options.kubeconfig === undefined && !process.env.KUBECONFIG && !process.env.KUBERNETES_SERVICE_HOST
    && !fs.existsSync(path.join(os.homedir(), '.kube', 'config'))) {
    throw new Day2Error(EXIT.USAGE, 'no kubeconfig: set KUBECONFIG, pass --kubeconfig, write ~/.kube/config, or run in a pod');
  }
  try {
    if (options.kubeconfig !== undefined) config.loadFromFile(options.kubeconfig);
    else config.loadFromDefault();
  } catch (e) {
    throw new Day2Error(EXIT.USAGE, `cannot load the kubeconfig ${options.kubeconfig ?? '(KUBECONFIG or ~/.kube/config)'}: ${(e as Error).message}`);
  }
  if (options.context !== undefined) {
    if (!config.getContextObject(options.context)) {
      const known = config.getContexts().map((c) => c.name);
      throw new Day2Error(EXIT.USAGE, `no context '${options.context}' in the kubeconfig (it has: ${known.join(', ') || 'none'})`);
    }
    config.setCurrentContext(options.context);
  }
  const cluster = config.getCurrentCluster();
  if (!cluster) {
    throw new Day2Error(EXIT.USAGE, 'no Kubernetes API server configured: set KUBECONFIG, pass --kubeconfig, or run in a pod');
  }
  const namespace = options.namespace ?? config.getContextObject(config.getCurrentContext())?.namespace ?? inClusterNamespace() ?? 'default';
  return {
    lib,
    config,
    namespace,
    server: cluster.server,
    core: config.makeApiClient(lib.CoreV1Api),
    batch: config.makeApiClient(lib.BatchV1Api),
    custom: config.makeApiClient(lib.CustomObjectsApi),
  };
}

function inClusterNamespace(): string | undefined {
  try {
    return fs.readFileSync(IN_CLUSTER_NAMESPACE_FILE, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** What a request does, for error messages: `list pods`, `patch jobs`, ... */
export interface Request {
  readonly verb: string;
  readonly resource: string;
  readonly name?: string;
}

/** Runs an API request, turning its failure into a Day2Error with a distinct exit code. */
export async function request<T>(kube: Kube, what: Request, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw apiError(kube, what, e);
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN']);

/** The Day2Error for a failed request (an HTTP status, or no answer at all). */
export function apiError(kube: Kube, what: Request, e: unknown): Day2Error {
  if (e instanceof Day2Error) return e;
  const err = e as { code?: unknown; statusCode?: unknown; body?: unknown; message?: string; cause?: { code?: string; message?: string }; errno?: string };
  const status = typeof err.code === 'number' ? err.code : typeof err.statusCode === 'number' ? err.statusCode : httpStatusIn(err.message);
  const target = `${what.resource}${what.name ? ` '${what.name}'` : ''} in namespace '${kube.namespace}'`;
  if (status === undefined) {
    const code = [err.code, err.errno, err.cause?.code].find((c) => typeof c === 'string' && c.length > 0);
    const reason = code && NETWORK_CODES.has(code as string) ? `${code}` : err.cause?.message ?? err.message ?? String(e);
    return new Day2Error(EXIT.UNREACHABLE, `cannot reach the Kubernetes API server at ${kube.server}: ${reason}`);
  }
  // A refused websocket upgrade has no body to quote.
  const message = serverMessage(err.body) ?? (httpStatusIn(err.message) ? '' : err.message ?? '');
  if (status === 403) {
    return new Day2Error(EXIT.FORBIDDEN, `forbidden: your account may not ${what.verb} ${target} (needs RBAC verb '${what.verb}' on '${what.resource}')${message ? `: ${message}` : ''}`);
  }
  if (status === 401) {
    return new Day2Error(EXIT.FORBIDDEN, `unauthorized: the API server at ${kube.server} did not accept the kubeconfig's credentials (${what.verb} ${what.resource})`);
  }
  if (status === 404) return new Day2Error(EXIT.NOT_FOUND, `not found: ${target}${message ? `: ${message}` : ''}`);
  return new Day2Error(EXIT.API_ERROR, `the API server answered ${status} to ${what.verb} ${target}${message ? `: ${message}` : ''}`);
}

/** The websocket library reports a refused upgrade as 'Unexpected server response: 403'. */
function httpStatusIn(message: string | undefined): number | undefined {
  const m = /Unexpected server response: (\d{3})/.exec(message ?? '');
  return m ? Number(m[1]) : undefined;
}

/** The `message` of a Kubernetes Status body (a string of JSON or an object). */
function serverMessage(body: unknown): string | undefined {
  let b = body;
  if (typeof body === 'string') {
    try {
      b = JSON.parse(body);
    } catch {
      return body.trim() || undefined;
    }
  }
  const m = (b as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' && m ? m : undefined;
}

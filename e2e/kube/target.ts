/**
 * A real Kubernetes cluster as the e2e runner's target (`npm run e2e -- --kubeconfig FILE`): the
 * connection and the few API calls the runner makes, through the official client library.
 */
import { PassThrough } from 'stream';
import type * as k8s from '@kubernetes/client-node';

/** The client library, loaded when a cluster is used (an ES module: the unit tests never load it). */
export function client(): typeof k8s {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@kubernetes/client-node') as typeof k8s;
}

/**
 * `obj` as the client library's KubernetesObjectApi must be given it. It serializes through its
 * generated models, whose fields named after a reserved word are prefixed (a NetworkPolicy ingress
 * rule's `from` is `_from`): a plain object's `from` was silently dropped, and every NetworkPolicy
 * the runner created allowed ingress from anywhere (`ingress: [{}]`).
 */
export function forClientLibrary(obj: any): any {
  if (obj?.kind !== 'NetworkPolicy' || !Array.isArray(obj.spec?.ingress)) return obj;
  const ingress = obj.spec.ingress.map(({ from, ...rule }: any) => (from === undefined ? rule : { ...rule, _from: from }));
  return { ...obj, spec: { ...obj.spec, ingress } };
}

/** A connection to a real cluster. */
export interface KubeTarget {
  readonly config: k8s.KubeConfig;
  readonly core: k8s.CoreV1Api;
  readonly batch: k8s.BatchV1Api;
  readonly objects: k8s.KubernetesObjectApi;
  /** Custom resources (Kueue's queues). */
  readonly custom: k8s.CustomObjectsApi;
  /** The API server's URL and context, for the report. */
  readonly server: string;
  readonly context: string;
  /** The kubeconfig file, for the day-2 commands the runner starts. */
  readonly kubeconfig: string;
}

/** Connects as kubectl would with `--kubeconfig FILE [--context NAME]`. */
export function connectTarget(kubeconfig: string, context?: string): KubeTarget {
  const k8s = client();
  const config = new k8s.KubeConfig();
  config.loadFromFile(kubeconfig);
  if (context !== undefined) {
    if (!config.getContextObject(context)) throw new Error(`no context '${context}' in ${kubeconfig} (it has: ${config.getContexts().map((c) => c.name).join(', ')})`);
    config.setCurrentContext(context);
  }
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new Error(`${kubeconfig}: no cluster for context '${config.getCurrentContext()}'`);
  return {
    config,
    core: config.makeApiClient(k8s.CoreV1Api),
    batch: config.makeApiClient(k8s.BatchV1Api),
    objects: k8s.KubernetesObjectApi.makeApiClient(config),
    custom: config.makeApiClient(k8s.CustomObjectsApi),
    server: cluster.server,
    context: config.getCurrentContext(),
    kubeconfig,
  };
}

/** The HTTP status of a failed client call, if it had one. */
export function statusOf(e: unknown): number | undefined {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

/** What `kubectl exec` returns: the exit status (null when the session broke) and the output. */
export interface KubeExecResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` in a container, as `kubectl exec` does; never throws, ends after `timeoutSeconds`. */
export async function execIn(target: KubeTarget, at: { namespace: string; pod: string; container: string }, command: string[], timeoutSeconds = 120): Promise<KubeExecResult> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  err.on('data', (c: Buffer) => (stderr += c.toString()));
  let status: k8s.V1Status | undefined;
  try {
    const socket = await new (client().Exec)(target.config).exec(at.namespace, at.pod, at.container, command, out, err, null, false, (s) => {
      status = s;
    });
    const ended = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        socket.close();
        resolve(false);
      }, timeoutSeconds * 1000);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ended) return { status: null, stdout, stderr: `${stderr}exec timed out after ${timeoutSeconds} s` };
  } catch (e) {
    return { status: null, stdout, stderr: `${stderr}${(e as Error).message}` };
  }
  return { status: execExitCode(status), stdout, stderr };
}

/** The exit code in the Status an exec session ends with (Success: 0; NonZeroExitCode: its cause). */
export function execExitCode(status: k8s.V1Status | undefined): number | null {
  if (!status) return null;
  if (status.status === 'Success') return 0;
  const code = status.details?.causes?.find((c) => c.reason === 'ExitCode')?.message;
  return code !== undefined && /^\d+$/.test(code) ? Number(code) : null;
}

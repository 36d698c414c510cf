/**
 * A rank whose node stopped answering. Kubernetes marks such a node Ready=Unknown after its grace
 * period (about 50 s), evicts its pods once their toleration ends (pod.nodeLossSeconds), and then
 * waits: the pod stays Terminating until the kubelet confirms it, which a dead node never does. The
 * Job (podReplacementPolicy Failed) replaces it only once it is gone, so a cluster on bare metal or
 * in a lab, with no cloud controller to delete the Node, runs a broker short for good. This says
 * so, with the node, the pod and the platform's action that frees the rank (docs/reliability.md).
 */
import type * as k8s from '@kubernetes/client-node';
import { Day2Error, EXIT } from './errors';
import { Kube, request } from './kube';
import { time } from './cluster';

export const OUT_OF_SERVICE_TAINT = 'node.kubernetes.io/out-of-service';

/** What the API says of a node a rank's pod is bound to. */
export interface NodeFacts {
  /** `ready`, `unreachable` (Ready Unknown: its kubelet stopped posting), `not-ready`, `gone` (deleted), or `unknown` (not readable). */
  readonly state: 'ready' | 'unreachable' | 'not-ready' | 'gone' | 'unknown';
  /** When its Ready condition last changed (ms; 0 when unknown). */
  readonly since: number;
  readonly message?: string;
  readonly outOfService: boolean;
}

export type NodeFactsByName = Map<string, NodeFacts>;

/** The facts of each node, from one get each; an account that may not read nodes gets `unknown`. */
export async function readNodeFacts(kube: Kube, names: string[]): Promise<NodeFactsByName> {
  const out: NodeFactsByName = new Map();
  for (const name of [...new Set(names)].sort()) {
    try {
      out.set(name, nodeFacts(await request(kube, { verb: 'get', resource: 'nodes', name }, () => kube.core.readNode({ name }))));
    } catch (e) {
      if (!(e instanceof Day2Error) || (e.exitCode !== EXIT.NOT_FOUND && e.exitCode !== EXIT.FORBIDDEN)) throw e;
      out.set(name, e.exitCode === EXIT.NOT_FOUND ? { state: 'gone', since: 0, outOfService: false } : { state: 'unknown', since: 0, outOfService: false });
    }
  }
  return out;
}

export function nodeFacts(node: k8s.V1Node): NodeFacts {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const outOfService = (node.spec?.taints ?? []).some((t) => t.key === OUT_OF_SERVICE_TAINT);
  const since = time(ready?.lastTransitionTime);
  const message = ready?.message?.trim() || undefined;
  if (ready?.status === 'True') return { state: 'ready', since, outOfService };
  return { state: ready?.status === 'False' ? 'not-ready' : 'unreachable', since, message, outOfService };
}

/** The commands that free a rank on a node that is down for good. */
export function freeingActions(node: string): string {
  return `kubectl taint nodes ${node} ${OUT_OF_SERVICE_TAINT}=nodeshutdown:NoExecute (Kubernetes then deletes its pods and the Job replaces them; remove the taint once the node is back), or kubectl delete node ${node}`;
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 1000))} s`;
}

/** The problem of a live rank whose node is lost, in words, or undefined. */
export function nodeLossProblem(pod: k8s.V1Pod, facts: NodeFacts | undefined, now: number): string | undefined {
  const node = pod.spec?.nodeName;
  if (!node || !facts || facts.state === 'ready') return undefined;
  const name = pod.metadata?.name ?? '';
  const terminating = pod.metadata?.deletionTimestamp !== undefined;
  if (facts.state === 'gone') {
    return `node ${node} was deleted; pod ${name} is failed by Kubernetes' pod garbage collector within about a minute, and the Job replaces it`;
  }
  if (facts.state === 'unknown') {
    // No right to read nodes: the pod's own conditions still tell a taint-based eviction.
    const evicted = (pod.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'DeletionByTaintManager');
    return evicted && terminating
      ? `pod ${name} was evicted from node ${node}, which stopped answering, and is stuck Terminating there: the Job replaces it only once it is gone. If ${node} is down for good: ${freeingActions(node)}`
      : undefined;
  }
  const what = facts.state === 'unreachable'
    ? `node ${node} stopped answering ${seconds(now - facts.since)} ago`
    : `node ${node} is not ready since ${seconds(now - facts.since)}`;
  const why = facts.message ? ` (${facts.message})` : '';
  if (facts.outOfService) {
    return `${what}${why} and is tainted out-of-service: Kubernetes deletes pod ${name} and the Job replaces it on another node`;
  }
  const pending = terminating
    ? `pod ${name} is stuck Terminating there: the Job replaces it only once it is gone`
    : `pod ${name} is evicted once its toleration of the node's taint ends (pod.nodeLossSeconds), and then stays Terminating until the node answers or is removed`;
  return `${what}${why}; ${pending}. If ${node} is down for good: ${freeingActions(node)}`;
}

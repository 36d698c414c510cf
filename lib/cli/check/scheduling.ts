/**
 * The scheduler's arithmetic, as far as `check` needs it: a pod's requests (with init containers
 * and native sidecars), whether a node takes the pod at all (unschedulable, nodeSelector, required
 * node affinity, taints), and how many such pods its allocatable resources hold. Nothing running
 * on the node is subtracted: the answer is what an empty cluster could hold.
 */
import type * as k8s from '@kubernetes/client-node';
import { ceilMilliValue, parseQuantity } from '../../core/k8s-formats';
import type { Obj } from './manifest';

/** Requests in milli-units by resource name (cpu, memory, nvidia.com/gpu, ...). */
export type Requests = Map<string, bigint>;

function requestsOf(c: Obj): Requests {
  // A container with limits and no requests is given requests equal to its limits.
  const src = { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) };
  const out: Requests = new Map();
  for (const [name, v] of Object.entries(src)) {
    const q = parseQuantity(v);
    if (q) out.set(name, ceilMilliValue(q));
  }
  return out;
}

function add(a: Requests, b: Requests): Requests {
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, (out.get(k) ?? 0n) + v);
  return out;
}

function max(a: Requests, b: Requests): Requests {
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, (out.get(k) ?? 0n) > v ? out.get(k)! : v);
  return out;
}

/**
 * The pod's effective requests (KEP-753): the larger of the init phase (each plain init container
 * with the sidecars started before it) and the run phase (every app container and every sidecar).
 */
export function podRequests(spec: Obj): Requests {
  let sidecars: Requests = new Map();
  let init: Requests = new Map();
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      sidecars = add(sidecars, requestsOf(c));
      init = max(init, sidecars);
    } else {
      init = max(init, add(sidecars, requestsOf(c)));
    }
  }
  const run = (spec.containers ?? []).reduce((sum: Requests, c: Obj) => add(sum, requestsOf(c)), sidecars);
  return max(init, run);
}

/** Why the node takes no pod of `spec`, or undefined when it may. */
export function nodeRefuses(node: k8s.V1Node, spec: Obj): string | undefined {
  if (node.spec?.unschedulable) return 'unschedulable (cordoned)';
  const labels = node.metadata?.labels ?? {};
  const selector = Object.entries(spec.nodeSelector ?? {}).filter(([k, v]) => labels[k] !== v);
  if (selector.length) return `nodeSelector ${selector.map(([k, v]) => `${k}=${v}`).join(',')} does not match its labels`;
  const terms: Obj[] = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length && !terms.some((t) => (t.matchExpressions ?? []).every((e: Obj) => expressionMatches(e, labels[e.key])))) {
    return 'the required node affinity does not match its labels';
  }
  const taint = (node.spec?.taints ?? []).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !(spec.tolerations ?? []).some((tol: Obj) => tolerates(tol, t)));
  if (taint) return `taint ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect} is not tolerated`;
  return undefined;
}

/** Where a pod of `spec` may go: each node with how many such pods it holds, or why none. */
export interface NodePlace {
  readonly node: k8s.V1Node;
  readonly name: string;
  readonly count: number;
  readonly why?: string;
}

/** Per node: how many pods of `spec` it holds (its allocatable against their requests), or why none. */
export function nodePlaces(spec: Obj, nodes: k8s.V1Node[]): NodePlace[] {
  const requests = podRequests(spec);
  return nodes.map((node) => {
    const name = node.metadata?.name ?? '?';
    const refused = nodeRefuses(node, spec);
    if (refused) return { node, name, count: 0, why: refused };
    const fit = podsThatFit(node, requests);
    if (fit.count > 0) return { node, name, count: fit.count };
    return { node, name, count: 0, why: fit.limit === 'pods' ? 'no pod room (allocatable pods)' : `${amount(fit.limit, allocatable(node, fit.limit))} ${fit.limit} allocatable` };
  });
}

/** Whether a label selector (matchLabels, matchExpressions) selects `labels`. */
export function selectorMatches(selector: Obj | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v)
    && (selector.matchExpressions ?? []).every((e: Obj) => expressionMatches(e, labels[e.key]));
}

/**
 * The topology keys of the required terms of `kind` (podAffinity or podAntiAffinity) that select
 * the pod itself: its labels, in its own namespace. A namespaceSelector other than {} depends on the
 * namespace's labels; such a term is left out, as are the terms about other workloads.
 */
export function requiredSelfTerms(kind: 'podAffinity' | 'podAntiAffinity', spec: Obj, labels: Record<string, string>, namespace: string): string[] {
  const terms: Obj[] = spec.affinity?.[kind]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  const inOwnNamespace = (t: Obj): boolean => {
    // namespaces and namespaceSelector are unioned; neither set means the pod's own namespace
    if ((t.namespaces ?? []).includes(namespace)) return true;
    if (t.namespaceSelector === undefined || t.namespaceSelector === null) return !t.namespaces?.length;
    return Object.keys(t.namespaceSelector).length === 0;
  };
  return terms.filter((t) => inOwnNamespace(t) && selectorMatches(t.labelSelector, labels) && typeof t.topologyKey === 'string').map((t) => t.topologyKey);
}

function expressionMatches(e: Obj, value: string | undefined): boolean {
  switch (e.operator) {
    case 'In': return value !== undefined && (e.values ?? []).includes(value);
    case 'NotIn': return value === undefined || !(e.values ?? []).includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    case 'Gt': return value !== undefined && Number(value) > Number(e.values?.[0]);
    case 'Lt': return value !== undefined && Number(value) < Number(e.values?.[0]);
    default: return false;
  }
}

function tolerates(tol: Obj, taint: k8s.V1Taint): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  if (tol.operator === 'Exists') return tol.key === undefined || tol.key === '' || tol.key === taint.key;
  return tol.key === taint.key && (tol.value ?? '') === (taint.value ?? '');
}

/** How many pods of `requests` the node's allocatable holds, and the resource that limits it. */
export function podsThatFit(node: k8s.V1Node, requests: Requests): { count: number; limit: string } {
  const alloc = node.status?.allocatable ?? {};
  const podsQ = parseQuantity(alloc.pods ?? '110');
  let best = { count: podsQ ? Number(ceilMilliValue(podsQ) / 1000n) : 110, limit: 'pods' };
  for (const [name, want] of requests) {
    if (want <= 0n) continue;
    const q = parseQuantity(alloc[name] ?? '0');
    const fit = q ? Number(ceilMilliValue(q) / want) : 0;
    if (fit < best.count) best = { count: fit, limit: name };
  }
  return best;
}

/** A request or allocatable amount in words: cpu in cores, memory in Mi/Gi, others as numbers. */
export function amount(resource: string, milli: bigint): string {
  if (resource === 'cpu') return milli % 1000n === 0n ? `${milli / 1000n}` : `${milli}m`;
  const units = milli / 1000n;
  if (resource === 'memory' || resource === 'ephemeral-storage') {
    for (const [suffix, size] of [['Gi', 1n << 30n], ['Mi', 1n << 20n], ['Ki', 1n << 10n]] as const) {
      if (units >= size) return units % size === 0n ? `${units / size}${suffix}` : `${(Number(units) / Number(size)).toFixed(1)}${suffix}`;
    }
  }
  return `${units}`;
}

/** The node's allocatable of `resource` in milli-units. */
export function allocatable(node: k8s.V1Node, resource: string): bigint {
  const q = parseQuantity(node.status?.allocatable?.[resource] ?? '0');
  return q ? ceilMilliValue(q) : 0n;
}

/**
 * Pods in a state that does not resolve by itself, for `wait` to fail fast on instead of waiting
 * for its timeout: an image that cannot be pulled, a container that cannot be created, a pod no
 * node takes. A state a retry may still clear (ErrImagePull, CreateContainerError,
 * CreateContainerConfigError) counts once it lasted the grace; an unschedulable pod once it has
 * been so for its own grace, since a cluster autoscaler may add a node; a pod on a node that stopped
 * answering once that lasted the same grace, since a cloud's node controller may delete the node;
 * a cluster Kueue cannot admit, or for which it made no Workload, once that lasted the same grace,
 * since a LocalQueue may be created or Kueue start a moment late (docs/day2.md, wait).
 */
import type * as k8s from '@kubernetes/client-node';
import { isEnded, podsByRank, time } from './cluster';
import { explainContainer } from './explain';
import { QueueStatus, queueProblem } from './kueue';
import { NodeFactsByName, nodeLossProblem } from './node-loss';

/** Waiting reasons the kubelet only leaves when the pod spec or the registry changes. */
const STUCK_AT_ONCE = new Set(['ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);
/** Waiting reasons a retry may clear (a registry hiccup; a Secret or ConfigMap created a moment late). */
const STUCK_AFTER_GRACE = new Set(['ErrImagePull', 'CreateContainerError', 'CreateContainerConfigError']);
/** Cluster autoscaler events on a pending pod: it adds a node, or none of its node groups would help. */
export const SCALE_UP_EVENTS = { triggered: 'TriggeredScaleUp', notTriggered: 'NotTriggerScaleUp' };

export interface StuckOptions {
  /** How long a state a retry may clear may last. */
  readonly graceMs: number;
  /** How long a pod may be unschedulable without a scale-up under way. */
  readonly unschedulableGraceMs: number;
}

/** The last cluster autoscaler event of each unschedulable pod, by pod name. */
export type ScaleUpEvents = Map<string, { reason: string; message: string }>;

/** Remembers when each transient state was first seen, across the evaluations of one `wait`. */
export class StuckPods {
  private readonly firstSeen = new Map<string, number>();

  constructor(private readonly options: StuckOptions) {}

  /** The pods (ranks) that will not get further by themselves, in words; empty when none. */
  problems(pods: k8s.V1Pod[], scaleUps: ScaleUpEvents, now: number, nodes: NodeFactsByName = new Map(), queue?: QueueStatus, jobSuspended = false): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    const unadmittable = queue && (queue.state === 'Inadmissible' || queue.state === 'NoWorkload') ? queueProblem(queue, jobSuspended) : undefined;
    if (unadmittable) {
      const key = `kueue/${queue!.state}`;
      seen.add(key);
      if (now - this.since(key, now) >= this.options.unschedulableGraceMs) out.push(unadmittable);
    }
    for (const [rank, pod] of podsByRank(pods)) {
      if (isEnded(pod)) continue;
      const name = pod.metadata?.name ?? '';
      const unschedulable = unschedulableSince(pod);
      if (unschedulable !== undefined) {
        const key = `${pod.metadata?.uid ?? name}/unschedulable`;
        seen.add(key);
        const since = unschedulable || this.since(key, now);
        const scaleUp = scaleUps.get(name);
        const message = `rank ${rank}: pod ${name} cannot be scheduled: ${unschedulableMessage(pod)}`;
        if (scaleUp?.reason === SCALE_UP_EVENTS.notTriggered) out.push(`${message} (and the cluster autoscaler adds no node: ${scaleUp.message})`);
        else if (scaleUp?.reason !== SCALE_UP_EVENTS.triggered && now - since >= this.options.unschedulableGraceMs) out.push(message);
        continue;
      }
      // A node that stopped answering: nothing in Kubernetes frees the rank without a cloud
      // controller; a node deleted or tainted out-of-service frees it by itself.
      const facts = nodes.get(pod.spec?.nodeName ?? '');
      const lost = facts && !facts.outOfService && facts.state !== 'gone' ? nodeLossProblem(pod, facts, now) : undefined;
      if (lost) {
        const key = `${pod.metadata?.uid ?? name}/node-lost`;
        seen.add(key);
        if (now - (facts!.since || this.since(key, now)) >= this.options.unschedulableGraceMs) out.push(`rank ${rank}: ${lost}`);
        continue;
      }
      const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
      for (const c of statuses) {
        const reason = c.state?.waiting?.reason ?? '';
        const key = `${pod.metadata?.uid ?? name}/${c.name}/${reason}`;
        if (STUCK_AFTER_GRACE.has(reason)) seen.add(key);
        const stuck = STUCK_AT_ONCE.has(reason) || (STUCK_AFTER_GRACE.has(reason) && now - this.since(key, now) >= this.options.graceMs);
        if (stuck) out.push(...explainContainer(c, { flux: false, handshake: false }).map((p) => `rank ${rank}: ${p}`));
      }
    }
    // A state that cleared starts its grace again if it comes back.
    for (const key of [...this.firstSeen.keys()]) if (!seen.has(key)) this.firstSeen.delete(key);
    return out;
  }

  private since(key: string, now: number): number {
    if (!this.firstSeen.has(key)) this.firstSeen.set(key, now);
    return this.firstSeen.get(key)!;
  }
}

/** When the pod became unschedulable (its PodScheduled condition's time; 0 when unknown), or undefined if it is not. */
export function unschedulableSince(pod: k8s.V1Pod): number | undefined {
  const c = (pod.status?.conditions ?? []).find((x) => x.type === 'PodScheduled');
  return c?.status === 'False' && c.reason === 'Unschedulable' && !pod.spec?.nodeName ? time(c.lastTransitionTime) : undefined;
}

function unschedulableMessage(pod: k8s.V1Pod): string {
  return (pod.status?.conditions ?? []).find((x) => x.type === 'PodScheduled')?.message ?? 'no reason given';
}

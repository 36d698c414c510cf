/**
 * A real Kueue for a case (a real cluster with Kueue's API): the case's own ClusterQueue and
 * LocalQueue, preemptions by a higher-priority Job at planned moments after each admission, and
 * what Kueue did, checked: every preemption carried out, the cluster readmitted after each.
 */
import type * as k8s from '@kubernetes/client-node';
import { KueuePlan } from '../case';
import { FaultRecord } from '../podemu';
import { KUEUE_GROUP as GROUP, KUEUE_QUEUE_LABEL as QUEUE_LABEL, KUEUE_VERSION as VERSION } from '../../lib/core/kueue-contract';
import { KubeTarget } from './target';

/** The flavor and priority class the cases share (cluster objects, made once, left for the next run). */
export const E2E_FLAVOR = 'cdk8s-minicluster-e2e';
export const E2E_HIGH_PRIORITY = 'cdk8s-minicluster-e2e-high';

/** Why podemu skips a queued case. */
export const NO_KUEUE = 'podemu has no API server, so no Kueue: a real cluster with Kueue runs it';

/** Why the cluster has no usable Kueue (undefined when it has one). */
export async function kueueMissing(target: KubeTarget): Promise<string | undefined> {
  try {
    await target.custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural: 'clusterqueues' });
    return undefined;
  } catch (e) {
    const code = (e as { code?: number }).code;
    return code === 404 ? `no Kueue on this cluster (the API server serves no ${GROUP}/${VERSION} ClusterQueues): install Kueue v0.17 to run it`
      : `Kueue's API cannot be used: ${(e as Error).message.split('\n')[0]}`;
  }
}

/** The LocalQueue the case's Job names (its queue-name label). */
export function queueNameOf(job: any): string | undefined {
  return job?.metadata?.labels?.[QUEUE_LABEL];
}

export class KueueDriver {
  private readonly clusterQueue: string;
  /** Seconds (after the first pod) of each admission: the Job's spec.suspend turning false. */
  private readonly admissions: number[] = [];
  private readonly preemptions: FaultRecord[] = [];
  private suspended: boolean | undefined;
  private failedSeen = false;

  constructor(private readonly target: KubeTarget, private readonly namespace: string, private readonly plan: KueuePlan, private readonly queue: string,
    private readonly log: (line: string) => void, private readonly now: () => number) {
    this.clusterQueue = `e2e-${namespace}`;
  }

  /** The flavor, the priority class, the case's ClusterQueue (quota: plan.podsQuota pods) and LocalQueue. */
  async setup(): Promise<void> {
    await this.ensure('resourceflavors', { apiVersion: `${GROUP}/${VERSION}`, kind: 'ResourceFlavor', metadata: { name: E2E_FLAVOR } });
    await this.ensure('workloadpriorityclasses', { apiVersion: `${GROUP}/${VERSION}`, kind: 'WorkloadPriorityClass', metadata: { name: E2E_HIGH_PRIORITY }, value: 100000, description: 'preempts e2e clusters' });
    await this.target.custom.createClusterCustomObject({ group: GROUP, version: VERSION, plural: 'clusterqueues', body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'ClusterQueue', metadata: { name: this.clusterQueue },
      spec: {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': this.namespace } },
        preemption: { withinClusterQueue: 'LowerPriority' },
        resourceGroups: [{
          coveredResources: ['cpu', 'memory', 'pods'],
          flavors: [{ name: E2E_FLAVOR, resources: [{ name: 'cpu', nominalQuota: '64' }, { name: 'memory', nominalQuota: '256Gi' }, { name: 'pods', nominalQuota: String(this.plan.podsQuota) }] }],
        }],
      },
    } });
    await this.target.custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: this.namespace, plural: 'localqueues', body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'LocalQueue', metadata: { name: this.queue, namespace: this.namespace }, spec: { clusterQueue: this.clusterQueue },
    } });
  }

  private async ensure(plural: string, body: any): Promise<void> {
    try {
      await this.target.custom.createClusterCustomObject({ group: GROUP, version: VERSION, plural, body });
    } catch (e) {
      if ((e as { code?: number }).code !== 409) throw e;
    }
  }

  /** Follows the Job's admissions and preempts it as planned; `started` once the first pod exists. */
  async poll(job: k8s.V1Job, started: boolean): Promise<void> {
    const suspended = job.spec?.suspend === true;
    if ((job.status?.conditions ?? []).some((c) => c.type === 'Failed' && c.status === 'True') && !this.failedSeen) {
      this.failedSeen = true;
      this.log('kueue: the Job is Failed');
    }
    if (this.suspended !== false && !suspended) {
      this.admissions.push(this.now());
      this.log(`kueue: admitted (admission ${this.admissions.length})`);
    } else if (this.suspended === false && suspended) {
      this.log('kueue: suspended');
    }
    this.suspended = suspended;
    const due = this.plan.preemptAfterAdmission ?? [];
    const k = this.preemptions.length;
    // Preemption k comes after admission k (1-based), the cluster running.
    if (!started || suspended || k >= due.length || this.admissions.length !== k + 1) return;
    if (this.now() < this.admissions[k] + due[k]) return;
    await this.preempt(k + 1);
  }

  private async preempt(n: number): Promise<void> {
    const name = `preemptor-${n}`;
    const at = this.now();
    const body: k8s.V1Job = {
      apiVersion: 'batch/v1', kind: 'Job',
      metadata: { name, namespace: this.namespace, labels: { [QUEUE_LABEL]: this.queue, 'kueue.x-k8s.io/priority-class': E2E_HIGH_PRIORITY } },
      spec: {
        suspend: true, backoffLimit: 0, ttlSecondsAfterFinished: 5,
        template: { spec: {
          restartPolicy: 'Never', automountServiceAccountToken: false,
          containers: [{ name: 'preemptor', image: 'ubuntu:noble', command: ['sleep', '2'], resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
        } },
      },
    };
    let outcome = `a Job of priority class ${E2E_HIGH_PRIORITY} took the whole pods quota (${this.plan.podsQuota})`;
    try {
      await this.target.batch.createNamespacedJob({ namespace: this.namespace, body });
    } catch (e) {
      outcome = `preemptor not created: ${(e as Error).message.split('\n')[0]}`;
    }
    this.log(`kueue: preempt ${n} (${name})`);
    this.preemptions.push({ at, fault: 'preempt', index: -1, pod: null, outcome });
  }

  /** Every planned preemption done and the cluster admitted again after the last. */
  settled(): boolean {
    const planned = this.plan.preemptAfterAdmission?.length ?? 0;
    return this.preemptions.length >= planned && this.admissions.length >= planned + 1 && this.suspended === false;
  }

  records(): FaultRecord[] {
    return this.preemptions;
  }

  /** What Kueue did that the case does not allow. */
  problems(): string[] {
    const out: string[] = [];
    const planned = this.plan.preemptAfterAdmission?.length ?? 0;
    if (this.admissions.length === 0) out.push('Kueue never admitted the Job');
    if (this.preemptions.length < planned) out.push(`${this.preemptions.length} of ${planned} preemptions carried out`);
    else if (planned > 0 && this.admissions.length < planned + 1) out.push(`the Job was admitted ${this.admissions.length} times, not again after each of the ${planned} preemptions`);
    if (this.failedSeen && planned > 0) out.push('the Job turned Failed while it was preempted and readmitted');
    return out;
  }

  /** `admitted N times, preempted at +a, +b s`: for the report. */
  summary(): string {
    return `admitted ${this.admissions.length} time(s) at ${this.admissions.map((a) => `+${a.toFixed(1)}`).join(', ')} s`
      + (this.preemptions.length ? `; preempted at ${this.preemptions.map((p) => `+${p.at.toFixed(1)}`).join(', ')} s` : '');
  }

  /** Removes the case's ClusterQueue (the LocalQueue goes with the namespace). */
  async cleanup(): Promise<void> {
    await this.target.custom.deleteClusterCustomObject({ group: GROUP, version: VERSION, plural: 'clusterqueues', name: this.clusterQueue }).catch(() => undefined);
  }
}


/**
 * A Job queued by Kueue (its queue-name label): the LocalQueue must exist in its namespace, and its
 * ClusterQueue must be able to admit the whole cluster at once. Kueue never admits a Workload whose
 * requests exceed the ClusterQueue's quota (nominal, plus what a cohort may lend): the Job stays
 * suspended for good, with nothing failing.
 */
import type { Finding } from '../findings';
import type { BrokerJob } from '../manifest';
import { amount, podRequests } from '../scheduling';
import { parseQuantity, ceilMilliValue } from '../../../core/k8s-formats';
import { KUEUE_QUEUE_LABEL } from '../../../core/kueue-contract';
import { cannotTell, jobFinding, Rule } from './context';

const RULE = 'kueue-queue';

/** The LocalQueue a broker Job names, or undefined. */
export function queueOf(job: BrokerJob): string | undefined {
  return job.job.metadata?.labels?.[KUEUE_QUEUE_LABEL];
}

/** Every (namespace, LocalQueue) the output's Jobs name: what `check` reads. */
export function queuesOf(jobs: BrokerJob[]): Array<{ namespace: string; name: string }> {
  const seen = new Map<string, { namespace: string; name: string }>();
  for (const j of jobs) {
    const name = queueOf(j);
    if (name) seen.set(`${j.namespace}/${name}`, { namespace: j.namespace, name });
  }
  return [...seen.values()];
}

/** The ClusterQueue's quota by resource (milli-units): nominal plus borrowing limit, over every flavor. */
function quotaOf(cq: any): { quota: Map<string, bigint>; unbounded: Set<string> } {
  const quota = new Map<string, bigint>();
  const unbounded = new Set<string>();
  for (const group of cq?.spec?.resourceGroups ?? []) {
    for (const flavor of group.flavors ?? []) {
      for (const r of flavor.resources ?? []) {
        const nominal = parseQuantity(String(r.nominalQuota ?? '0'));
        let total = nominal ? ceilMilliValue(nominal) : 0n;
        if (cq.spec?.cohortName ?? cq.spec?.cohort) {
          // In a cohort it may borrow up to borrowingLimit, or without one whatever the cohort has.
          if (r.borrowingLimit === undefined) unbounded.add(r.name);
          else total += ceilMilliValue(parseQuantity(String(r.borrowingLimit))!);
        }
        quota.set(r.name, (quota.get(r.name) ?? 0n) + total);
      }
    }
  }
  return { quota, unbounded };
}

export const KUEUE_QUEUE: Rule = {
  id: RULE,
  checks: 'a Job with Kueue\'s queue-name label: its LocalQueue exists in its namespace, and its ClusterQueue covers and can hold all the pods\' requests at once (nominal quota plus borrowing limit); one GET per LocalQueue and ClusterQueue',
  run: (ctx) => ctx.manifest.brokerJobs.flatMap((job): Finding[] => {
    const name = queueOf(job);
    if (!name) return [];
    const lq = ctx.facts.localQueues.get(`${job.namespace}/${name}`);
    if (!lq || !lq.ok) return [cannotTell(RULE, `whether Kueue LocalQueue ${name} exists`, lq && !lq.ok ? lq.why : 'not read', `Job/${job.name}`, job.namespace)];
    if (!lq.value) {
      return [jobFinding(RULE, 'error', job, `names Kueue LocalQueue '${name}' (label ${KUEUE_QUEUE_LABEL}), which does not exist in namespace ${job.namespace}, or the cluster has no Kueue: the Job stays suspended and nothing runs (Kueue: Inadmissible)`,
        `create the LocalQueue (kind LocalQueue, spec.clusterQueue: <a ClusterQueue>) in ${job.namespace}, or synthesize with the queueName of one that exists (kubectl get localqueues -n ${job.namespace})`)];
    }
    const cqName = lq.value.spec?.clusterQueue;
    const cq = ctx.facts.clusterQueues.get(cqName);
    if (!cq || !cq.ok) return [cannotTell(RULE, `what ClusterQueue ${cqName} admits`, cq && !cq.ok ? cq.why : 'not read', `Job/${job.name}`, job.namespace)];
    if (!cq.value) return [jobFinding(RULE, 'error', job, `LocalQueue '${name}' points at ClusterQueue '${cqName}', which does not exist: the Job stays suspended`, `create ClusterQueue ${cqName}, or point the LocalQueue at one that exists`)];
    const { quota, unbounded } = quotaOf(cq.value);
    const perPod = podRequests(job.pod.spec);
    const out: Finding[] = [];
    const needs = new Map<string, bigint>([...perPod].map(([k, v]) => [k, v * BigInt(job.size)]));
    if (quota.has('pods')) needs.set('pods', BigInt(job.size) * 1000n);
    for (const [resource, need] of [...needs].sort(([a], [b]) => a.localeCompare(b))) {
      if (need === 0n || unbounded.has(resource)) continue;
      const has = quota.get(resource);
      if (has === undefined) {
        out.push(jobFinding(RULE, 'error', job, `requests ${resource} (${amount(resource, need)} for its ${job.size} pods), which ClusterQueue '${cqName}' does not cover: Kueue never admits it`,
          `add ${resource} to the ClusterQueue's coveredResources with a quota, or drop the request`));
      } else if (need > has) {
        out.push(jobFinding(RULE, 'error', job, `its ${job.size} pods request ${amount(resource, need)} of ${resource} at once, more than ClusterQueue '${cqName}' can ever hold (${amount(resource, has)}): Kueue admits all pods together or none, so the Job stays suspended`,
          `raise the ClusterQueue's quota, or synthesize a smaller size or smaller requests`));
      }
    }
    return out;
  }),
};

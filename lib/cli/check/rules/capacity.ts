/** Whether any node holds a broker pod, and how many of them the cluster holds against size and maxSize. */
import type * as k8s from '@kubernetes/client-node';
import type { Finding } from '../findings';
import type { BrokerJob } from '../manifest';
import { allocatable, amount, nodeRefuses, podRequests, podsThatFit, Requests } from '../scheduling';
import { cannotTell, jobFinding, Rule } from './context';

function requestsText(r: Requests): string {
  // cpu and memory first, as kubectl describe lists them
  const rank = (k: string): string => (k === 'cpu' ? '0' : k === 'memory' ? '1' : `2${k}`);
  const parts = [...r].filter(([, v]) => v > 0n).sort(([a], [b]) => rank(a).localeCompare(rank(b))).map(([k, v]) => `${k} ${amount(k, v)}`);
  return parts.length ? parts.join(', ') : 'no resources';
}

/** Per node: how many broker pods of `job` it holds, or why none. */
function placement(job: BrokerJob, nodes: k8s.V1Node[]): Array<{ node: string; count: number; why?: string }> {
  const requests = podRequests(job.pod.spec);
  return nodes.map((n) => {
    const name = n.metadata?.name ?? '?';
    const refused = nodeRefuses(n, job.pod.spec);
    if (refused) return { node: name, count: 0, why: refused };
    const fit = podsThatFit(n, requests);
    if (fit.count > 0) return { node: name, count: fit.count };
    return { node: name, count: 0, why: fit.limit === 'pods' ? 'no pod room (allocatable pods)' : `${amount(fit.limit, allocatable(n, fit.limit))} ${fit.limit} allocatable` };
  });
}

export const BROKER_CAPACITY: Rule = {
  id: 'capacity',
  checks: "some node holds a broker pod (allocatable cpu, memory and any other resource requested against the pod's requests, with init containers and native sidecars; unschedulable nodes, nodeSelector, required node affinity, taints and tolerations), and the nodes together hold size broker pods (maxSize for an elastic cluster: a warning)",
  run: (ctx) => {
    const nodes = ctx.facts.nodes;
    if (!nodes.ok) return [cannotTell('capacity', 'whether the nodes hold the broker pods (list nodes)', nodes.why)];
    const out: Finding[] = [];
    for (const job of ctx.manifest.brokerJobs) {
      const requests = requestsText(podRequests(job.pod.spec));
      const places = placement(job, nodes.value ?? []);
      const total = places.reduce((n, p) => n + p.count, 0);
      if (total === 0) {
        const why = places.length ? places.map((p) => `${p.node}: ${p.why}`).join('; ') : 'the cluster has no node';
        out.push(jobFinding('capacity', 'error', job, `no node can hold a broker pod (requests ${requests}): ${why}`,
          "lower the containers' resources requests, let the pods onto more nodes (nodeSelector, tolerations), or add a node that holds them"));
        continue;
      }
      const where = places.filter((p) => p.count > 0).map((p) => `${p.node}: ${p.count}`).join(', ');
      if (total < job.size) {
        out.push(jobFinding('capacity', 'error', job, `the nodes hold ${total} broker pods at most (${where}; requests ${requests}), and the Job starts ${job.size} (size): the rest stay Pending`,
          `synthesize with size ${total} or less, lower the containers' resources requests, or add nodes`));
      } else if (total < job.maxSize) {
        out.push(jobFinding('capacity', 'warning', job, `the nodes hold ${total} broker pods at most (${where}; requests ${requests}): scaling above ${total} of maxSize ${job.maxSize} leaves pods Pending`,
          `scale to ${total} at most, or add nodes before scaling`));
      }
    }
    return out;
  },
};

/** Whether any node holds a broker pod, and how many of them the cluster holds against size and maxSize. */
import type { Finding } from '../findings';
import { amount, nodePlaces, podRequests, Requests } from '../scheduling';
import { cannotTell, jobFinding, Rule } from './context';

function requestsText(r: Requests): string {
  // cpu and memory first, as kubectl describe lists them
  const rank = (k: string): string => (k === 'cpu' ? '0' : k === 'memory' ? '1' : `2${k}`);
  const parts = [...r].filter(([, v]) => v > 0n).sort(([a], [b]) => rank(a).localeCompare(rank(b))).map(([k, v]) => `${k} ${amount(k, v)}`);
  return parts.length ? parts.join(', ') : 'no resources';
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
      const places = nodePlaces(job.pod.spec, nodes.value ?? []);
      const total = places.reduce((n, p) => n + p.count, 0);
      if (total === 0) {
        const why = places.length ? places.map((p) => `${p.name}: ${p.why}`).join('; ') : 'the cluster has no node';
        out.push(jobFinding('capacity', 'error', job, `no node can hold a broker pod (requests ${requests}): ${why}`,
          "lower the containers' resources requests, let the pods onto more nodes (nodeSelector, tolerations), or add a node that holds them"));
        continue;
      }
      const where = places.filter((p) => p.count > 0).map((p) => `${p.name}: ${p.count}`).join(', ');
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

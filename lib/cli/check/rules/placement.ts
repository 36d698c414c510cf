/**
 * The broker pods' required pod (anti-)affinity to each other against the nodes that take them
 * (props `placement`): one broker per node needs as many nodes as pods, and one zone needs a zone
 * that holds them all. Preferred rules never leave a pod Pending, so they are not checked.
 */
import type { Finding } from '../findings';
import type { BrokerJob } from '../manifest';
import { NodePlace, nodePlaces, requiredSelfTerms } from '../scheduling';
import { cannotTell, jobFinding, Rule } from './context';

const HOSTNAME = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';
const RULE = 'placement';

/** The Job's required terms that select its own pods, by topology key. */
function selfTerms(job: BrokerJob): { antiAffinity: string[]; affinity: string[] } {
  const labels = job.job.spec?.template?.metadata?.labels ?? {};
  return {
    antiAffinity: requiredSelfTerms('podAntiAffinity', job.pod.spec, labels, job.namespace),
    affinity: requiredSelfTerms('podAffinity', job.pod.spec, labels, job.namespace),
  };
}

/** Pods that may not share a node: as many nodes as pods. */
function onePerNode(job: BrokerJob, taking: NodePlace[]): Finding[] {
  const nodes = taking.length;
  const why = `its pods may not share a node (a required pod anti-affinity on ${HOSTNAME}: BrokersPerNode.ONE_REQUIRED), and ${nodes} node${nodes === 1 ? '' : 's'} take${nodes === 1 ? 's' : ''} them`;
  const shareFix = 'or let brokers share a node when they must (placement.brokersPerNode BrokersPerNode.ONE_PREFERRED)';
  if (nodes < job.size) {
    const pending = job.size - nodes;
    const quorum = nodes < job.quorum ? ` and the quorum of ${job.quorum} brokers never forms` : '';
    return [jobFinding(RULE, 'error', job, `${why}: of the ${job.size} pods the Job starts (size), ${pending} stay${pending === 1 ? 's' : ''} Pending ("didn't match pod anti-affinity rules")${quorum}`,
      `synthesize with size ${nodes} or less, add nodes that take the pods, ${shareFix}`)];
  }
  if (nodes < job.maxSize) {
    return [jobFinding(RULE, 'warning', job, `${why}: scaling above ${nodes} of maxSize ${job.maxSize} leaves pods Pending`,
      `scale to ${nodes} at most, add nodes before scaling, ${shareFix}`)];
  }
  return [];
}

/** Pods that must share one domain of `key` (a zone): a node without the label takes none, and one domain must hold them all. */
function oneDomain(job: BrokerJob, key: string, taking: NodePlace[], onePerNodeToo: boolean): Finding[] {
  const why = `its pods must all be in one ${key} (a required pod affinity on ${key}${key === ZONE ? ': ZonePlacement.SAME_REQUIRED' : ''})`;
  const looser = key === ZONE ? 'or synthesize with placement.zones ZonePlacement.SAME_PREFERRED' : `or drop the required pod affinity on ${key}`;
  const byDomain = new Map<string, number>();
  for (const p of taking) {
    const domain = p.node.metadata?.labels?.[key];
    if (domain !== undefined) byDomain.set(domain, (byDomain.get(domain) ?? 0) + (onePerNodeToo ? 1 : p.count));
  }
  if (byDomain.size === 0) {
    return [jobFinding(RULE, 'error', job, `${why}, and none of the ${taking.length} node${taking.length === 1 ? '' : 's'} that take them carries the label ${key}: every pod stays Pending`,
      `label the nodes with ${key}, ${looser}`)];
  }
  const [largest, holds] = [...byDomain].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0];
  if (holds < job.size) {
    return [jobFinding(RULE, 'error', job, `${why}, and no ${key} holds the ${job.size} pods the Job starts (size): the largest, ${largest}, holds ${holds}; the rest stay Pending`,
      `synthesize with size ${holds} or less, add nodes to one ${key}, ${looser}`)];
  }
  if (holds < job.maxSize) {
    return [jobFinding(RULE, 'warning', job, `${why}, and the largest ${key}, ${largest}, holds ${holds} pods: scaling above ${holds} of maxSize ${job.maxSize} leaves pods Pending`,
      `scale to ${holds} at most, add nodes to one ${key} before scaling, ${looser}`)];
  }
  return [];
}

export const PLACEMENT: Rule = {
  id: RULE,
  checks: `a Job whose pods may not share a node (a required pod anti-affinity on ${HOSTNAME} that selects its own pods) starts no more pods than there are nodes that take one (as capacity counts them: resources, nodeSelector, node affinity, taints), and one whose pods must share a zone (a required pod affinity on ${ZONE}, or any other key) has a zone whose nodes carry the label and hold them all; maxSize beyond either is a warning`,
  run: (ctx) => {
    const jobs = ctx.manifest.brokerJobs.map((job) => ({ job, terms: selfTerms(job) })).filter(({ terms }) => terms.antiAffinity.includes(HOSTNAME) || terms.affinity.length > 0);
    if (jobs.length === 0) return [];
    const nodes = ctx.facts.nodes;
    if (!nodes.ok) return [cannotTell(RULE, "whether the nodes take the broker pods' required pod affinity (list nodes)", nodes.why)];
    const out: Finding[] = [];
    for (const { job, terms } of jobs) {
      const taking = nodePlaces(job.pod.spec, nodes.value ?? []).filter((p) => p.count > 0);
      // No node takes a pod at all: capacity says why.
      if (taking.length === 0) continue;
      const oneEach = terms.antiAffinity.includes(HOSTNAME);
      if (oneEach) out.push(...onePerNode(job, taking));
      for (const key of new Set(terms.affinity)) out.push(...oneDomain(job, key, taking, oneEach));
    }
    return out;
  },
};

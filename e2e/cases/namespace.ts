/**
 * A MiniCluster's namespace must go within 60 s of `kubectl delete namespace` in every state the
 * cluster can be in (docs/reliability.md). Every case on a real cluster ends that way; these put
 * the cluster in the states the other cases do not reach: pods that cannot be scheduled, and an
 * evicted worker whose replacement the Job controller still holds back (10 s after an eviction).
 * Scheduling and namespaces are the API server's and the controllers': podemu has neither.
 */
import { E2eCase } from '../case';
import { synthCluster } from './synth';

const NO_SCHEDULER = 'podemu has no scheduler and no namespaces: the namespace deletion is a real cluster\'s';

export function namespaceCases(): E2eCase[] {
  return [
    {
      id: 'namespace deletion: pods that cannot be scheduled',
      note: 'a nodeSelector no node has: the pods stay Pending; the case then deletes the namespace',
      synth: synthCluster('pending', 'default', 'flux-pending', {
        size: 2,
        logging: { quiet: true },
        pod: { nodeSelector: { 'cdk8s-minicluster.e2e/no-such-node': 'true' } },
        containers: [{ image: 'ubuntu:noble', command: 'hostname' }],
      }),
      podemu: { skip: NO_SCHEDULER },
      expect: { result: 'Interrupted', stopAfterSeconds: 15, noBrokers: true },
    },
    {
      id: 'namespace deletion: an evicted worker waiting for its replacement',
      note: 'index 1 evicted once both brokers are up; the namespace is deleted 3 s later, while the Job controller holds the replacement back',
      synth: synthCluster('replaced', 'default', 'flux-replaced', {
        size: 2,
        interactive: true,
        logging: { quiet: true },
        containers: [{ image: 'ubuntu:noble' }],
      }),
      podemu: { skip: NO_SCHEDULER },
      faults: { evict: ['1@20'], outcome: 'acted', boundSeconds: 0 },
      expect: { result: 'Interrupted', stopAfterSeconds: 23 },
    },
  ];
}

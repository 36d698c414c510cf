/**
 * The NetworkPolicy held against a real policy engine (issue 34): the brokers connect across nodes
 * behind it, DNS and the API calls the cluster makes get through, and pods outside the cluster are
 * refused on every port its pods listen on. Podemu enforces no policy: real clusters only.
 */
import { PodSecurityLevel } from '../../lib';
import { E2eCase } from '../case';
import { AUTOSCALE_PROPS } from '../../examples/autoscale';
import { autoscaleCases } from './autoscale';
import { inLeadInstance, waitForNodes } from './flux-steps';
import { synthCluster } from './synth';

const SIZE = 4;
const PODEMU_SKIP = 'podemu enforces no NetworkPolicy: a real cluster with a policy engine only';

export function networkPolicyCases(): E2eCase[] {
  const [autoscale] = autoscaleCases();
  return [
    {
      id: 'network policy: the restricted cluster\'s own policy, brokers across nodes, outsiders refused',
      note: `${SIZE} brokers, restricted, networkPolicy: {} (the production example's): every broker up and a job on all of them behind the policy; then every port the pods listen on is tried from the lead (open), from a pod of another namespace and from an unlabelled pod of the namespace (refused)`,
      synth: synthCluster('np-iso', 'default', 'np-iso', {
        size: SIZE, interactive: true, podSecurity: PodSecurityLevel.RESTRICTED, networkPolicy: {}, containers: [{ image: 'rockylinux:9' }],
      }),
      podemu: { skip: PODEMU_SKIP },
      expect: {
        result: 'Interrupted',
        isolated: true,
        exec: [
          waitForNodes(SIZE, 'np-iso'),
          { what: `flux run -N${SIZE} hostname across the nodes`, script: inLeadInstance(`flux run -N${SIZE} hostname | sort`), output: [new RegExp(`^np-iso-0\\nnp-iso-1\\nnp-iso-2\\nnp-iso-3$`, 'm')] },
        ],
      },
    },
    {
      ...autoscale,
      id: 'network policy: the autoscaler behind the cluster\'s own policy grows and shrinks it',
      note: `${autoscale.note}; with networkPolicy: {}, so the lead reaches the API server only through its <job>-apiserver policy, and outsiders are refused`,
      synth: synthCluster('autoscale', 'default', 'flux-autoscale', { ...AUTOSCALE_PROPS, networkPolicy: {} }),
      podemu: { skip: PODEMU_SKIP },
      expect: { ...autoscale.expect, isolated: true },
    },
  ];
}

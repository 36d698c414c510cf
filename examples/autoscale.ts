import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster, MiniClusterProps } from '../lib';

/** The example's cluster, also run behind its own NetworkPolicy by the e2e suite. */
export const AUTOSCALE_PROPS: MiniClusterProps = {
  size: 1,
  maxSize: 4,
  interactive: true,
  autoscale: { idleSeconds: 60 },
  containers: [{ image: 'ubuntu:noble', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
};

/**
 * An interactive cluster that sizes itself: it starts with one broker and grows, up to 4, when a
 * job waits in Flux's queue for more nodes than are up (`flux submit -N3 ...`), then gives the
 * brokers back once they have been idle for a minute, draining them in Flux first
 * (docs/production.md, "Autoscaling"). Small CPU requests, so that 4 pods fit a laptop's kind.
 */
export class Autoscale extends Chart {
  constructor(scope: Construct, id = 'autoscale') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'flux-autoscale', AUTOSCALE_PROPS);
  }
}

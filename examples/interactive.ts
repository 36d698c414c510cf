import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster } from '../lib';

/**
 * An interactive cluster: no command, the lead broker stays up. Connect with
 * `kubectl exec -it <pod of index 0> -- bash -c '. /mnt/flux/flux-view.sh && flux proxy $fluxsocket bash'`.
 */
export class Interactive extends Chart {
  constructor(scope: Construct, id = 'interactive') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'flux-interactive', {
      size: 2,
      interactive: true,
      containers: [{ image: 'rockylinux:9' }],
      flux: { container: { image: 'ghcr.io/converged-computing/flux-view-rocky:tag-9' } },
    });
  }
}

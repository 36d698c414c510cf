import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster } from '../lib';

/**
 * An elastic interactive cluster: starts with 2 brokers, hosts and R cover 8, and it can grow with
 * `kubectl patch job flux-elastic --type merge -p '{"spec":{"parallelism":4,"completions":4}}'`.
 * Fluxion refuses a job larger than the nodes up, so wait for the new ones first
 * (docs/production.md, "Scaling an elastic cluster").
 */
export class Elastic extends Chart {
  constructor(scope: Construct, id = 'elastic') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'flux-elastic', {
      size: 2,
      maxSize: 8,
      interactive: true,
      containers: [{ image: 'ubuntu:noble', resources: { limits: { cpu: '4' } } }],
    });
  }
}

import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster } from '../lib';

/**
 * A cluster queued by Kueue: the Job carries the LocalQueue label and is created suspended, so
 * Kueue admits all four pods at once (gang admission) when the queue's quota fits their requests.
 * Kueue accounts for resource requests, so every container declares them.
 */
export class Kueue extends Chart {
  constructor(scope: Construct, id = 'kueue') {
    super(scope, id, { namespace: 'team-a' });
    new MiniCluster(this, 'flux-queued', {
      size: 4,
      queueName: 'team-a-queue',
      // suspend: true is the default with a queueName; Kueue sets it to false on admission.
      logging: { quiet: true },
      containers: [{
        image: 'ubuntu:noble',
        command: 'echo hello from a queued cluster',
        resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      }],
    });
  }
}

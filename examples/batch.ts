import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster } from '../lib';

/** Batch mode: each line is its own Flux job in one `flux batch`; output lands in a shared volume. */
export class Batch extends Chart {
  constructor(scope: Construct, id = 'batch') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'flux-batch', {
      size: 2,
      logging: { quiet: true },
      containers: [{
        image: 'ubuntu:noble',
        batch: true,
        command: ['echo hello', 'echo one', 'sleep 1', 'echo two', 'echo three', 'echo goodbye'].join('\n'),
        logs: '/tmp/fluxout',
        commands: { post: 'cat /tmp/fluxout/job-0.out' },
        volumes: { 'flux-output': { path: '/tmp/fluxout', emptyDir: true } },
      }],
    });
  }
}

import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster } from '../lib';

/** Four brokers; the lead runs `echo hello world` once all are up, then the Job completes. */
export class HelloWorld extends Chart {
  constructor(scope: Construct, id = 'hello-world') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'flux-sample', {
      size: 4,
      logging: { quiet: true },
      containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
    });
  }
}

import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster } from '../lib';

/** Launcher mode: a workflow tool (Snakemake) is Flux's initial program and submits its own jobs. */
export class Launcher extends Chart {
  constructor(scope: Construct, id = 'launcher') {
    super(scope, id, { namespace: 'default' });
    new MiniCluster(this, 'snakemake', {
      size: 2,
      containers: [{
        image: 'ghcr.io/rse-ops/atacseq:app-latest',
        workingDir: '/workflow',
        launcher: true,
        command: 'snakemake --cores 1 --flux --jobs 1',
        volumes: { data: { path: '/workflow', claimName: 'snakemake-data' } },
      }],
    });
  }
}

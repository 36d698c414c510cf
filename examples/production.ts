import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster, MiniClusterProps, PodSecurityLevel } from '../lib';

/** The production example's cluster (also run by e2e with the view as an image volume). */
export const PRODUCTION_PROPS: MiniClusterProps = {
  size: 4,
  podSecurity: PodSecurityLevel.RESTRICTED,
  networkPolicy: {},
  gitOps: { hashJobName: true, fluxCd: {} },
  containers: [{
    image: 'ghcr.io/converged-computing/metric-lammps:latest',
    workingDir: '/opt/lammps/examples/reaxff/HNS',
    // The root filesystem is read-only at the restricted level: LAMMPS logs to the writable /tmp
    // instead of its working directory.
    command: 'lmp -v x 2 -v y 2 -v z 2 -in in.reaxc.hns -nocite -log /tmp/log.lammps',
    resources: { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } },
  }],
};

/**
 * A cluster set up for production with Flux CD (docs/production.md): pods at the restricted Pod
 * Security level, a NetworkPolicy that lets only the cluster's pods reach each other, and a Job
 * named after a hash of its spec, so that a changed spec in git creates a new Job.
 */
export class Production extends Chart {
  constructor(scope: Construct, id = 'production') {
    super(scope, id, { namespace: 'hpc' });
    new MiniCluster(this, 'flux-prod', PRODUCTION_PROPS);
  }
}

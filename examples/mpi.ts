import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { MiniCluster } from '../lib';

/** A multi-task MPI-style run: LAMMPS on 4 nodes, 2 tasks per node, whole-CPU limits for an exact R. */
export class Mpi extends Chart {
  constructor(scope: Construct, id = 'mpi') {
    super(scope, id, { namespace: 'hpc' });
    new MiniCluster(this, 'lammps', {
      size: 4,
      tasks: 8,
      containers: [{
        image: 'ghcr.io/converged-computing/metric-lammps:latest',
        workingDir: '/opt/lammps/examples/reaxff/HNS',
        command: 'lmp -v x 2 -v y 2 -v z 2 -in in.reaxc.hns -nocite',
        resources: { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } },
      }],
      flux: { optionFlags: '-ompi=openmpi@5' },
      pod: { labels: { selector: 'lammps' } },
    });
  }
}

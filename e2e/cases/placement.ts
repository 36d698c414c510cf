/**
 * Where the brokers land (props `placement`) on a real cluster of three nodes: one broker per node,
 * required, runs 3 brokers on 3 nodes; `check -f` names a cluster of 4 unschedulable before apply.
 */
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { BrokersPerNode, MiniCluster, MiniClusterProps } from '../../lib';
import { E2eCase, MANIFESTS_FILE } from '../case';

/** The 4-broker output `check` judges (written by the case's synth, beside the case's own). */
const FOUR = path.join(os.tmpdir(), 'cdk8s-minicluster-e2e-placement', 'placement-four.k8s.yaml');

function onePerNode(size: number): MiniClusterProps {
  return { size, placement: { brokersPerNode: BrokersPerNode.ONE_REQUIRED }, logging: { quiet: true }, containers: [{ image: 'ubuntu:noble', command: 'hostname' }] };
}

function synth(dir: string): string[] {
  const app = new App({ outdir: dir });
  new MiniCluster(new Chart(app, 'placement', { namespace: 'default' }), 'flux-spread', onePerNode(3));
  app.synth();
  const four = new App({ outdir: path.dirname(FOUR) });
  new MiniCluster(new Chart(four, 'placement-four', { namespace: 'default' }), 'flux-spread', onePerNode(4));
  four.synth();
  return [path.join(dir, 'placement.k8s.yaml')];
}

export function placementCases(): E2eCase[] {
  return [{
    id: 'placement: one broker per node required, 3 brokers on 3 nodes; check names 4 unschedulable before apply',
    note: 'placement.brokersPerNode ONE_REQUIRED (a required pod anti-affinity on kubernetes.io/hostname): check -f passes the 3-broker output and refuses the same cluster of 4 (the placement rule, 1 pod Pending); the 3 brokers run on 3 nodes',
    synth,
    podemu: { skip: 'podemu has no API server (check reads the nodes), no scheduler and one host: placement is a real cluster\'s' },
    kube: { minNodes: 3 },
    expect: { result: 'Succeeded', ranksOnDistinctNodes: true, leadOutput: [/^flux-spread-\d$/m] },
    day2: {
      beforeApply: [
        { what: 'check -f: 3 brokers, one per node, would run', args: ['check', '-f', MANIFESTS_FILE], stdout: [/\/Job\/flux-spread would run on https?:\/\//] },
        {
          what: 'check -f: 4 brokers, one per node, on 3 nodes: refused by the placement rule',
          args: ['check', '-f', FOUR],
          exit: 1,
          stdout: [/placement/, /of the 4 pods the Job starts \(size\), 1 stays Pending/],
        },
      ],
      afterApply: [],
    },
  }];
}

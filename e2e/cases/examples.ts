/** The examples (examples/*.ts), each run as `cdk8s synth` writes it, with what a user would check. */
import * as fs from 'fs';
import * as path from 'path';
import { exampleApp } from '../../examples/app';
import { E2eCase } from '../case';
import { NO_KUEUE } from '../kube/kueue';
import { indexedJob } from '../manifests';
import { inLeadInstance, jobForNodesNotUpYet, waitForNodes } from './flux-steps';
import { LAMMPS_LIMIT, LAMMPS_NEEDS, lammpsExpectation } from './images';
import { droppedBefore135 } from './image-volume-versions';

/** Synthesizes every example into `dir` (once per directory) and returns the chart's file. */
export function exampleSynth(chart: string): (dir: string) => string[] {
  return (dir) => {
    const file = path.join(dir, `${chart}.k8s.yaml`);
    if (!fs.existsSync(file)) exampleApp(dir).synth();
    return [file];
  };
}

const SNAKEFILE = [
  'rule all:',
  '    input: "hello.txt"',
  '',
  'rule hello:',
  '    output: "hello.txt"',
  '    shell: "echo hello from $(hostname) > {output}"',
  '',
].join('\n');

export function exampleCases(): E2eCase[] {
  return [
    {
      id: 'example hello-world',
      synth: exampleSynth('hello-world'),
      expect: { result: 'Succeeded', leadOutputExactly: 'hello world' },
    },
    {
      id: 'example image-volume',
      synth: exampleSynth('image-volume'),
      kube: { beforeMinor: droppedBefore135('flux-image-view') },
      expect: { result: 'Succeeded', leadOutputExactly: 'hello world' },
    },
    {
      id: 'example mpi',
      synth: exampleSynth('mpi'),
      needs: LAMMPS_NEEDS('/opt/lammps/examples/reaxff/HNS'),
      machineLimit: LAMMPS_LIMIT,
      // tasks 8 on 4 pods: one MPI run of 8 ranks.
      expect: lammpsExpectation('2 by 2 by 2'),
    },
    {
      id: 'example interactive',
      synth: exampleSynth('interactive'),
      expect: {
        result: 'Interrupted',
        exec: [
          waitForNodes(2, 'flux-interactive'),
          { what: 'flux resource list', script: inLeadInstance('flux resource list'), output: [/^\s+free\s+2\s+\d+\s+0 flux-interactive-\[0-1\]$/m] },
        ],
      },
    },
    {
      id: 'example batch',
      synth: exampleSynth('batch'),
      expect: {
        result: 'Succeeded',
        // The post step prints the first job's output, read where the lead can read it.
        leadOutput: [/^hello$/m],
      },
    },
    {
      id: 'example launcher',
      synth: exampleSynth('launcher'),
      // The image's Python is `python`, which Snakemake's Flux executor runs each job with.
      needs: { debianPackages: ['snakemake', 'python-is-python3'] },
      volumes: [{ podemuKey: 'pvc-snakemake-data', files: { Snakefile: SNAKEFILE } }],
      podemu: { timeout: 300 },
      expect: { result: 'Succeeded', leadOutput: [/Finished job 0\./, /2 of 2 steps \(100%\) done/] },
    },
    {
      id: 'example volumes',
      synth: exampleSynth('volumes'),
      patch: {
        why: 'no CSI driver here: the gcsfuse bucket volume becomes an emptyDir',
        apply: (docs) => {
          for (const v of indexedJob(docs).spec.template.spec.volumes) {
            if (v.csi) {
              delete v.csi;
              v.emptyDir = {};
            }
          }
        },
      },
      // What the user creates beside the manifests: the ConfigMap and Secret the volumes mount.
      userObjects: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default' }, data: { 'app.yaml': 'greeting: hello\n' } },
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'app-credentials', namespace: 'default' }, stringData: { token: 'not-a-real-token' } },
      ],
      volumes: [{ podemuKey: 'pvc-data', files: { 'pancakes.txt': 'pancakes\n' } }],
      expect: { result: 'Succeeded', leadOutput: [/^\/data:\npancakes\.txt$/m, /^\/config:\napp\.yaml$/m, /^\/dev\/shm:$/m] },
    },
    {
      id: 'example elastic',
      synth: exampleSynth('elastic'),
      patch: {
        why: 'grown from 2 to 4 pods as the example says (kubectl patch job: parallelism and completions 4); podemu starts pods 4 s apart, so the new ones come late',
        apply: (docs) => {
          const job = indexedJob(docs);
          job.spec.parallelism = 4;
          job.spec.completions = 4;
        },
      },
      podemu: { stagger: 4, timeout: 240 },
      // On a cluster the Job starts at 2 pods and is grown to 4 once running, as a user would.
      kube: {
        patch: { why: 'started at 2 pods and grown to 4 after 10 s (kubectl patch job), instead', apply: (docs) => Object.assign(indexedJob(docs).spec, { parallelism: 2, completions: 2 }) },
        grow: { to: 4, atSeconds: 10 },
      },
      // Starts while only the first brokers are up: the documented wait covers the late ones.
      // Starts while only the first brokers are up: the job for every node is queued (the elastic
      // default queue policy, easy), not refused, and runs once the new brokers joined.
      expect: { result: 'Interrupted', execAfterBrokers: 1, exec: [jobForNodesNotUpYet(4, 'flux-elastic'), waitForNodes(4, 'flux-elastic')] },
    },
    {
      id: 'example kueue',
      synth: exampleSynth('kueue'),
      note: 'admitted by a real Kueue: a ClusterQueue of its own whose pods quota (4) fits the cluster, and the example\'s LocalQueue',
      kueue: { podsQuota: 4 },
      podemu: { skip: NO_KUEUE },
      expect: { result: 'Succeeded', leadOutputExactly: 'hello from a queued cluster' },
    },
    {
      id: 'example production',
      synth: exampleSynth('production'),
      needs: LAMMPS_NEEDS('/opt/lammps/examples/reaxff/HNS'),
      machineLimit: LAMMPS_LIMIT,
      // The restricted level: the runner as uid 1000 on a read-only root file system.
      expect: lammpsExpectation('1 by 1 by 1', [/^entrypoint: rank 0 on flux-prod-\w+-0, running as uid 1000$/m]),
    },
  ];
}

/**
 * The Flux view as an image volume (flux.container.source image-volume): nothing is copied, the
 * containers run Flux from the view image mounted read-only. Each case must boot as its copying
 * twin does; one shows that the tree is read-only and is the one Flux runs from; one that a volume
 * without the view (what a runtime without image volumes mounts) fails the Job at once, saying why.
 */
import { PRODUCTION_PROPS } from '../../examples/production';
import { DEFAULT_FLUX_VIEW_IMAGE, FluxViewSource, PodSecurityLevel } from '../../lib';
import { VIEW_CHECK_EXIT_CODE } from '../../lib/scripts/render';
import { E2eCase } from '../case';
import { DROPPED_BEFORE_1_35, VERSION } from './image-volume-versions';
import { exampleSynth } from './examples';
import { LAMMPS_LIMIT, LAMMPS_NEEDS, lammpsExpectation } from './images';
import { synthCluster } from './synth';


/**
 * A Flux job's view of the tree it runs from: how many broker log lines complain of a read-only
 * file system (none: Flux writes nothing under its prefix at run time), where `flux` resolves,
 * writes under the two mounts, a Python Flux command (its bytecode is read from the read-only
 * tree) and the user.
 */
const PROBE = "sh -c 'flux dmesg | grep -ciE \"read-only|EROFS\"; readlink -f \"$(command -v flux)\"; touch /opt/software/flux/probe /opt/views/probe 2>&1; flux resource list -no {nnodes}; id -u'";

export function imageVolumeCases(): E2eCase[] {
  return [
    {
      id: 'example hello-world with the view as a read-only image volume',
      note: 'flux.container.source image-volume at the restricted level (uid 1000, read-only root file system): '
        + 'a Flux job shows that flux resolves into the mounted /opt/software, that both mounts refuse writes, and that the Python commands run',
      synth: synthCluster('hello-world', 'default', 'flux-sample', {
        size: 4,
        kubernetesVersion: VERSION,
        logging: { quiet: true },
        podSecurity: PodSecurityLevel.RESTRICTED,
        flux: { container: { source: FluxViewSource.IMAGE_VOLUME } },
        containers: [{ image: 'ubuntu:noble', command: PROBE }],
      }),
      kube: { beforeMinor: DROPPED_BEFORE_1_35 },
      expect: {
        result: 'Succeeded',
        leadOutputExactly: [
          '0',
          '/opt/software/flux/bin/flux',
          "touch: cannot touch '/opt/software/flux/probe': Read-only file system",
          "touch: cannot touch '/opt/views/probe': Read-only file system",
          '4',
          '1000',
        ].join('\n'),
      },
    },
    {
      id: 'example image-volume on a runtime without image volumes (an empty volume)',
      note: 'the image-volume example with its view image volume empty (podemu --image-root REF=<empty directory>), as containerd < 2.1 and CRI-O < 1.33 mount it: '
        + 'the flux view init container ends every pod with exit 78 and a termination message naming the image, the cause and both ways out, '
        + 'and the Job fails at once by its podFailurePolicy, before any broker, within the 60 s podemu gives it',
      synth: exampleSynth('image-volume'),
      podemu: { timeout: 60, imageRoots: { [DEFAULT_FLUX_VIEW_IMAGE]: 'empty-image' } },
      expect: {
        result: 'Failed',
        // rules: 0 evictions (Ignore), 1 the handshake's codes, 2 the view check's
        reason: /^PodFailurePolicy: rule 2 \(FailJob\)/,
        noBrokers: true,
        exits: [{ index: 0, container: 'flux-view', code: VIEW_CHECK_EXIT_CODE }],
        terminationMessages: [{
          index: 0,
          container: 'flux-view',
          patterns: [
            /^flux-view-check: the flux view image volume ghcr\.io\/converged-computing\/flux-view-ubuntu:tag-noble is empty on node \S+: this node's container runtime does not mount image volumes/,
            /containerd 2\.1 or newer, CRI-O 1\.33 or newer/,
            /flux\.container\.source copy-to-disk or copy-to-memory/,
          ],
        }],
      },
      kube: { skip: "podemu's --image-root plays a runtime without image volumes; a real cluster's runtime mounts what it supports" },
    },
    {
      id: 'example production with the view as an image volume',
      note: 'the production example (restricted, NetworkPolicy, hashed Job name) with flux.container.source image-volume',
      synth: synthCluster('production', 'hpc', 'flux-prod', {
        ...PRODUCTION_PROPS,
        kubernetesVersion: VERSION,
        flux: { container: { source: FluxViewSource.IMAGE_VOLUME } },
      }),
      needs: LAMMPS_NEEDS('/opt/lammps/examples/reaxff/HNS'),
      machineLimit: LAMMPS_LIMIT,
      expect: lammpsExpectation('1 by 1 by 1', [/^entrypoint: rank 0 on flux-prod-\w+-0, running as uid 1000$/m]),
    },
  ];
}

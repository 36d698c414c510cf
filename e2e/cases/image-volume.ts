/**
 * The Flux view as an image volume (flux.container.source image-volume): nothing is copied, the
 * containers run Flux from the view image mounted read-only. Each case must boot as its copying
 * twin does; one shows that the tree is read-only and is the one Flux runs from; one that a view
 * image of unknown layout without the view (an empty volume) fails the Job at once, saying why.
 */
import { PRODUCTION_PROPS } from '../../examples/production';
import { FluxViewSource, PodSecurityLevel } from '../../lib';
import { VIEW_CHECK_EXIT_CODE } from '../../lib/scripts/render';
import { E2eCase } from '../case';
import { droppedBefore135, VERSION } from './image-volume-versions';
import { LAMMPS_LIMIT, LAMMPS_NEEDS, lammpsExpectation } from './images';
import { synthCluster } from './synth';


/**
 * A Flux job's view of the tree it runs from: how many broker log lines complain of a read-only
 * file system (none: Flux writes nothing under its prefix at run time), where `flux` resolves,
 * writes under the two mounts, a Python Flux command (its bytecode is read from the read-only
 * tree) and the user.
 */
const PROBE = "sh -c 'flux dmesg | grep -ciE \"read-only|EROFS\"; readlink -f \"$(command -v flux)\"; touch /opt/software/flux/probe /opt/views/probe 2>&1; flux resource list -no {nnodes}; id -u'";

/** A view image of another publisher: the library cannot know its layout, so an init container checks it. */
const OTHER_VIEW_IMAGE = 'registry.example/hpc/flux-view:1';

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
      kube: { beforeMinor: droppedBefore135('flux-sample') },
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
      id: 'example image-volume with a view image not from flux-views, empty (as a runtime without image volumes mounts it)',
      note: 'the image-volume example with a view image of another publisher, whose layout the library cannot know, mapped to an empty directory (podemu --image-root REF=<empty directory>): '
        + 'the flux view init container that checks such an image ends every pod with exit 78 and a termination message naming the image, the cause and both ways out, '
        + 'and the Job fails at once by its podFailurePolicy, before any broker, within the 60 s podemu gives it',
      synth: synthCluster('image-volume', 'default', 'flux-image-view', {
        size: 4,
        kubernetesVersion: VERSION,
        logging: { quiet: true },
        flux: { container: { source: FluxViewSource.IMAGE_VOLUME, image: OTHER_VIEW_IMAGE } },
        containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
      }),
      podemu: { timeout: 60, imageRoots: { [OTHER_VIEW_IMAGE]: 'empty-image' } },
      expect: {
        result: 'Failed',
        // rules: 0 evictions (Ignore), 1 stopped pods (Ignore), 2 the handshake's codes, 3 the view check's
        reason: /^PodFailurePolicy: rule 3 \(FailJob\)/,
        noBrokers: true,
        exits: [{ index: 0, container: 'flux-view', code: VIEW_CHECK_EXIT_CODE }],
        terminationMessages: [{
          index: 0,
          container: 'flux-view',
          patterns: [
            /^flux-view-check: the flux view image volume registry\.example\/hpc\/flux-view:1 is empty on node \S+: this node's container runtime does not mount image volumes/,
            /containerd 2\.1 or newer, CRI-O 1\.33 or newer/,
            /flux\.container\.source copy-to-disk or copy-to-memory/,
          ],
        }],
      },
      kube: { skip: "podemu's --image-root plays an empty image volume; a real cluster's runtime mounts what the image holds, and the image is on no registry here" },
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
      // The runner's name is hashed: the fail-fast names whatever it is.
      kube: { beforeMinor: droppedBefore135() },
    },
  ];
}

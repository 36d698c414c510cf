/**
 * The Flux view as an image volume (flux.container.source image-volume): nothing is copied, the
 * containers run Flux from the view image mounted read-only. Each case must boot as its copying
 * twin does; one shows that the tree is read-only and is the one Flux runs from.
 */
import { PRODUCTION_PROPS } from '../../examples/production';
import { FluxViewSource, PodSecurityLevel } from '../../lib';
import { E2eCase } from '../case';
import { LAMMPS_LIMIT, LAMMPS_NEEDS, lammpsExpectation } from './images';
import { synthCluster } from './synth';

/** The first Kubernetes version with image volumes on by default. */
const VERSION = '1.35';

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

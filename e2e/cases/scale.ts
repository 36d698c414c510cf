/**
 * Hello world at scale: every broker of 64 and 128 pods must join, and `flux run -N<N> hostname`
 * must print every hostname. With the view as an image volume the pods copy nothing, so 128 pods fit
 * on one machine; 64 pods also run with the default copy to disk, for comparison. The times and
 * memory of these clusters are measured by `npm run bench:scale` (docs/scale.md).
 */
import { FluxViewSource } from '../../lib';
import { E2eCase } from '../case';
import { synthCluster } from './synth';

/** The cluster a scale case (and bench/scale.ts) runs: `flux run -N<size> hostname` over all pods. */
export function scaleCluster(dir: string, size: number, source: FluxViewSource, handshakeDeadline?: number, sidecar = false): string[] {
  return synthCluster('scale', 'default', 'flux-scale', {
    size,
    logging: { quiet: true },
    handshake: handshakeDeadline === undefined && !sidecar ? undefined : {
      ...(handshakeDeadline === undefined ? {} : { deadlineSeconds: handshakeDeadline }),
      ...(sidecar ? { inRunner: false } : {}),
    },
    kubernetesVersion: source === FluxViewSource.IMAGE_VOLUME ? '1.35' : undefined,
    flux: { container: { source } },
    containers: [{ image: 'ubuntu:noble', launcher: true, command: `sh -c 'flux run -N${size} hostname | sort -V'` }],
  })(dir);
}

/**
 * `kubeExtra`: a real cluster's added time. The reference one runs its three nodes on one 2-CPU
 * machine: there a bare Indexed Job of 64 pods running `true` takes 56 s from apply to Complete
 * (24 s on one node), and 64 MiniCluster pods (three containers each) about 290 s.
 */
const SCALES: Array<{ size: number; source: FluxViewSource; timeout: number; kubeExtra: number; handshakeDeadline?: number }> = [
  { size: 64, source: FluxViewSource.IMAGE_VOLUME, timeout: 300, kubeExtra: 300 },
  // The default 300 s bound of the handshake is for one broker per node: on one 2-CPU machine the
  // kubelets start the last of 128 pods' sidecars minutes after the first (rank 0's among the last).
  { size: 128, source: FluxViewSource.IMAGE_VOLUME, timeout: 600, kubeExtra: 900, handshakeDeadline: 1200 },
  { size: 64, source: FluxViewSource.COPY_TO_DISK, timeout: 600, kubeExtra: 300 },
];

export function scaleCases(): E2eCase[] {
  return SCALES.map(({ size, source, timeout, kubeExtra, handshakeDeadline }) => ({
    id: `example scale ${size} pods, view ${source}`,
    note: `hello world on ${size} brokers: flux run -N${size} hostname`
      + (handshakeDeadline ? `; handshake.deadlineSeconds ${handshakeDeadline}: all pods on one 2-CPU machine start over minutes` : ''),
    synth: (dir: string) => scaleCluster(dir, size, source, handshakeDeadline),
    podemu: { timeout },
    kube: { extraSeconds: kubeExtra },
    expect: {
      result: 'Succeeded',
      leadOutputExactly: Array.from({ length: size }, (_, i) => `flux-scale-${i}`).join('\n'),
      everyBrokerInOutput: true,
    },
  }));
}

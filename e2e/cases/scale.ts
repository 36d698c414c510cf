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
export function scaleCluster(dir: string, size: number, source: FluxViewSource): string[] {
  return synthCluster('scale', 'default', 'flux-scale', {
    size,
    logging: { quiet: true },
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
const SCALES: Array<{ size: number; source: FluxViewSource; timeout: number; kubeExtra: number }> = [
  { size: 64, source: FluxViewSource.IMAGE_VOLUME, timeout: 300, kubeExtra: 300 },
  { size: 128, source: FluxViewSource.IMAGE_VOLUME, timeout: 600, kubeExtra: 900 },
  { size: 64, source: FluxViewSource.COPY_TO_DISK, timeout: 600, kubeExtra: 300 },
];

export function scaleCases(): E2eCase[] {
  return SCALES.map(({ size, source, timeout, kubeExtra }) => ({
    id: `example scale ${size} pods, view ${source}`,
    note: `hello world on ${size} brokers: flux run -N${size} hostname`,
    synth: (dir: string) => scaleCluster(dir, size, source),
    podemu: { timeout },
    kube: { extraSeconds: kubeExtra },
    expect: {
      result: 'Succeeded',
      leadOutputExactly: Array.from({ length: size }, (_, i) => `flux-scale-${i}`).join('\n'),
      everyBrokerInOutput: true,
    },
  }));
}

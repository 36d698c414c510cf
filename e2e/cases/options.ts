/**
 * The hello-world example with options that change what the pods hold: each must still boot, and
 * the option must show where a user would look.
 */
import { PodSecurityLevel } from '../../lib';
import { E2eCase } from '../case';
import { synthCluster } from './synth';

export function optionCases(): E2eCase[] {
  return [{
    id: 'example hello-world with flux.container.inMemory',
    note: 'the view and the install tree copied into memory-backed emptyDirs (Flux\'s config and state on disk), by uid 1000 at the restricted level',
    synth: synthCluster('hello-world', 'default', 'flux-sample', {
      size: 4,
      logging: { quiet: true },
      flux: { container: { inMemory: true } },
      // Non-root containers must be able to fill and use the memory-backed volumes too.
      podSecurity: PodSecurityLevel.RESTRICTED,
      // A Flux job on one of the 4 brokers: the file systems it runs Flux from, and its user.
      containers: [{ image: 'ubuntu:noble', command: "sh -c 'stat -f -c %T /opt/software /mnt/flux/view /mnt/flux/config; id -u'" }],
    }),
    expect: { result: 'Succeeded', leadOutput: [/^tmpfs\ntmpfs\n(?!tmpfs\n)\S+\n1000\n?$/] },
  }];
}

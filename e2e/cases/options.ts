/**
 * The hello-world example with options that change what the pods hold: each must still boot, and
 * the option must show where a user would look.
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { MiniCluster, PodSecurityLevel } from '../../lib';
import { E2eCase } from '../case';

export function optionCases(): E2eCase[] {
  return [{
    id: 'example hello-world with flux.container.inMemory',
    note: 'the view and the install tree copied into memory-backed emptyDirs (Flux\'s config and state on disk), by uid 1000 at the restricted level',
    synth: (dir: string) => {
      const app = new App({ outdir: dir });
      new MiniCluster(new Chart(app, 'hello-world', { namespace: 'default' }), 'flux-sample', {
        size: 4,
        logging: { quiet: true },
        flux: { container: { inMemory: true } },
        // Non-root containers must be able to fill and use the memory-backed volumes too.
        podSecurity: PodSecurityLevel.RESTRICTED,
        // A Flux job on one of the 4 brokers: the file systems it runs Flux from, and its user.
        containers: [{ image: 'ubuntu:noble', command: "sh -c 'stat -f -c %T /opt/software /mnt/flux/view /mnt/flux/config; id -u'" }],
      });
      app.synth();
      return [path.join(dir, 'hello-world.k8s.yaml')];
    },
    expect: { result: 'Succeeded', leadOutput: [/^tmpfs\ntmpfs\n(?!tmpfs\n)\S+\n1000\n?$/] },
  }];
}

/**
 * The hello-world example as it is synthesized for older Kubernetes versions: each version range
 * gets another pod lifecycle (kubernetesVersion, docs/objects.md, "Kubernetes versions"), and each must boot.
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { MiniCluster } from '../../lib';
import { E2eCase } from '../case';

/** What changes at each version: the handshake's lifecycle and mode, and the Job's failure handling. */
const VERSIONS: Array<{ version: string; what: string }> = [
  { version: '1.27', what: 'handshake as a plain init container in DNS mode, restartPolicy OnFailure' },
  { version: '1.28', what: 'handshake as a plain init container with the rendezvous Service' },
  { version: '1.30', what: 'native sidecar, podFailurePolicy, no successPolicy' },
];

export function versionCases(): E2eCase[] {
  return VERSIONS.map(({ version, what }) => ({
    id: `example hello-world for Kubernetes ${version}`,
    note: what,
    synth: (dir: string) => {
      const app = new App({ outdir: dir });
      new MiniCluster(new Chart(app, 'hello-world', { namespace: 'default' }), 'flux-sample', {
        size: 4,
        logging: { quiet: true },
        kubernetesVersion: version,
        containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
      });
      app.synth();
      return [path.join(dir, 'hello-world.k8s.yaml')];
    },
    expect: { result: 'Succeeded', leadOutputExactly: 'hello world' },
  }));
}

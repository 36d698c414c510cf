/**
 * The hello-world example as it is synthesized for older Kubernetes versions: each version range
 * gets another pod lifecycle (kubernetesVersion, docs/objects.md, "Kubernetes versions"), and each must boot.
 */
import { E2eCase } from '../case';
import { synthCluster } from './synth';

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
    synth: synthCluster('hello-world', 'default', 'flux-sample', {
      size: 4,
      logging: { quiet: true },
      kubernetesVersion: version,
      containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
    }),
    expect: { result: 'Succeeded', leadOutputExactly: 'hello world' },
  }));
}

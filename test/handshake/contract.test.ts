import {
  HANDSHAKE_FAILURE_EXIT_CODES, HandshakeLifecycle, HandshakeMode, handshakeWiring,
} from '../../lib/core/handshake-contract';
import { parseConfig } from '../../lib/runtime/handshake/config';

describe('handshake contract', () => {
  test('default wiring: rendezvous sidecar command, env, probe, Service and version floor', () => {
    // GIVEN a 4-pod MiniCluster; WHEN it is wired with defaults
    const w = handshakeWiring({ clusterName: 'flux-sample', serviceName: 'flux-sample', size: 4 });
    // THEN
    expect(w.command).toEqual([
      'node', '--max-semi-space-size=1', '--lite-mode', '--no-expose-wasm', '/program/handshake.js',
      '--name=flux-sample', '--service=flux-sample', '--size=4', '--max-size=4', '--quorum=4', '--topology=kary:256',
      '--mode=rendezvous', '--lifecycle=sidecar', '--port=8060', '--flux-port=8050', '--bind-interface=eth0',
      '--deadline-seconds=300', '--out-dir=/mnt/flux-handshake', '--cert=/etc/flux-curve/curve.cert',
      '--cluster-domain=cluster.local', '--runner-exit-file=/mnt/flux-handshake/runner/exited',
    ]);
    expect(w.env).toEqual([
      { name: 'POD_IP', fieldPath: 'status.podIP' },
      { name: 'POD_NAMESPACE', fieldPath: 'metadata.namespace' },
    ]);
    expect(w.parentFile).toBe('/mnt/flux-handshake/parent.env');
    expect(w.failedFile).toBe('/mnt/flux-handshake/failed');
    expect(w.rendezvousService).toEqual({
      name: 'flux-sample-rendezvous', port: 8060, publishNotReadyAddresses: true,
      selector: { 'batch.kubernetes.io/job-completion-index': '0', 'batch.kubernetes.io/job-name': 'flux-sample' },
    });
    expect(w.minimumKubernetesMinor).toBe(29);
    expect(w.failureExitCodes).toEqual([64, 70, 81, 82, 83, 84, 85, 86]);
    expect(w.failureExitCodes).toEqual(HANDSHAKE_FAILURE_EXIT_CODES);
  });

  test('Kubernetes 1.27 path: DNS mode as an init container needs no Service', () => {
    const w = handshakeWiring({
      clusterName: 'c', serviceName: 's', size: 2, mode: HandshakeMode.DNS, lifecycle: HandshakeLifecycle.INIT,
    });
    expect(w.rendezvousService).toBeUndefined();
    expect(w.minimumKubernetesMinor).toBe(24);
    expect(w.command).toContain('--mode=dns');
    expect(w.command).toContain('--lifecycle=init');
    expect(handshakeWiring({ clusterName: 'c', serviceName: 's', size: 2, lifecycle: HandshakeLifecycle.INIT }).minimumKubernetesMinor).toBe(28);
  });

  test('init lifecycle in rendezvous mode: the Service also carries the Flux port, for pods that come after the cluster is up', () => {
    const w = handshakeWiring({ clusterName: 'c', serviceName: 's', size: 2, lifecycle: HandshakeLifecycle.INIT, fluxPort: 9050 });
    expect(w.rendezvousService).toEqual({
      name: 'c-rendezvous', port: 8060, fluxPort: 9050, publishNotReadyAddresses: true,
      selector: { 'batch.kubernetes.io/job-completion-index': '0', 'batch.kubernetes.io/job-name': 'c' },
    });
  });

  test('the program accepts exactly the command the wiring produces', () => {
    // GIVEN the wiring's command and the downward-API env a pod would get
    const w = handshakeWiring({ clusterName: 'flux', serviceName: 'flux', size: 8, topology: 'kary:2', quorum: 6, maxSize: 10 });
    const argv = w.command.slice(5);
    const { config, errors } = parseConfig(argv, { POD_IP: '10.1.2.3', POD_NAMESPACE: 'team', JOB_COMPLETION_INDEX: '5' });
    // THEN it parses with no error into the same values
    expect(errors).toEqual([]);
    expect(config).toMatchObject({
      name: 'flux', service: 'flux', size: 8, maxSize: 10, quorum: 6, topology: 'kary:2', index: 5, podIp: '10.1.2.3',
      namespace: 'team', rendezvousHost: 'flux-rendezvous.team.svc.cluster.local', port: 8060, fluxPort: 8050,
    });
  });

  test('invalid options: one error naming every field, value and rule', () => {
    expect(() => handshakeWiring({
      clusterName: 'Bad_Name', serviceName: 'svc', size: 0, quorum: 5, topology: 'kary:1', port: 8050,
      deadlineSeconds: 0, outDir: 'relative',
    })).toThrow([
      'invalid handshake options:',
      "  clusterName: 'Bad_Name' must be an RFC 1035 label (lowercase letters, digits, '-')",
      '  size: 0 must be an integer from 1 to 100000',
      '  quorum: 5 must be an integer from 1 to 1',
      '  port: 8050 must differ from fluxPort (Flux binds it)',
      '  deadlineSeconds: 0 must be an integer from 1 to 86400',
      "  topology: 'kary:1' kary:1 is not supported (kary:1 crashes flux-core brokers, flux-core#6463); use kary:2 or more",
      "  outDir: 'relative' must be an absolute path",
    ].join('\n'));
  });

  test('deterministic: same input, identical output', () => {
    const o = { clusterName: 'a', serviceName: 'b', size: 3 };
    expect(JSON.stringify(handshakeWiring(o))).toBe(JSON.stringify(handshakeWiring(o)));
  });
});

import { Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { CertificateSource, HandshakeMode, MiniCluster, MiniClusterProps, PodSecurityLevel } from '../lib';
import { expectValidManifests, validateManifests } from './support/k8s-validate';

const VERSIONS = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36'];
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,14}[a-z0-9]$/);
const envName = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,10}$/);
const quantity = fc.constantFrom('1', '2', '500m', '1Gi', '256Mi', '1.5', '0.5', '2e3');

const volume = fc.oneof(
  fc.record({ path: fc.constant('/data'), claimName: label }),
  fc.record({ path: fc.constant('/host'), hostPath: fc.constant('/var/tmp') }),
  fc.record({ emptyDir: fc.constant(true), emptyDirMedium: fc.constantFrom('memory', ''), emptyDirSizeLimit: quantity }),
  fc.record({ path: fc.constant('/cfg'), configMapName: label }),
  fc.record({ path: fc.constant('/sec'), secretName: label, readOnly: fc.boolean() }),
);

const validProps: fc.Arbitrary<{ name: string; props: MiniClusterProps }> = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/),
  size: fc.integer({ min: 1, max: 64 }),
  extra: fc.integer({ min: 0, max: 64 }),
  quorum: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
  tasks: fc.integer({ min: 0, max: 128 }),
  version: fc.constantFrom(...VERSIONS),
  command: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
  mode: fc.constantFrom('submit', 'launcher', 'batch'),
  env: fc.dictionary(envName, fc.string({ maxLength: 10 }), { maxKeys: 3 }),
  volumes: fc.dictionary(label, volume, { maxKeys: 3 }),
  cpu: fc.option(quantity, { nil: undefined }),
  quiet: fc.boolean(),
  strict: fc.boolean(),
  interactive: fc.boolean(),
  sidecar: fc.boolean(),
  fanout: fc.integer({ min: 2, max: 300 }),
  level: fc.constantFrom(...Object.values(PodSecurityLevel)),
}).map((r) => {
  const hasCommand = r.command !== undefined && r.command.trim() !== '';
  // One mount path per volume (the API server rejects two mounts at one path): the first emptyDir
  // may keep the default /dev/shm, every other volume gets its own path.
  const volumes = Object.fromEntries(Object.entries(r.volumes).map(([n, v], i) => [n, 'path' in v || i > 0 ? { ...v, path: `/v/${n}` } : v]));
  const runner = {
    image: 'ubuntu:noble',
    command: r.command,
    launcher: hasCommand && r.mode === 'launcher',
    batch: hasCommand && r.mode === 'batch',
    environment: r.env,
    volumes,
    resources: r.cpu ? { limits: { cpu: r.cpu } } : undefined,
    runFlux: r.sidecar ? true : undefined,
  };
  const containers = r.sidecar ? [runner, { image: 'nginx', name: 'web', ports: [80] }] : [runner];
  return {
    name: r.name,
    props: {
      size: r.size,
      maxSize: r.size + r.extra,
      minSize: r.quorum !== undefined ? Math.min(r.quorum, r.size) : undefined,
      tasks: r.tasks,
      kubernetesVersion: r.version,
      interactive: r.interactive,
      logging: { quiet: r.quiet, strict: r.strict },
      flux: { topology: `kary:${r.fanout}` },
      containers,
      // A hostPath volume needs the privileged level.
      podSecurity: Object.values(volumes).some((v) => 'hostPath' in v) ? PodSecurityLevel.PRIVILEGED : r.level,
    },
  };
});

/** One mutation that breaks exactly one rule, and the path the error must name. */
const invalidations: [string, (p: MiniClusterProps) => MiniClusterProps][] = [
  ['size', (p) => ({ ...p, size: 0 })],
  ['maxSize', (p) => ({ ...p, maxSize: (p.size ?? 1) - 1 || -1 })],
  ['minSize', (p) => ({ ...p, minSize: (p.size ?? 1) + 1 })],
  ['tasks', (p) => ({ ...p, tasks: -3 })],
  ['kubernetesVersion', (p) => ({ ...p, kubernetesVersion: '1.20' })],
  ['flux.topology', (p) => ({ ...p, flux: { topology: 'kary:1' } })],
  ['containers[0].image', (p) => ({ ...p, containers: [{ ...p.containers[0], image: '' }, ...p.containers.slice(1)] })],
  ['containers[0].resources.limits.cpu', (p) => ({ ...p, containers: [{ ...p.containers[0], resources: { limits: { cpu: 'two' } } }, ...p.containers.slice(1)] })],
  ['containers[0].launcher', (p) => ({ ...p, containers: [{ ...p.containers[0], command: 'x', launcher: true, batch: true }, ...p.containers.slice(1)] })],
  ['network.brokerPort', (p) => ({ ...p, network: { brokerPort: 0 } })],
];

describe('properties', () => {
  test('random valid props always synthesize schema-valid output for their version', () => {
    fc.assert(fc.property(validProps, ({ name, props }) => {
      const chart = new Chart(Testing.app(), 'p');
      new MiniCluster(chart, name, props);
      const docs = Testing.synth(chart);
      expectValidManifests(docs, { kubernetesVersion: props.kubernetesVersion });
      const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === name);
      expect(job.spec.completions).toBe(props.size);
    }), { numRuns: 60 });
  });

  test('what synth-time validation accepts, the API server accepts: random props either throw or synthesize valid objects', () => {
    // GIVEN props drawn near the edges the API server checks (name lengths, mount paths, resources,
    // tolerations, node affinity), valid or not
    const edgyProps = fc.record({
      name: fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,62}$/), fc.constantFrom('a'.repeat(52), 'a'.repeat(53), 'a'.repeat(61), 'A', '1a')),
      size: fc.integer({ min: 1, max: 12 }),
      extra: fc.constantFrom(0, 1, 100),
      version: fc.constantFrom(...VERSIONS),
      gitOps: fc.constantFrom(undefined, { hashJobName: true }, { runId: 'r1' }, { runId: 'nightly-build-7' }),
      certificate: fc.constantFrom(undefined, CertificateSource.fromExistingSecret('curve')),
      handshake: fc.constantFrom(undefined, { enabled: false }, { mode: HandshakeMode.DNS }, { mode: HandshakeMode.RENDEZVOUS }),
      volumes: fc.dictionary(label, fc.record({
        path: fc.constantFrom(undefined, '/data', '/mnt/flux', '/flux_operator', '/dev/shm', '/tmp'),
        emptyDir: fc.constant(true),
      }, { requiredKeys: ['emptyDir'] }), { maxKeys: 3 }),
      resources: fc.record({
        requests: fc.dictionary(fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu', 'hugepages-2Mi', 'gpu'), fc.constantFrom('1', '2', '500m', '2Mi', '-1')),
        limits: fc.dictionary(fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu', 'hugepages-2Mi'), fc.constantFrom('1', '2', '4Mi', '2Mi')),
      }),
      tolerations: fc.array(fc.record({
        key: fc.constantFrom(undefined, 'gpu', 'a b'),
        operator: fc.constantFrom(undefined, 'Equal', 'Exists'),
        value: fc.constantFrom(undefined, 'yes', 'a b'),
      }), { maxLength: 2 }),
      zone: fc.constantFrom(undefined, ['a'], ['us east']),
      hostPID: fc.boolean(),
      shareProcessNamespace: fc.boolean(),
    });
    fc.assert(fc.property(edgyProps, (r) => {
      const props: MiniClusterProps = {
        size: r.size,
        maxSize: r.size + r.extra,
        kubernetesVersion: r.version,
        gitOps: r.gitOps,
        certificate: r.certificate,
        handshake: r.handshake,
        shareProcessNamespace: r.shareProcessNamespace,
        podSecurity: PodSecurityLevel.PRIVILEGED,
        pod: { hostPID: r.hostPID, tolerations: r.tolerations, nodeAffinity: r.zone ? { zone: [...r.zone] } : undefined },
        containers: [{ image: 'ubuntu:noble', volumes: r.volumes, resources: r.resources }],
      };
      const chart = new Chart(Testing.app(), 'p');
      try {
        new MiniCluster(chart, r.name, props);
      } catch (e) {
        // WHEN validation rejects them THEN it says why and creates nothing
        expect((e as Error).message).toMatch(/^invalid MiniCluster '.*' \(\d+ problems?\):\n  - /);
        return;
      }
      // WHEN validation accepts them THEN every object passes the API server's checks for the version
      expect(validateManifests(Testing.synth(chart), { kubernetesVersion: r.version })).toEqual([]);
    }), { numRuns: 200 });
  });

  test('random invalid props always raise the validation error naming the property', () => {
    fc.assert(fc.property(validProps, fc.constantFrom(...invalidations), ({ name, props }, [path, mutate]) => {
      const chart = new Chart(Testing.app(), 'p');
      expect(() => new MiniCluster(chart, name, mutate(props))).toThrow(`- ${path} = `);
      expect(Testing.synth(chart)).toEqual([]);
    }), { numRuns: 100 });
  });
});

import { Testing } from 'cdk8s';
import { CertificateSource, FluxViewSource, HandshakeMode, MiniCluster, MiniClusterProps, PodSecurityLevel } from '../lib';
import { validateManifests } from './support/k8s-validate';

const ok: MiniClusterProps = { containers: [{ image: 'ubuntu:noble', command: 'hostname' }] };

function errorOf(props: Partial<MiniClusterProps>, name = 'flux-sample'): string {
  try {
    new MiniCluster(Testing.chart(), name, { ...ok, ...props });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a validation error');
}

/** Validation accepts `props`, and the API server's checks (the test-support port) accept what they synthesize. */
function expectAccepted(props: Partial<MiniClusterProps>): void {
  const chart = Testing.chart();
  new MiniCluster(chart, 'flux-sample', { ...ok, ...props });
  expect(validateManifests(Testing.synth(chart))).toEqual([]);
}

describe('validation', () => {
  test('every problem is reported at once with path, value and rule', () => {
    // WHEN
    const message = errorOf({ size: 0, tasks: -1, flux: { logLevel: 9, topology: 'kary:1' } }, 'Flux_Sample');
    // THEN
    expect(message).toMatch(/^invalid MiniCluster 'Flux_Sample' \(5 problems\):/);
    expect(message).toContain('- name = "Flux_Sample": must be a DNS-1035 label');
    expect(message).toContain('- size = 0: must be an integer from 1 to 100000');
    expect(message).toContain('- tasks = -1: must be an integer >= 0');
    expect(message).toContain('- flux.logLevel = 9: must be an integer from 0 to 7');
    expect(message).toContain('- flux.topology = "kary:1": kary:1 is not supported');
  });

  test.each<[string, Partial<MiniClusterProps>, RegExp]>([
    ['hostname too long at maxSize', { maxSize: 1000 }, /name = "a{60}": pod hostname 'a{60}-999' exceeds 63 characters/],
  ])('%s', (_, props, message) => {
    expect(errorOf(props, 'a'.repeat(60))).toMatch(message);
  });

  test.each<[string, string, Partial<MiniClusterProps>, RegExp]>([
    ['a long name', 'a'.repeat(53), { certificate: CertificateSource.fromExistingSecret('curve') }, /name = "a{53}": the handshake's rendezvous Service 'a{53}-rendezvous' would have 64 characters, over 63 \(a Service name is a DNS-1035 label\); shorten the name to at most 52 characters or set handshake.mode to HandshakeMode.DNS/],
    ['a content-hashed Job name', 'h'.repeat(45), { gitOps: { hashJobName: true } }, /'h{45}-x{8}-rendezvous' would have 65 characters, over 63 .*at most 43 characters/],
    ['a run id', 'r'.repeat(40), { gitOps: { runId: 'nightly-2026-01' } }, /'r{40}-nightly-2026-01-rendezvous' would have 67 characters/],
  ])('the rendezvous Service name must fit 63 characters: %s', (_, name, props, message) => {
    // WHEN the Job name is long enough for its pods' hostnames but not for the Service named after it
    // THEN validation says so before the API server would
    expect(errorOf(props, name)).toMatch(message);
    // AND the DNS mode, which needs no such Service, or an older Kubernetes where it is the default, is fine
    expect(() => new MiniCluster(Testing.chart(), name, { ...ok, ...props, handshake: { mode: HandshakeMode.DNS } })).not.toThrow();
    expect(() => new MiniCluster(Testing.chart(), name, { ...ok, ...props, kubernetesVersion: '1.27' })).not.toThrow();
  });

  test.each<[string, Partial<MiniClusterProps>, RegExp]>([
    ['maxSize below size', { size: 4, maxSize: 2 }, /maxSize = 2: must be an integer from size \(4\)/],
    ['minSize above size', { size: 2, minSize: 3 }, /minSize = 3: must be an integer from 1 to size \(2\)/],
    ['size not an integer', { size: 2.5 }, /size = 2\.5: must be an integer/],
    ['size over the Job limit', { size: 100001 }, /size = 100001/],
    ['negative backoffLimit', { backoffLimit: -1 }, /backoffLimit = -1/],
    ['bad kubernetes version', { kubernetesVersion: '1.26' }, /kubernetesVersion = "1.26": must be 1.27 or newer/],
    ['bad kubernetes version format', { kubernetesVersion: 'latest' }, /kubernetesVersion = "latest": must look like '1.34'/],
    ['bad namespace', { namespace: 'Prod' }, /namespace = "Prod": must be a DNS-1123 label/],
    ['relative archive path', { archive: { path: 'state.tar' } }, /archive.path = "state.tar": must be an absolute path/],
    ['bad job label', { jobLabels: { 'kueue.x-k8s.io/queue-name': 'a b' } }, /jobLabels.kueue.x-k8s.io\/queue-name = "a b": label value/],
    ['bad connect timeout', { flux: { connectTimeout: '5 seconds' } }, /flux.connectTimeout = "5 seconds": must be a Flux duration/],
    ['bad queue policy', { flux: { scheduler: { queuePolicy: 'lifo' } } }, /flux.scheduler.queuePolicy = "lifo": must be one of fcfs, easy, hybrid, conservative/],
    ['bad mount path', { flux: { container: { mountPath: 'mnt' } } }, /flux.container.mountPath = "mnt": must be an absolute path/],
    ['unsupported topology', { flux: { topology: 'binomial' } }, /flux.topology = "binomial": must be 'kary:K'/],
    ['bad flux environment name', { flux: { environment: { 'A-B': '1' } } }, /flux.environment.A-B/],
    ['bad headless name', { network: { headlessName: '1svc' } }, /network.headlessName = "1svc": must be a DNS-1035 label/],
    ['bad port', { network: { brokerPort: 70000 } }, /network.brokerPort = 70000/],
    ['bad cluster domain', { network: { clusterDomain: 'Cluster_Local' } }, /network.clusterDomain/],
    ['bad dns policy', { pod: { dnsPolicy: 'Sometimes' } }, /pod.dnsPolicy = "Sometimes": must be one of/],
    ['bad toleration', { pod: { tolerations: [{ key: 'gpu', operator: 'Maybe', effect: 'NoRun' }] } }, /pod.tolerations\[0\].operator = "Maybe"[\s\S]*pod.tolerations\[0\].effect = "NoRun"/],
    ['empty node affinity', { pod: { nodeAffinity: { zone: [] } } }, /pod.nodeAffinity.zone = \[\]: must list at least one value/],
    ['no containers', { containers: [] }, /containers = \[\]: must list at least one container/],
    ['two runners', { containers: [{ image: 'a', runFlux: true }, { image: 'b', name: 'b', runFlux: true }] }, /exactly one container must set runFlux \(found 2\)/],
    ['no runner', { containers: [{ image: 'a', name: 'a' }, { image: 'b', name: 'b' }] }, /exactly one container must set runFlux \(found 0\)/],
    ['unnamed sidecar', { containers: [{ image: 'a', runFlux: true }, { image: 'nginx' }] }, /containers\[1\].name = \(unset\): required for containers that do not run Flux/],
    ['duplicate names', { containers: [{ image: 'a', runFlux: true }, { image: 'b', name: 'x' }, { image: 'c', name: 'x' }] }, /containers\[2\].name = "x": duplicates containers\[1\].name/],
    ['launcher and batch', { containers: [{ image: 'a', command: 'x', launcher: true, batch: true }] }, /containers\[0\].launcher = true: launcher and batch are mutually exclusive/],
    ['script and command', { containers: [{ image: 'a', command: 'x', commands: { script: 'y' } }] }, /containers\[0\].commands.script = "\(script\)": script and command are mutually exclusive/],
    ['batchRaw without batch', { containers: [{ image: 'a', command: 'x', batchRaw: true }] }, /batchRaw = true: requires batch/],
    ['batch without command', { containers: [{ image: 'a', batch: true }] }, /containers\[0\].command = \(unset\): required with batch/],
    ['runner as a sidecar', { containers: [{ image: 'a', sidecar: true }] }, /containers\[0\].sidecar = true: the Flux runner is the pod's main container; only other containers can be sidecars/],
    ['a sidecar before Kubernetes 1.29', { kubernetesVersion: '1.28', containers: [{ image: 'a', runFlux: true }, { image: 'nginx', name: 'web', sidecar: true }] },
      /containers\[1\].sidecar = true: native sidecars need Kubernetes 1.29 or newer/],
    ['runner with noWrapEntrypoint', { containers: [{ image: 'a', noWrapEntrypoint: true }] }, /noWrapEntrypoint = true: the Flux runner always runs the entrypoint script/],
    ['bad cpu quantity', { containers: [{ image: 'a', resources: { limits: { cpu: '1.5 cores' } } }] }, /containers\[0\].resources.limits.cpu = "1.5 cores": must be a quantity/],
    ['bad port list', { containers: [{ image: 'a', ports: [80, 80, 0] }] }, /ports\[1\] = 80: duplicate port[\s\S]*ports\[2\] = 0: must be a port/],
    ['requests above limits', { containers: [{ image: 'a', resources: { requests: { cpu: '2' }, limits: { cpu: '1500m' } } }] }, /containers\[0\].resources.requests.cpu = "2": must be at most limits.cpu \(1500m\)/],
    ['a GPU request without a limit', { containers: [{ image: 'a', resources: { requests: { 'nvidia.com/gpu': '1' } } }] }, /containers\[0\].resources.limits.nvidia.com\/gpu = \(unset\): required with requests.nvidia.com\/gpu: nvidia.com\/gpu cannot be overcommitted/],
    ['a GPU request below its limit', { containers: [{ image: 'a', resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '2' } } }] }, /requests.nvidia.com\/gpu = "1": must equal limits.nvidia.com\/gpu \(2\)/],
    ['huge pages requested below the limit', { flux: { container: { resources: { requests: { 'hugepages-2Mi': '2Mi', memory: '1Gi' }, limits: { 'hugepages-2Mi': '4Mi' } } } } }, /flux.container.resources.requests.hugepages-2Mi = "2Mi": must equal limits.hugepages-2Mi \(4Mi\)/],
    ['huge pages not a whole number of pages', { containers: [{ image: 'a', resources: { limits: { 'hugepages-2Mi': '3Mi', memory: '1Gi' } } }] }, /limits.hugepages-2Mi = "3Mi": must be a whole number of 2Mi pages/],
    ['huge pages without cpu or memory', { containers: [{ image: 'a', resources: { limits: { 'hugepages-2Mi': '2Mi' } } }] }, /containers\[0\].resources = \["hugepages-2Mi"\]: huge pages need a cpu or memory request or limit/],
    ['an unknown resource name', { containers: [{ image: 'a', resources: { limits: { gpu: '1' } } }] }, /containers\[0\].resources.limits.gpu = "gpu": must be cpu, memory, ephemeral-storage, hugepages-<size> or an extended resource/],
    ['a negative limit', { containers: [{ image: 'a', resources: { limits: { memory: '-1Gi' } } }] }, /containers\[0\].resources.limits.memory = "-1Gi": must not be negative/],
    ['a keyless toleration that is not Exists', { pod: { tolerations: [{ value: 'x', effect: 'NoSchedule' }] } }, /pod.tolerations\[0\].operator = \(unset\): must be Exists when key is empty/],
    ['a toleration value that is not a label value', { pod: { tolerations: [{ key: 'k', value: 'a b' }] } }, /pod.tolerations\[0\].value = "a b": label value must be/],
    ['a bad toleration key', { pod: { tolerations: [{ key: 'a b', operator: 'Exists' }] } }, /pod.tolerations\[0\].key = "a b": key name must be/],
    ['a node affinity value that is not a label value', { pod: { nodeAffinity: { zone: ['us east'] } } }, /pod.nodeAffinity.zone\[0\] = "us east": label value must be/],
    ['bad env name', { containers: [{ image: 'a', environment: { '1 X': 'y' } }] }, /environment.1 X/],
    ['bad secret ref', { containers: [{ image: 'a', secrets: { TOKEN: { name: 'Bad_Name', key: 'k' } } }] }, /secrets.TOKEN.name = "Bad_Name"/],
    ['image with spaces', { containers: [{ image: 'ubuntu noble' }] }, /containers\[0\].image = "ubuntu noble"/],
    ['pvc without path', { containers: [{ image: 'a', volumes: { data: { claimName: 'data' } } }] }, /volumes.data.path = \(unset\): required for claimName and hostPath volumes/],
    ['two volume sources', { containers: [{ image: 'a', volumes: { data: { path: '/d', hostPath: '/h', secretName: 's' } } }] }, /volumes.data = \["hostPath","secretName"\]: set at most one of/],
    ['medium without emptyDir', { containers: [{ image: 'a', volumes: { d: { path: '/d', claimName: 'c', emptyDirMedium: 'memory' } } }] }, /emptyDirMedium and emptyDirSizeLimit need emptyDir: true/],
    ['bad size limit', { containers: [{ image: 'a', volumes: { d: { emptyDir: true, emptyDirSizeLimit: 'lots' } } }] }, /emptyDirSizeLimit = "lots": must be a quantity/],
    ['items without configMap', { containers: [{ image: 'a', volumes: { d: { path: '/d', claimName: 'c', items: { a: 'b' } } } }] }, /volumes.d.items = \{"a":"b"\}: only for configMapName volumes/],
    ['reserved volume name', { containers: [{ image: 'a', volumes: { 'flux-view': { emptyDir: true } } }] }, /volume name is reserved by the MiniCluster/],
    ['conflicting shared volume', { containers: [{ image: 'a', runFlux: true, volumes: { d: { path: '/d', claimName: 'x' } } }, { image: 'b', name: 'b', volumes: { d: { path: '/d', claimName: 'y' } } }] }, /volume 'd' is defined differently in containers\[0\]/],
    ['two emptyDirs at the default /dev/shm', { containers: [{ image: 'a', volumes: { a: { emptyDir: true }, b: { emptyDir: true } } }] }, /containers\[0\].volumes.b.path = \(unset\): an emptyDir without a path mounts at \/dev\/shm, where volume 'a' is already mounted in this container; give it a path/],
    ['two volumes at one path', { containers: [{ image: 'a', volumes: { a: { path: '/d', claimName: 'x' }, b: { path: '/d', secretName: 's' } } }] }, /containers\[0\].volumes.b.path = "\/d": volume 'a' is already mounted at \/d in this container/],
    ['a volume at the Flux view path', { containers: [{ image: 'a', volumes: { a: { path: '/mnt/flux', claimName: 'x' } } }] }, /volumes.a.path = "\/mnt\/flux": the Flux view \(flux.container.mountPath\) is already mounted at \/mnt\/flux/],
    ['a volume at the in-memory view path', { flux: { container: { inMemory: true } }, containers: [{ image: 'a', volumes: { a: { path: '/mnt/flux/view', claimName: 'x' } } }] }, /volumes.a.path = "\/mnt\/flux\/view": the in-memory Flux view \(flux.container.inMemory\) is already mounted at \/mnt\/flux\/view/],
    ['an in-memory view that is not copied', { flux: { container: { inMemory: true, disable: true } } }, /flux.container.inMemory = true: needs the view: flux.container.disable is true, so nothing is copied/],
    ['an unknown view source', { flux: { container: { source: 'nfs' as any } } }, /flux.container.source = "nfs": must be one of copy-to-disk, copy-to-memory, image-volume/],
    ['an image volume before Kubernetes 1.35', { kubernetesVersion: '1.34', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } } },
      /flux.container.source = "image-volume": needs Kubernetes 1.35 or newer, where image volumes are on by default \(kubernetesVersion is 1.34\); use 'copy-to-disk' or 'copy-to-memory' before/],
    ['an image volume for 1.33', { kubernetesVersion: '1.33', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } } }, /needs Kubernetes 1.35 or newer, where image volumes are on by default \(kubernetesVersion is 1.33\)/],
    ['inMemory beside another source', { kubernetesVersion: '1.35', flux: { container: { inMemory: true, source: FluxViewSource.IMAGE_VOLUME } } },
      /flux.container.inMemory = true: contradicts flux.container.source 'image-volume' \(inMemory: true is source 'copy-to-memory'\); set only source/],
    ['inMemory false with source copy-to-memory', { flux: { container: { inMemory: false, source: FluxViewSource.COPY_TO_MEMORY } } }, /flux.container.inMemory = false: contradicts flux.container.source 'copy-to-memory'/],
    ['an image volume without the view', { kubernetesVersion: '1.35', flux: { container: { disable: true, source: FluxViewSource.IMAGE_VOLUME } } },
      /flux.container.source = "image-volume": needs the view: flux.container.disable is true, so the pods get no Flux from the view image/],
    ['a volume at the image volume\'s /opt/views', { kubernetesVersion: '1.35', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } }, containers: [{ image: 'a', volumes: { a: { path: '/opt/views', claimName: 'x' } } }] },
      /volumes.a.path = "\/opt\/views": the Flux view image volume \(flux.container.source\) is already mounted at \/opt\/views/],
    ['a volume at the image volume\'s view link', { kubernetesVersion: '1.35', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } }, containers: [{ image: 'a', volumes: { a: { path: '/mnt/flux/view', claimName: 'x' } } }] },
      /volumes.a.path = "\/mnt\/flux\/view": the link to the Flux view image volume \(flux.container.source\) is already mounted at \/mnt\/flux\/view/],
    ['a volume at the install tree under the image volume', { kubernetesVersion: '1.35', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } }, containers: [{ image: 'a', volumes: { a: { path: '/opt/software', claimName: 'x' } } }] },
      /volumes.a.path = "\/opt\/software": the Flux software volume is already mounted at \/opt\/software/],
    ['a volume at the scripts path', { containers: [{ image: 'a', volumes: { a: { path: '/flux_operator', claimName: 'x' } } }] }, /volumes.a.path = "\/flux_operator": the entrypoint ConfigMap is already mounted at \/flux_operator/],
    ['hostPID with shareProcessNamespace', { shareProcessNamespace: true, podSecurity: PodSecurityLevel.PRIVILEGED, pod: { hostPID: true } }, /pod.hostPID = true: cannot be combined with shareProcessNamespace: true/],
    ['sidecar with brokerPre', { containers: [{ image: 'a', runFlux: true }, { image: 'b', name: 'b', commands: { brokerPre: 'x' } }] }, /containers\[1\].commands.brokerPre = "\(set\)": only the Flux runner container runs it/],
  ])('rejects %s', (_, props, message) => {
    expect(errorOf(props)).toMatch(message);
  });

  describe('what the API server accepts is accepted', () => {
    test.each<[string, Record<string, string>, Record<string, string>]>([
      ['700m and 0.7', { cpu: '700m' }, { cpu: '0.7' }],
      ['350m and 0.35', { cpu: '350m' }, { cpu: '0.35' }],
      ['8.3G and 8300M', { memory: '8.3G' }, { memory: '8300M' }],
      ['1E and 1000P (exa, not an exponent)', { 'ephemeral-storage': '1E' }, { 'ephemeral-storage': '1000P' }],
    ])('a request equal to its limit in another spelling: %s', (_, requests, limits) => {
      // GIVEN a request that equals its limit exactly, written differently
      // WHEN validated THEN it is not "above the limit" (floats made 700m 0.7000000000000001)
      expectAccepted({ containers: [{ image: 'a', command: 'x', resources: { requests, limits } }] });
    });

    test('volumes at /data and /data/ in one container: the API server compares mount paths as written', () => {
      // GIVEN two volumes whose paths differ only by a trailing slash WHEN validated THEN both are accepted
      expectAccepted({ containers: [{ image: 'a', command: 'x', volumes: { a: { path: '/data', claimName: 'x' }, b: { path: '/data/', secretName: 's' } } }] });
    });

    test('the Flux view mount is compared as the manifest carries it, without the trailing slash', () => {
      // GIVEN flux.container.mountPath '/opt/flux/', mounted at '/opt/flux'
      const flux = { container: { mountPath: '/opt/flux/' } };
      // WHEN a volume takes '/opt/flux' THEN it clashes with the view
      expect(errorOf({ flux, containers: [{ image: 'a', volumes: { a: { path: '/opt/flux', claimName: 'x' } } }] }))
        .toMatch(/containers\[0\].volumes.a.path = "\/opt\/flux": the Flux view \(flux.container.mountPath\) is already mounted at \/opt\/flux in this container/);
      // AND a volume at '/opt/flux/' is another path to the API server
      expectAccepted({ flux, containers: [{ image: 'a', command: 'x', volumes: { a: { path: '/opt/flux/', claimName: 'x' } } }] });
    });

    test('user and group IDs up to 2147483647 (math.MaxInt32)', () => {
      // GIVEN the largest ID the API server accepts in every ID prop WHEN validated THEN it is accepted
      const id = 2147483647;
      expectAccepted({
        pod: { runAsUser: id, runAsGroup: id, fsGroup: id },
        flux: { container: { securityContext: { runAsUser: id, runAsGroup: id } } },
        containers: [{ image: 'a', command: 'x', securityContext: { runAsUser: id, runAsGroup: id } }],
      });
    });

    test('extended resources in whole units, however written', () => {
      // GIVEN a GPU of 2000m (2) and an FPGA of 1 WHEN validated THEN both are accepted
      expectAccepted({ containers: [{ image: 'a', command: 'x', resources: { limits: { 'nvidia.com/gpu': '2000m', 'example.com/fpga': '1' } } }] });
    });
  });

  describe('what the API server rejects is rejected, naming the property, the value and the rule', () => {
    test.each<[string, Partial<MiniClusterProps>, RegExp]>([
      ['a request above its limit, both with the exa suffix', { containers: [{ image: 'a', resources: { requests: { memory: '2E' }, limits: { memory: '1E' } } }] },
        /containers\[0\].resources.requests.memory = "2E": must be at most limits.memory \(1E\)/],
      ['a fractional GPU limit', { containers: [{ image: 'a', resources: { limits: { 'nvidia.com/gpu': '500m' } } }] },
        /containers\[0\].resources.limits.nvidia.com\/gpu = "500m": must be a whole number: nvidia.com\/gpu is an extended resource, allocated in whole units/],
      ['a fractional extended resource request', { flux: { container: { resources: { requests: { 'example.com/fpga': '1.5' }, limits: { 'example.com/fpga': '1.5' } } } } },
        /flux.container.resources.requests.example.com\/fpga = "1.5": must be a whole number[\s\S]*flux.container.resources.limits.example.com\/fpga = "1.5": must be a whole number/],
      ['a huge page size that is not a whole number of bytes', { containers: [{ image: 'a', resources: { limits: { 'hugepages-1500m': '3', memory: '1Gi' } } }] },
        /containers\[0\].resources.limits.hugepages-1500m = "hugepages-1500m": a huge page resource is hugepages-<page size>, the page size a positive whole number of bytes/],
      ['a container user ID above 2147483647', { containers: [{ image: 'a', securityContext: { runAsUser: 2147483648 } }] },
        /containers\[0\].securityContext.runAsUser = 2147483648: must be an integer from 0 to 2147483647 \(the API server's user and group ID range\)/],
      ['a flux view group ID above 2147483647', { flux: { container: { securityContext: { runAsGroup: 4294967295 } } } },
        /flux.container.securityContext.runAsGroup = 4294967295: must be an integer from 0 to 2147483647/],
      ['a pod group ID above 2147483647', { pod: { runAsGroup: 2147483648 } }, /pod.runAsGroup = 2147483648: must be an integer from 0 to 2147483647/],
      ['an fsGroup above 2147483647', { pod: { fsGroup: 2147483648 } }, /pod.fsGroup = 2147483648: must be an integer from 0 to 2147483647/],
    ])('%s', (_, props, message) => {
      expect(errorOf(props)).toMatch(message);
    });
  });

  test('a broker config override that Flux would reject is a validation error', () => {
    expect(errorOf({ flux: { brokerConfig: '[bootstrap]\nfoo = 1\n' } })).toMatch(/flux.brokerConfig = "\(toml\)": invalid broker config:[\s\S]*\[bootstrap\] foo: unknown key/);
  });

  test('invalid props create nothing in the chart', () => {
    // GIVEN
    const chart = Testing.chart();
    // WHEN
    expect(() => new MiniCluster(chart, 'flux-sample', { ...ok, size: 0 })).toThrow();
    // THEN
    expect(Testing.synth(chart)).toEqual([]);
  });
});

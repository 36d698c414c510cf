/**
 * The converter from Flux Operator MiniCluster resources to MiniCluster props, on inline resources
 * (self-contained: no operator data needed).
 */
import { Chart, Testing } from 'cdk8s';
import { parse as parseToml } from 'smol-toml';
import { ImagePullPolicy, MiniCluster, MiniClusterProps, PodRestartPolicy, PodSecurityLevel } from '../../lib';
import { createCurveCert } from '../../lib/cert';
import {
  convertCustomResource, miniClusterFromCustomResource, problemLine, propsFromCustomResource,
} from '../../lib/operator';
import { expectValidManifests } from '../support/k8s-validate';

const API = 'flux-framework.org/v1alpha2';

function resource(spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'flux-sample' }): any {
  return { apiVersion: API, kind: 'MiniCluster', metadata, spec };
}

const hello = resource({ size: 4, logging: { quiet: true }, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] });

/** Problems as `path = value: rule` lines. */
function problems(r: unknown): string[] {
  return convertCustomResource(r).problems.map(problemLine);
}

function warnings(r: unknown): string[] {
  return convertCustomResource(r).warnings.map(problemLine);
}

function synth(build: (chart: Chart) => void) {
  const chart = Testing.chart();
  build(chart);
  return Testing.synth(chart);
}

describe('propsFromCustomResource', () => {
  test('hello world: the same props a user would write, with the CRD defaults applied', () => {
    // WHEN
    const converted = propsFromCustomResource(hello);
    // THEN
    expect(converted.name).toBe('flux-sample');
    expect(converted.namespace).toBeUndefined();
    expect(converted.warnings).toEqual([]);
    expect(converted.props).toEqual({
      name: 'flux-sample',
      size: 4,
      tasks: 1,
      deadlineSeconds: 31500000,
      interactive: false,
      logging: { quiet: true, strict: false, debug: false, timed: false, zeromq: false },
      containers: [{ image: 'ubuntu:noble', command: 'echo hello world', pullAlways: false }],
    });
  });

  test('fromCustomResource synthesizes byte-identical YAML to the equivalent hand-written props', () => {
    // GIVEN
    const props: MiniClusterProps = { name: 'flux-sample', size: 4, logging: { quiet: true }, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] };
    // WHEN
    const fromResource = synth((chart) => miniClusterFromCustomResource(chart, 'flux-sample', hello));
    const fromProps = synth((chart) => new MiniCluster(chart, 'flux-sample', props));
    // THEN
    expect(JSON.stringify(fromResource)).toBe(JSON.stringify(fromProps));
    expectValidManifests(fromResource);
  });

  test('every mapped field reaches its prop', () => {
    // GIVEN a resource that sets every mapped field; the parts that map one to one are shared
    const top = {
      size: 2, maxSize: 4, minSize: 1, tasks: 0, deadlineSeconds: 600, backoffLimit: 3, interactive: false,
      // false: the API server rejects shareProcessNamespace together with pod.hostPID (set below)
      shareProcessNamespace: false, jobLabels: { 'kueue.x-k8s.io/queue-name': 'hpc' }, archive: { path: '/state/archive.tar.gz' },
      logging: { quiet: true, strict: true, debug: true, timed: true, zeromq: true },
      network: { headlessName: 'brokers', disableAffinity: true },
    };
    const fluxSame = {
      submitCommand: 'flux mini submit', wrap: 'strace,-e,network', connectTimeout: '2s', optionFlags: '-ompi=openmpi@5',
      topology: 'kary:4', completeWorkers: true, logLevel: 7, disableSocket: true, environment: { A: '1' },
      scheduler: { simple: true, queuePolicy: 'easy' },
    };
    const viewSame = {
      image: 'ghcr.io/converged-computing/flux-view-rocky:tag-9', name: 'view', mountPath: '/opt/flux', disable: false,
      workingDir: '/tmp', pythonPath: '/py', pullAlways: true, securityContext: { runAsUser: 1000, capabilities: { drop: ['ALL'] } },
    };
    const podSame = {
      labels: { team: 'a' }, annotations: { note: 'x' }, serviceAccountName: 'sa', automountServiceAccountToken: true,
      nodeSelector: { pool: 'hpc' }, nodeAffinity: { zone: ['a', 'b'] }, schedulerName: 'fluence', runtimeClassName: 'rc',
      dnsPolicy: 'ClusterFirst', hostIPC: true, hostPID: true, tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
    };
    const runnerSame = {
      image: 'app:1', runFlux: true, command: 'run', workingDir: '/w', logs: '/out', environment: { B: '2' },
      secrets: { TOKEN: { name: 'creds', key: 'token' } }, ports: [8080], pullAlways: false, imagePullSecret: 'regcred', launcher: true,
      securityContext: { privileged: true, runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, readOnlyRootFilesystem: false, allowPrivilegeEscalation: true },
      volumes: {
        data: { path: '/data', claimName: 'data', readOnly: true },
        host: { path: '/h', hostPath: '/srv' },
        cfg: { path: '/cfg', configMapName: 'cfg', items: { 'a.txt': 'a.txt' } },
        sec: { path: '/sec', secretName: 'sec' },
        scratch: { emptyDir: true, emptyDirMedium: 'memory', emptyDirSizeLimit: '1Gi' },
        csi: { path: '/csi', csiDriver: 'gcs.csi.ofek.dev', csiDriverAttributes: { bucket: 'b' } },
      },
    };
    const commands = { init: 'i', pre: 'p', brokerPre: 'bp', workerPre: 'wp', post: 'po', prefix: 'fusion' };
    const sidecar = { image: 'nginx', name: 'web', noWrapEntrypoint: true, batch: false, batchRaw: false };
    const r = resource({
      ...top,
      flux: { ...fluxSame, container: { ...viewSame, resources: { limits: { cpu: 1 } } } },
      pod: { ...podSame, restartPolicy: 'OnFailure', securityContext: { fsGroup: 2000 } },
      containers: [
        {
          ...runnerSame, name: 'ignored-for-the-runner', imagePullPolicy: 'Always',
          resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2 } },
          lifeCycle: { postStartExec: 'touch /a', preStopExec: 'touch /b' }, commands: { ...commands, servicePre: '' },
        },
        sidecar,
      ],
    }, { name: 'lammps', namespace: 'hpc' });
    // WHEN
    const { props, namespace, warnings: notes } = propsFromCustomResource(r, { kubernetesVersion: '1.29', ttlSecondsAfterFinished: 60 });
    // THEN
    expect(namespace).toBe('hpc');
    // host namespaces, a privileged container and a hostPath volume: the operator enforces no Pod Security level
    expect(notes.filter((w) => w.includes('converted with podSecurity: PodSecurityLevel.PRIVILEGED')).map((w) => w.split(' = ')[0])).toEqual([
      'spec.pod.hostPID', 'spec.pod.hostIPC', 'spec.containers[0].securityContext.privileged', 'spec.containers[0].volumes.host.hostPath',
    ]);
    expect(props).toEqual({
      ...top, name: 'lammps', namespace: 'hpc', ttlSecondsAfterFinished: 60, kubernetesVersion: '1.29', podSecurity: PodSecurityLevel.PRIVILEGED,
      flux: { ...fluxSame, container: { ...viewSame, resources: { limits: { cpu: '1' } } } },
      pod: { ...podSame, restartPolicy: PodRestartPolicy.ON_FAILURE, fsGroup: 2000 },
      containers: [
        {
          ...runnerSame, imagePullPolicy: ImagePullPolicy.ALWAYS,
          resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2' } },
          lifecycle: { postStartExec: 'touch /a', preStopExec: 'touch /b' }, commands,
        },
        { ...sidecar, pullAlways: false },
      ],
    });
    expectValidManifests(synth((chart) => miniClusterFromCustomResource(chart, 'c', r, { kubernetesVersion: '1.29' })), { kubernetesVersion: '1.29' });
  });

  test("the operator's zero values mean its defaults: backoffLimit 0 is the library's default, maxSize and minSize 0 are unset, '' strings are unset", () => {
    const { props } = propsFromCustomResource(resource({
      size: 3, backoffLimit: 0, maxSize: 0, minSize: 0, network: { headlessName: '' }, archive: { path: '' },
      flux: { container: { image: '', mountPath: '', name: '' }, scheduler: { queuePolicy: '' } },
      containers: [{ image: 'a', command: '', workingDir: '', logs: '', commands: { pre: '' } }],
    }));
    expect(props).toEqual({
      name: 'flux-sample', size: 3, tasks: 1, deadlineSeconds: 31500000, interactive: false,
      flux: { connectTimeout: '5s', logLevel: 6, container: { disable: false, pullAlways: false } },
      containers: [{ image: 'a', pullAlways: false }],
    });
    const job = synth((chart) => miniClusterFromCustomResource(chart, 'x', resource({ size: 3, backoffLimit: 0, containers: [{ image: 'a' }] })))
      .find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job');
    // The operator's 100 counted container restarts (OnFailure); under podFailurePolicy the library
    // counts failed pods no rule matched, 3 in all (docs/reliability.md).
    expect(job.spec.backoffLimit).toBe(3);
  });

  test('a container without image gets the CRD default image; the namespace option fills a missing namespace', () => {
    const converted = propsFromCustomResource(resource({ containers: [{ command: 'hostname' }] }), { namespace: 'team-a' });
    expect(converted.props.containers[0].image).toBe('ghcr.io/rse-ops/accounting:app-latest');
    expect(converted.props.size).toBe(1); // the CRD default, as the API server would set it
    expect(converted.namespace).toBe('team-a');
  });

  test('a resource exported from a cluster (status, server-set metadata, explicit defaults) converts without noise', () => {
    const r = resource(
      { size: 2, cleanup: false, services: [], flux: { arch: '', bursting: {}, minimalService: false, noWaitSocket: false }, pod: { resources: {} }, containers: [{ image: 'a', command: 'b' }] },
      { name: 'flux-sample', namespace: 'default', uid: 'x', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels: { a: 'b' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
    );
    r.status = { conditions: [], jobid: '', maximumSize: 2, selector: 'hpa-selector=flux-sample', size: 2 };
    const conversion = convertCustomResource(r);
    expect(conversion.problems).toEqual([]);
    expect(conversion.warnings).toEqual([]);
  });
});

describe('problems', () => {
  test('all problems at once, each naming the field path, the value and the rule', () => {
    // GIVEN
    const r = resource({
      size: 'four', cleanup: true,
      flux: { arch: 'amd64', mungeSecret: 'munge', bursting: { leadBroker: { address: '1.2.3.4', name: 'lead', size: 2 } } },
      pod: { resources: { cpu: 1 }, securityContext: { runAsUser: 1000 } },
      services: [{ image: 'nginx', name: 'nginx' }],
      containers: [{ image: 'ubuntu', command: 'x', pullAlways: 'yes', ports: ['80'], resources: { limits: { cpu: 'lots' } }, securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }],
    });
    // WHEN
    let message = '';
    try {
      propsFromCustomResource(r);
    } catch (e) {
      message = (e as Error).message;
    }
    // THEN
    expect(message.split('\n')).toEqual([
      "invalid MiniCluster resource 'flux-sample' (12 problems):",
      expect.stringMatching(/^ {2}- spec\.size = "four": must be an integer \(int32\), got a string$/),
      expect.stringMatching(/^ {2}- spec\.cleanup = true: the operator deletes the whole MiniCluster .* ttlSecondsAfterFinished/),
      expect.stringMatching(/^ {2}- spec\.flux\.arch = "amd64": unused by the operator since cbbe0d5f/),
      expect.stringMatching(/^ {2}- spec\.flux\.mungeSecret = "munge": unused in v1alpha2/),
      expect.stringMatching(/^ {2}- spec\.flux\.bursting = \{"leadBroker":.*: experimental and broken in the operator/),
      expect.stringMatching(/^ {2}- spec\.pod\.resources = \{"cpu":1\}: the operator copies it to the pod's spec\.overhead/),
      expect.stringMatching(/^ {2}- spec\.pod\.securityContext\.runAsUser = 1000: ignored by the operator, which copies only securityContext\.fsGroup/),
      expect.stringMatching(/^ {2}- spec\.services = \[\{"image":"nginx","name":"nginx"\}\]: the operator runs these containers in one extra Pod '<name>-services'/),
      '  - spec.containers[0].pullAlways = "yes": must be true or false, got the string \'yes\' (a YAML 1.1 boolean; write true or false)',
      '  - spec.containers[0].ports[0] = "80": must be an integer (int32), got a string',
      expect.stringMatching(/^ {2}- spec\.containers\[0\]\.resources\.limits\.cpu = "lots": must be a quantity/),
      expect.stringMatching(/^ {2}- spec\.containers\[0\]\.securityContext\.seccompProfile = \{"type":"RuntimeDefault"\}: not passed through by the MiniCluster props/),
    ]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['misspelled field, with a suggestion', { containers: [{ image: 'a', pulAlways: true }] },
      "spec.containers[0].pulAlways = true: unknown field: not in the MiniCluster v1alpha2 schema (did you mean 'pullAlways'?)"],
    ['unknown field, listing the known ones', { network: { dns: 'x' } },
      'spec.network.dns = "x": unknown field: not in the MiniCluster v1alpha2 schema, which has disableAffinity, headlessName here'],
    ['v1alpha1 field removed in v1alpha2', { containers: [{ image: 'a', fluxOptionFlags: '-x' }] },
      'spec.containers[0].fluxOptionFlags = "-x": unknown field: moved in v1alpha2 to spec.flux.optionFlags'],
    ['stale example field: top-level volumes', { volumes: { data: { path: '/d' } }, containers: [{ image: 'a' }] },
      'spec.volumes = {"data":{"path":"/d"}}: unknown field: removed in v1alpha2 (the operator no longer creates PersistentVolumes or claims): create the claim yourself and mount it with containers[].volumes.<name>.claimName and path'],
    ['a YAML 1.1 boolean word', { logging: { quiet: 'yes' }, containers: [{ image: 'a' }] },
      "spec.logging.quiet = \"yes\": must be true or false, got the string 'yes' (a YAML 1.1 boolean; write true or false)"],
    ['size 0 (the operator silently ignores it)', { size: 0, containers: [{ image: 'a' }] }, 'spec.size = 0: must be an integer from 1 to 100000'],
    ['a prop rule, at the resource path', { containers: [{ image: 'a', runFlux: true }, { image: 'b', name: 'Bad_Name' }] },
      'spec.containers[1].name = "Bad_Name": must be a DNS-1123 label'],
    ['a sidecar without a name', { containers: [{ image: 'a', lifeCycle: { postStartExec: 'x' } }, { image: 'b', name: 'side', runFlux: true }] },
      'spec.containers[0].name = (unset): required for containers that do not run Flux'],
    ['fsGroup, at its resource path', { pod: { securityContext: { fsGroup: -1 } }, containers: [{ image: 'a' }] },
      "spec.pod.securityContext.fsGroup = -1: must be an integer from 0 to 2147483647 (the API server's user and group ID range)"],
    ['restartPolicy Always', { pod: { restartPolicy: 'Always' }, containers: [{ image: 'a' }] },
      'spec.pod.restartPolicy = "Always": must be OnFailure or Never (a Job\'s pods cannot restart Always)'],
    ['missing containers', {}, 'spec.containers = (unset): required'],
    ['a volume without a source (the operator made an invalid claim)', { containers: [{ image: 'a', volumes: { data: { path: '/tmp/fluxout' } } }] },
      'spec.containers[0].volumes.data.claimName = (unset): a volume needs a source: claimName, hostPath, configMapName, secretName, emptyDir or csiDriver (the operator fell back to a claim with an empty claimName, which the API server rejects); for scratch space use emptyDir: true'],
    ['two volume sources', { containers: [{ image: 'a', volumes: { data: { path: '/d', hostPath: '/d', claimName: 'c' } } }] },
      'spec.containers[0].volumes.data = ["hostPath","claimName"]: set at most one of hostPath, configMapName, claimName, secretName, emptyDir, csiDriver'],
    ['unsupported topology', { flux: { topology: 'binomial' }, containers: [{ image: 'a' }] },
      'spec.flux.topology = "binomial": must be \'kary:K\' with K >= 2 (other tbon.topo shapes are not supported)'],
  ])('%s', (_, spec, expected) => {
    expect(problems(resource(spec))).toContain(expected);
  });

  test("the runner's name is ignored, as in the operator (the runner is named after the MiniCluster)", () => {
    expect(problems(resource({ containers: [{ image: 'a', name: 'Not A DNS Label' }] }))).toEqual([]);
  });

  test('a certificate is never quoted, even when it has the wrong type', () => {
    expect(problems(resource({ flux: { curveCert: { 'secret-key': 'abc' } }, containers: [{ image: 'a' }] })))
      .toEqual(['spec.flux.curveCert = "(certificate)": must be a string, got a mapping']);
  });

  test('an invalid list item is reported at its own index, and rules on later items are not misplaced', () => {
    expect(problems(resource({ containers: [null, 'ubuntu', { image: 'a', runFlux: true }, { image: 'b', name: 'Bad_Name' }] }))).toEqual([
      'spec.containers[0] = null: must be a mapping, got null',
      'spec.containers[1] = "ubuntu": must be a mapping, got a string',
    ]);
  });

  test('the sidecar rule names the resource path of the field', () => {
    expect(problems(resource({ containers: [{ image: 'a', runFlux: true }, { image: 'b', name: 'side', commands: { brokerPre: 'x' } }] })))
      .toEqual(['spec.containers[1].commands.brokerPre = "(set)": only the Flux runner container runs it']);
  });

  test('metadata: name required and checked, namespace checked, unknown keys rejected', () => {
    expect(problems(resource({ containers: [{ image: 'a' }] }, {}))).toEqual(['metadata.name = (unset): required']);
    expect(problems(resource({ containers: [{ image: 'a' }] }, { generateName: 'flux-' })))
      .toEqual([expect.stringMatching(/^metadata\.name = \(unset\): required: generateName is not supported/)]);
    expect(problems(resource({ containers: [{ image: 'a' }] }, { name: 'Flux_Sample', namespace: 'Prod', lables: {} }))).toEqual([
      'metadata.lables = {}: unknown field: not an ObjectMeta field',
      'metadata.name = "Flux_Sample": must be a DNS-1035 label: lower-case letters, digits and -, starting with a letter, at most 63 characters',
      'metadata.namespace = "Prod": must be a DNS-1123 label',
    ]);
  });

  test('wrong kind or apiVersion: one problem, the fields are not checked', () => {
    expect(problems({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: {} })).toEqual([
      'kind = "ConfigMap": must be MiniCluster (apiVersion flux-framework.org/v1alpha2): only Flux Operator MiniCluster resources are converted, not kind "ConfigMap" (apiVersion v1)',
    ]);
    expect(problems({ apiVersion: 'batch/v1', kind: 'MiniCluster', metadata: { name: 'x' }, spec: { bogus: 1 } }))
      .toEqual(['apiVersion = "batch/v1": must be flux-framework.org/v1alpha2']);
    expect(problems(['not', 'a', 'mapping'])).toEqual(['(resource) = ["not","a","mapping"]: must be a mapping (a MiniCluster resource), got a list']);
  });

  test('v1alpha1: a clear message, and what changed for each field it uses', () => {
    const r = { ...resource({ containers: [{ image: 'a', cores: 4, preCommand: 'x', fluxUser: { name: 'flux' } }], fluxRestful: { port: 5000 } }), apiVersion: 'flux-framework.org/v1alpha1' };
    expect(problems(r)).toEqual([
      expect.stringMatching(/^apiVersion = "flux-framework\.org\/v1alpha1": v1alpha1 is not supported \(the operator replaced it with flux-framework\.org\/v1alpha2 in 0\.2\.0\): set apiVersion: flux-framework\.org\/v1alpha2/),
      'spec.containers[0].cores = 4: unknown field: removed in v1alpha2: R covers the node, or exactly the whole-CPU limit in resources.limits.cpu',
      'spec.containers[0].preCommand = "x": unknown field: removed in v1alpha2: use commands.init (first thing in the entrypoint) or commands.pre',
      'spec.containers[0].fluxUser = {"name":"flux"}: unknown field: removed in v1alpha2: Flux runs as the container user (securityContext.runAsUser)',
      'spec.fluxRestful = {"port":5000}: unknown field: removed in v1alpha2 (the Flux RESTful API server): run it yourself, for example as a launcher command',
    ]);
  });
});

describe('fields that differ from the operator', () => {
  test('minimalService and noWaitSocket are accepted with a warning saying why they change nothing', () => {
    const ws = warnings(resource({ flux: { minimalService: true, noWaitSocket: true }, containers: [{ image: 'a' }] }));
    expect(ws).toEqual([
      expect.stringMatching(/^spec\.flux\.minimalService = true: no effect: the headless Service always publishes every broker, ready or not \(publishNotReadyAddresses\)/),
      expect.stringMatching(/^spec\.flux\.noWaitSocket = true: no effect: the operator's socket wait \(goshare-wait-fs\) no longer exists upstream either/),
    ]);
    const service = synth((chart) => miniClusterFromCustomResource(chart, 'x', resource({ flux: { minimalService: true }, containers: [{ image: 'a' }] })))
      .find((d) => d.kind === 'Service');
    expect(service.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true });
  });

  test("flux.container.imagePullSecret (ignored by the operator) becomes a pod pull secret, with a warning", () => {
    // GIVEN
    const r = resource({ flux: { container: { imagePullSecret: 'view-pull' } }, containers: [{ image: 'a', imagePullSecret: 'app-pull', runFlux: true }, { image: 'b', name: 'side' }] });
    // WHEN
    const converted = propsFromCustomResource(r);
    const job = synth((chart) => miniClusterFromCustomResource(chart, 'x', r)).find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job');
    // THEN
    expect(converted.props.containers.map((c) => c.imagePullSecret)).toEqual(['app-pull', 'view-pull']);
    expect(job.spec.template.spec.imagePullSecrets).toEqual([{ name: 'app-pull' }, { name: 'view-pull' }]);
    expect(converted.warnings).toEqual([
      'spec.flux.container.imagePullSecret = "view-pull": added to the pod\'s imagePullSecrets; the operator ignored this field and pulled the view image without it',
    ]);
    // already there: nothing to add; no container free: an error
    expect(propsFromCustomResource(resource({ flux: { container: { imagePullSecret: 's' } }, containers: [{ image: 'a', imagePullSecret: 's' }] })).props.containers[0].imagePullSecret).toBe('s');
    expect(problems(resource({ flux: { container: { imagePullSecret: 's' } }, containers: [{ image: 'a', imagePullSecret: 't' }] })))
      .toEqual([expect.stringMatching(/^spec\.flux\.container\.imagePullSecret = "s": every container already names another imagePullSecret/)]);
    expect(problems(resource({ flux: { container: { imagePullSecret: 'Bad_Secret' } }, containers: [{ image: 'a' }] })))
      .toEqual(['spec.flux.container.imagePullSecret = "Bad_Secret": must be a DNS-1123 subdomain (a Secret name)']);
  });

  test('an emptyDir volume is mounted at its path (the operator always used /dev/shm), with a warning; without a path at /dev/shm', () => {
    const r = resource({ containers: [{ image: 'a', volumes: { scratch: { emptyDir: true, path: '/scratch' }, shm: { emptyDir: true, emptyDirMedium: 'memory' } } }] });
    expect(warnings(r)).toEqual(['spec.containers[0].volumes.scratch.path = "/scratch": mounted here; the operator ignored path and mounted emptyDir volumes at /dev/shm']);
    const pod = synth((chart) => miniClusterFromCustomResource(chart, 'x', r)).find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job').spec.template.spec;
    expect(pod.containers[0].volumeMounts).toEqual(expect.arrayContaining([{ name: 'scratch', mountPath: '/scratch' }, { name: 'shm', mountPath: '/dev/shm' }]));
    expect(pod.volumes).toEqual(expect.arrayContaining([{ name: 'scratch', emptyDir: {} }, { name: 'shm', emptyDir: { medium: 'Memory' } }]));
  });

  test('every Flux path follows flux.container.mountPath (the operator hard-coded /mnt/flux/config in its init script)', () => {
    const docs = synth((chart) => miniClusterFromCustomResource(chart, 'x', resource({ size: 2, flux: { container: { mountPath: '/opt/flux' } }, containers: [{ image: 'a', command: 'b' }] })));
    const configMap = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.labels['app.kubernetes.io/component'] === 'entrypoint');
    const toml = parseToml(configMap.data['broker.toml']) as any;
    expect([toml.bootstrap.curve_cert, toml.resource.path, toml.archive.dbpath])
      .toEqual(['/opt/flux/config/curve/curve.cert', '/opt/flux/config/etc/flux/system/R', '/opt/flux/config/var/lib/flux/job-archive.sqlite']);
    expect(configMap.data['entrypoint.sh']).toContain("mount_path='/opt/flux'");
    expect(JSON.stringify(configMap.data)).not.toMatch(/\/mnt\/flux(?!-handshake|-runner)/);
    const pod = docs.find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job').spec.template.spec;
    for (const c of [...pod.initContainers.filter((i: any) => i.name === 'flux-view'), pod.containers[0]]) {
      expect(c.volumeMounts).toContainEqual({ name: 'flux-view', mountPath: '/opt/flux' });
    }
  });

  test('a configMap volume is named after its key, so configMapName may differ from it (an operator bug)', () => {
    const r = resource({ containers: [{ image: 'a', volumes: { settings: { path: '/etc/app', configMapName: 'app-config' } } }] });
    const pod = synth((chart) => miniClusterFromCustomResource(chart, 'x', r)).find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job').spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'settings', configMap: { name: 'app-config' } });
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: 'settings', mountPath: '/etc/app' });
  });

  test('a sidecar with ports gets no ClusterIP Service (the operator made one): a warning says so', () => {
    const r = resource({ containers: [{ image: 'a', runFlux: true }, { image: 'nginx', name: 'nginx', noWrapEntrypoint: true, ports: [80] }] });
    expect(warnings(r)).toEqual([expect.stringMatching(/^spec\.containers\[1\]\.ports = \[80\]: no Service 'nginx': the operator also created a ClusterIP Service/)]);
    expect(synth((chart) => miniClusterFromCustomResource(chart, 'x', r)).filter((d) => d.kind === 'Service').map((d) => d.metadata.name)).toEqual(['flux-sample', 'flux-sample-rendezvous']);
  });

  test('flux.curveCert: checked, never echoed, and stored in the Secret the pods mount', () => {
    // GIVEN
    const cert = createCurveCert({ name: 'flux-sample' });
    const r = resource({ flux: { curveCert: cert }, containers: [{ image: 'a' }] });
    // WHEN
    const docs = synth((chart) => miniClusterFromCustomResource(chart, 'x', r));
    // THEN
    const secret = docs.find((d) => d.kind === 'Secret');
    expect(secret.metadata).toMatchObject({ name: 'flux-sample-curve', namespace: 'default' });
    expect(Buffer.from(secret.data['curve.cert'], 'base64').toString('utf8')).toBe(cert);
    const pod = docs.find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job').spec.template.spec;
    expect(pod.volumes).toContainEqual(expect.objectContaining({ secret: expect.objectContaining({ secretName: 'flux-sample-curve' }) }));
    expect(docs.filter((d) => d.kind === 'ConfigMap').map((d) => JSON.stringify(d))).not.toContainEqual(expect.stringContaining('secret-key'));
    expectValidManifests(docs);

    const broken = cert.replace(/secret-key = "(.)/, 'secret-key = "$1$1').replace(/secret-key = "(.{40})./, 'secret-key = "$1');
    const bad = problems(resource({ flux: { curveCert: broken }, containers: [{ image: 'a' }] }));
    expect(bad.length).toBeGreaterThan(0);
    for (const line of bad) expect(line).toMatch(/^spec\.flux\.curveCert = "\(certificate\)": /);
    expect(bad.join('\n')).not.toContain(/secret-key = "(.{40})"/.exec(broken)![1]);
  });

  test('flux.brokerConfig: checked against Flux and against this cluster (certificate path, R path, Service and namespace)', () => {
    // GIVEN an operator-era config
    const toml = [
      '[resource]', 'path = "/mnt/flux/view/etc/flux/system/R"', '',
      '[bootstrap]', 'curve_cert = "/mnt/flux/view/curve/curve.cert"', 'default_port = 8050', 'default_bind = "tcp://eth0:%p"',
      'default_connect = "tcp://%h.flux-service.other.svc.cluster.local:%p"', 'hosts = [{host="flux-sample-[0-1]"}]', '',
    ].join('\n');
    // THEN
    expect(problems(resource({ size: 2, flux: { brokerConfig: toml }, containers: [{ image: 'a' }] }))).toEqual([
      'spec.flux.brokerConfig = "(toml)": [bootstrap] curve_cert = "/mnt/flux/view/curve/curve.cert": must be /mnt/flux/config/curve/curve.cert, where the entrypoint puts the certificate',
      'spec.flux.brokerConfig = "(toml)": [resource] path = "/mnt/flux/view/etc/flux/system/R": must be /mnt/flux/config/etc/flux/system/R, where the entrypoint writes R',
      "spec.flux.brokerConfig = \"(toml)\": [bootstrap] default_connect = \"tcp://%h.flux-service.other.svc.cluster.local:%p\": names Service 'flux-service', but this cluster's headless Service is 'flux-sample' (network.headlessName; the operator's default was 'flux-service' until 6d5e432a), so brokers would not resolve their peers",
      "spec.flux.brokerConfig = \"(toml)\": [bootstrap] default_connect = \"tcp://%h.flux-service.other.svc.cluster.local:%p\": names namespace 'other', but the cluster runs in 'default'",
    ]);
    // a config that fits is used verbatim (re-rendered canonically)
    const good = toml.replace(/\/mnt\/flux\/view/g, '/mnt/flux/config').replace('flux-service.other', 'flux-sample.default');
    const docs = synth((chart) => miniClusterFromCustomResource(chart, 'x', resource({ size: 2, flux: { brokerConfig: good }, containers: [{ image: 'a' }] })));
    expect(parseToml(docs.find((d) => d.kind === 'ConfigMap' && d.metadata.labels['app.kubernetes.io/component'] === 'entrypoint').data['broker.toml'])).toEqual(parseToml(good));
    // and one Flux would reject is reported with Flux's rule
    expect(problems(resource({ size: 2, flux: { brokerConfig: good.replace('default_port', 'port') }, containers: [{ image: 'a' }] })))
      .toContainEqual(expect.stringMatching(/^spec\.flux\.brokerConfig = "\(toml\)": \[bootstrap\] port: unknown key/));
  });
});

import { Chart, Testing } from 'cdk8s';
import { CertificateSource, MiniCluster, MiniClusterProps, PodSecurityLevel } from '../lib';
import { createCurveCert } from '../lib/cert';
import { expectValidManifests } from './support/k8s-validate';
import { checkPodSecurity, podSecurityReport, podTemplates, PssLevel } from './support/pod-security-standards';

const hello: MiniClusterProps = { size: 4, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] };

/** Prop combinations that every level must accept, each meant to reach a different part of the pod. */
const CONFIGURATIONS: [string, MiniClusterProps][] = [
  ['hello world, generated certificate', hello],
  ['a sidecar with a port, every non-host volume kind, an existing certificate Secret', {
    size: 2,
    certificate: CertificateSource.fromExistingSecret('shared-curve'),
    containers: [
      {
        image: 'ghcr.io/rse-ops/lammps-mpich:tag-mamba',
        runFlux: true,
        command: 'lmp -in in.reaxc.hns',
        volumes: {
          data: { path: '/data', claimName: 'data' },
          cfg: { path: '/cfg', configMapName: 'cfg' },
          creds: { path: '/creds', secretName: 'creds', readOnly: true },
          shm: { emptyDir: true, emptyDirMedium: 'memory' },
          bucket: { path: '/bucket', csiDriver: 'gcsfuse.csi.storage.gke.io' },
        },
      },
      { image: 'nginx:1.27', name: 'web', ports: [8080] },
    ],
  }],
  ['interactive elastic cluster, Kubernetes 1.27 (OnFailure), view disabled', {
    size: 2, maxSize: 8, interactive: true, kubernetesVersion: '1.27',
    flux: { container: { disable: true } },
    containers: [{ image: 'fluxrm/flux-sched:noble' }],
  }],
  ['insecure inline certificate, user security settings the levels allow', {
    certificate: CertificateSource.insecureInline(createCurveCert({ name: 'flux-sample' })),
    pod: { runAsUser: 2000, runAsGroup: 3000, fsGroup: 4000 },
    containers: [{
      image: 'ubuntu:noble', command: 'hostname',
      securityContext: { runAsNonRoot: true, readOnlyRootFilesystem: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['NET_RAW'] } },
    }],
  }],
  ['hashed Job name, NetworkPolicy, Kueue', {
    ...hello, gitOps: { hashJobName: true, fluxCd: {} }, networkPolicy: { fluxPortsOnly: true }, queueName: 'hpc',
  }],
];

function synth(props: MiniClusterProps, name = 'flux-sample') {
  const chart = new Chart(Testing.app(), 'test');
  const cluster = new MiniCluster(chart, name, props);
  const docs = Testing.synth(chart);
  return { cluster, docs, job: docs.find((d) => d.kind === 'Job' && d.metadata.name === cluster.jobName) };
}

function errorOf(props: MiniClusterProps): string {
  try {
    synth(props);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a validation error');
}

const LEVELS: [PodSecurityLevel, PssLevel][] = [[PodSecurityLevel.BASELINE, 'baseline'], [PodSecurityLevel.RESTRICTED, 'restricted']];

describe('Pod Security Standards checker (test support)', () => {
  test('flags every control on a pod that breaks them all, and nothing on a hardened pod', () => {
    // GIVEN a pod that breaks every control once
    const bad = {
      metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' } },
      spec: {
        hostNetwork: true,
        securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }], seLinuxOptions: { user: 'root' }, runAsNonRoot: false, runAsUser: 0 },
        volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'n', nfs: { server: 's', path: '/' } }],
        containers: [{
          name: 'app', image: 'x',
          ports: [{ containerPort: 80, hostPort: 80 }],
          startupProbe: { tcpSocket: { port: 80, host: '10.0.0.1' } },
          securityContext: {
            privileged: true, capabilities: { add: ['SYS_ADMIN'] }, procMount: 'Unmasked', seccompProfile: { type: 'Unconfined' },
            windowsOptions: { hostProcess: true }, appArmorProfile: { type: 'Unconfined' }, allowPrivilegeEscalation: true,
          },
        }],
      },
    };
    // THEN baseline names its controls, and restricted adds its own
    const controls = (level: PssLevel) => [...new Set(checkPodSecurity(bad, level).map((v) => v.control))].sort();
    expect(controls('baseline')).toEqual(['/proc Mount Type', 'AppArmor', 'Capabilities', 'Host Namespaces', 'Host Ports',
      'Host Probes / Lifecycle Hooks', 'HostPath Volumes', 'HostProcess', 'Privileged Containers', 'SELinux', 'Seccomp', 'Sysctls']);
    expect(controls('restricted')).toEqual([...controls('baseline'), 'Privilege Escalation', 'Running as Non-root',
      'Running as Non-root user', 'Volume Types'].sort());
    expect(checkPodSecurity(bad, 'privileged')).toEqual([]);
    // AND a pod set up as the restricted level asks passes both levels
    const good = {
      spec: {
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        volumes: [{ name: 'c', configMap: { name: 'c' } }],
        containers: [{ name: 'app', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } }],
      },
    };
    expect(checkPodSecurity(good, 'baseline')).toEqual([]);
    expect(checkPodSecurity(good, 'restricted')).toEqual([]);
  });

  test('a container may leave runAsNonRoot and seccomp to the pod, but not contradict it', () => {
    const pod = (container: object, podSc: object = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }) => ({
      spec: { securityContext: podSc, containers: [{ name: 'a', image: 'x', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, ...container } }] },
    });
    expect(checkPodSecurity(pod({}), 'restricted')).toEqual([]);
    expect(checkPodSecurity(pod({ runAsNonRoot: false }), 'restricted').map((v) => v.control)).toEqual(['Running as Non-root']);
    expect(checkPodSecurity(pod({}, {}), 'restricted').map((v) => v.control)).toEqual(['Running as Non-root', 'Seccomp']);
    expect(checkPodSecurity(pod({ runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } }, {}), 'restricted')).toEqual([]);
  });
});

describe('podSecurity', () => {
  test.each(CONFIGURATIONS)('%s: every pod template meets each level, and the output is schema-valid', (_, props) => {
    for (const [level, pss] of LEVELS) {
      // WHEN the cluster is synthesized at the level
      const { docs } = synth({ ...props, podSecurity: level });
      // THEN every pod template (the MiniCluster Job's and the certificate Job's) meets it
      expect(podTemplates(docs).length).toBeGreaterThanOrEqual(1);
      expect(podSecurityReport(docs, pss)).toEqual([]);
      expectValidManifests(docs, { kubernetesVersion: props.kubernetesVersion ?? '1.34' });
    }
  });

  test('the default level is baseline: the output is as configured, and does not meet restricted', () => {
    // GIVEN the default level
    const { docs, job } = synth(hello);
    // THEN the pods meet baseline but the MiniCluster's Job does not meet restricted (nothing is hardened),
    expect(podSecurityReport(docs, 'baseline')).toEqual([]);
    const report = podSecurityReport(docs, 'restricted');
    expect(report).toEqual(expect.arrayContaining([
      'Job/flux-sample: Privilege Escalation: spec.initContainers[0].securityContext.allowPrivilegeEscalation = undefined',
      'Job/flux-sample: Running as Non-root: spec.containers[0].securityContext.runAsNonRoot = undefined',
      'Job/flux-sample: Seccomp: spec.containers[0].securityContext.seccompProfile.type = undefined',
    ]));
    // while the certificate Job is restricted whatever the level
    expect(report.filter((l) => l.startsWith('Job/flux-sample-curve-cert'))).toEqual([]);
    expect(job.spec.template.spec.securityContext).toBeUndefined();
    expect(job.spec.template.spec.containers[0].securityContext).toBeUndefined();
  });

  test('restricted: non-root user 1000 with fsGroup for the 0400 certificate, RuntimeDefault seccomp, hardened containers with a writable /tmp', () => {
    // WHEN
    const { job } = synth({ ...hello, podSecurity: PodSecurityLevel.RESTRICTED });
    const pod = job.spec.template.spec;
    // THEN the pod runs as 1000:1000 and the kubelet gives the certificate file group read for group 1000
    expect(pod.securityContext).toEqual({
      runAsUser: 1000, runAsGroup: 1000, runAsNonRoot: true, fsGroup: 1000, fsGroupChangePolicy: 'OnRootMismatch',
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.volumes.find((v: any) => v.name === 'flux-curve-cert').secret.defaultMode).toBe(0o400);
    // AND every container is hardened, with /tmp, the view, /opt/software and the runner's exit-file
    // directory (a subPath of the handshake's emptyDir) writable as emptyDirs
    for (const c of [...pod.initContainers, ...pod.containers]) {
      expect(c.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true });
      expect(c.volumeMounts).toContainEqual({ name: 'flux-tmp', mountPath: '/tmp' });
    }
    const emptyDirs = new Set(pod.volumes.filter((v: any) => v.emptyDir).map((v: any) => v.name));
    const runnerWritable = pod.containers[0].volumeMounts.filter((m: any) => !m.readOnly);
    expect(runnerWritable.map((m: any) => m.mountPath).sort()).toEqual(['/mnt/flux', '/mnt/flux-runner', '/opt/software', '/tmp']);
    for (const m of runnerWritable) expect(emptyDirs).toContain(m.name);
    expect(pod.volumes.filter((v: any) => v.name === 'flux-tmp')).toEqual([{ name: 'flux-tmp', emptyDir: {} }]);
  });

  test('restricted keeps what the user chose within the level, and a /tmp volume of their own', () => {
    const { job } = synth({
      size: 2,
      podSecurity: PodSecurityLevel.RESTRICTED,
      pod: { runAsUser: 2000, fsGroup: 4000 },
      containers: [
        { image: 'a', runFlux: true, securityContext: { readOnlyRootFilesystem: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['NET_RAW'] } } },
        { image: 'b', name: 'b', volumes: { scratch: { path: '/tmp', emptyDir: true } } },
      ],
    });
    const pod = job.spec.template.spec;
    expect(pod.securityContext).toEqual({ runAsUser: 2000, runAsGroup: 2000, runAsNonRoot: true, fsGroup: 4000, seccompProfile: { type: 'RuntimeDefault' } });
    const [runner, b] = pod.containers;
    expect(runner.securityContext).toEqual({
      allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL', 'NET_RAW'] }, readOnlyRootFilesystem: false,
    });
    expect(runner.volumeMounts.some((m: any) => m.mountPath === '/tmp')).toBe(false);
    expect(b.volumeMounts.filter((m: any) => m.mountPath === '/tmp')).toEqual([{ name: 'scratch', mountPath: '/tmp' }]);
  });

  test('a non-root pod.runAsUser at baseline gets an fsGroup, so the certificate stays readable', () => {
    expect(synth({ ...hello, pod: { runAsUser: 1234 } }).job.spec.template.spec.securityContext)
      .toEqual({ runAsUser: 1234, fsGroup: 1234, fsGroupChangePolicy: 'OnRootMismatch' });
    expect(synth({ ...hello, pod: { runAsUser: 1234, runAsGroup: 5, fsGroup: 6 } }).job.spec.template.spec.securityContext)
      .toEqual({ runAsUser: 1234, runAsGroup: 5, fsGroup: 6 });
    expect(synth({ ...hello, pod: { runAsUser: 0 } }).job.spec.template.spec.securityContext).toEqual({ runAsUser: 0 });
  });

  test('privileged: hostPath, host namespaces, privileged containers and any capability pass through unchecked', () => {
    const { docs, job } = synth({
      podSecurity: PodSecurityLevel.PRIVILEGED,
      pod: { hostPID: true, hostIPC: true },
      containers: [{
        image: 'ghcr.io/rse-ops/singularity:tag-mamba', command: 'singularity exec ubuntu.sif hostname',
        securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } },
        volumes: { data: { path: '/data', hostPath: '/data' } },
      }],
    });
    expect(job.spec.template.spec.containers[0].securityContext).toEqual({ privileged: true, capabilities: { add: ['SYS_ADMIN'] } });
    expect(podSecurityReport(docs, 'baseline').sort()).toEqual([
      'Job/flux-sample: Capabilities: spec.containers[0].securityContext.capabilities.add = "SYS_ADMIN"',
      'Job/flux-sample: Host Namespaces: spec.hostIPC = true',
      'Job/flux-sample: Host Namespaces: spec.hostPID = true',
      'Job/flux-sample: HostPath Volumes: spec.volumes[4].hostPath = {"path":"/data","type":"Directory"}',
      'Job/flux-sample: Privileged Containers: spec.containers[0].securityContext.privileged = true',
    ]);
  });

  test('baseline rejects, in one error, every prop its pods could not meet', () => {
    const message = errorOf({
      pod: { hostPID: true, hostIPC: true, annotations: { 'container.apparmor.security.beta.kubernetes.io/flux-sample': 'unconfined' } },
      flux: { container: { securityContext: { privileged: true } } },
      containers: [{
        image: 'ubuntu:noble',
        securityContext: { privileged: true, capabilities: { add: ['CHOWN', 'SYS_ADMIN', 'NET_RAW'] } },
        volumes: { data: { path: '/data', hostPath: '/data' } },
      }],
    });
    expect(message).toMatch(/^invalid MiniCluster 'flux-sample' \(7 problems\):/);
    const lines = message.split('\n').slice(1);
    expect(lines).toEqual([
      '  - pod.hostPID = true: sharing the host PID namespace is not allowed at podSecurity baseline (Pod Security Standards: Host Namespaces); use PodSecurityLevel.PRIVILEGED if the pods need it',
      '  - pod.hostIPC = true: sharing the host IPC namespace is not allowed at podSecurity baseline (Pod Security Standards: Host Namespaces); use PodSecurityLevel.PRIVILEGED if the pods need it',
      expect.stringMatching(/^ {2}- pod\.annotations\.container\.apparmor\.security\.beta\.kubernetes\.io\/flux-sample = "unconfined": an AppArmor profile other than 'runtime\/default' or 'localhost\/\*' is not allowed at podSecurity baseline \(Pod Security Standards: AppArmor\)/),
      expect.stringMatching(/^ {2}- flux\.container\.securityContext\.privileged = true: a privileged container is not allowed at podSecurity baseline \(Pod Security Standards: Privileged Containers\)/),
      expect.stringMatching(/^ {2}- containers\[0\]\.securityContext\.privileged = true: a privileged container is not allowed/),
      expect.stringMatching(/^ {2}- containers\[0\]\.securityContext\.capabilities\.add = \["SYS_ADMIN","NET_RAW"\]: adding capabilities other than AUDIT_WRITE, CHOWN, .* is not allowed at podSecurity baseline \(Pod Security Standards: Capabilities\)/),
      expect.stringMatching(/^ {2}- containers\[0\]\.volumes\.data\.hostPath = "\/data": a hostPath volume is not allowed at podSecurity baseline \(Pod Security Standards: HostPath Volumes\); use PodSecurityLevel\.PRIVILEGED/),
    ]);
  });

  test('restricted also rejects root, privilege escalation and capabilities beyond NET_BIND_SERVICE, with the other props\' problems', () => {
    const message = errorOf({
      size: 0,
      podSecurity: PodSecurityLevel.RESTRICTED,
      pod: { runAsUser: 0 },
      containers: [{
        image: 'ubuntu:noble',
        securityContext: { runAsUser: 0, runAsNonRoot: false, allowPrivilegeEscalation: true, capabilities: { add: ['CHOWN'] } },
      }],
    });
    expect(message).toMatch(/\(6 problems\)/);
    expect(message).toContain('- size = 0: must be an integer from 1 to 100000');
    expect(message).toContain('- pod.runAsUser = 0: user 0 (root) is not allowed at podSecurity restricted (Pod Security Standards: Running as Non-root user); use PodSecurityLevel.BASELINE or PRIVILEGED if the pods need it');
    expect(message).toContain('- containers[0].securityContext.capabilities.add = ["CHOWN"]: adding capabilities other than NET_BIND_SERVICE is not allowed at podSecurity restricted');
    expect(message).toContain('- containers[0].securityContext.allowPrivilegeEscalation = true: privilege escalation is not allowed at podSecurity restricted');
    expect(message).toContain('- containers[0].securityContext.runAsNonRoot = false: running as root is not allowed at podSecurity restricted');
    expect(message).toContain('- containers[0].securityContext.runAsUser = 0: user 0 (root) is not allowed at podSecurity restricted');
  });

  test('every container present is hardened, including ones another builder adds to the pod', () => {
    // GIVEN a pod spec with a native sidecar and a plain init container besides the app container
    const { securePodSpec } = jest.requireActual('../lib/constructs/private/pod-security');
    const pod = {
      initContainers: [
        { name: 'handshake', image: 'node', restartPolicy: 'Always', ports: [{ containerPort: 8060 }], securityContext: { runAsUser: 1000 } },
        { name: 'init', image: 'busybox', volumeMounts: [{ name: 'v', mountPath: '/v' }] },
      ],
      containers: [{ name: 'app', image: 'x' }],
      volumes: [{ name: 'v', emptyDir: {} }],
    };
    // WHEN it is secured for restricted
    const secured = securePodSpec(pod, { level: PodSecurityLevel.RESTRICTED });
    // THEN it meets restricted, keeps each container's own settings, and the input is unchanged
    expect(checkPodSecurity({ spec: secured }, 'restricted')).toEqual([]);
    expect(secured.initContainers[0].securityContext).toEqual({
      runAsUser: 1000, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true,
    });
    expect(secured.initContainers[1].volumeMounts).toEqual([{ name: 'v', mountPath: '/v' }, { name: 'flux-tmp', mountPath: '/tmp' }]);
    expect(secured.volumes).toEqual([{ name: 'v', emptyDir: {} }, { name: 'flux-tmp', emptyDir: {} }]);
    expect(pod.initContainers[0].securityContext).toEqual({ runAsUser: 1000 });
  });

  test('a user volume cannot take the name of the /tmp volume', () => {
    expect(errorOf({ containers: [{ image: 'a', volumes: { 'flux-tmp': { emptyDir: true } } }] })).toContain('volumes.flux-tmp = "flux-tmp": volume name is reserved');
  });
});

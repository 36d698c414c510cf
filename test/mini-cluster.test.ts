import { parse as parseToml } from 'smol-toml';
import { Chart, Testing } from 'cdk8s';
import { parse } from 'smol-toml';
import { CertificateSource, FluxViewSource, HandshakeMode, ImagePullPolicy, MiniCluster, MiniClusterProps, PodRestartPolicy, PodSecurityLevel } from '../lib';
import { createCurveCert } from '../lib/cert';
import { expectValidManifests } from './support/k8s-validate';

const hello: MiniClusterProps = {
  size: 4,
  logging: { quiet: true },
  containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }],
};

function synth(props: MiniClusterProps = hello, name = 'flux-sample', chartProps = {}) {
  const chart = new Chart(Testing.app(), 'test', chartProps);
  const cluster = new MiniCluster(chart, name, props);
  const docs = Testing.synth(chart);
  const find = (kind: string, objName?: string) => docs.find((d) => d.kind === kind && (objName === undefined || d.metadata.name === objName));
  return { cluster, docs, job: find('Job', cluster.jobName), service: find('Service', cluster.serviceName), configMap: find('ConfigMap', cluster.entrypointConfigMapName) };
}

/** The pod's init container `name`. */
function initContainer(job: any, name: string): any {
  const found = job.spec.template.spec.initContainers.find((c: any) => c.name === name);
  if (!found) throw new Error(`no init container ${name}`);
  return found;
}

describe('MiniCluster', () => {
  test('hello world: an Indexed Job, a headless Service and the entrypoint ConfigMap', () => {
    // WHEN
    const { cluster, docs, job, service, configMap } = synth();
    // THEN
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(expect.arrayContaining(['ConfigMap/flux-sample-entrypoint', 'Job/flux-sample', 'Service/flux-sample']));
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 4, parallelism: 4, backoffLimit: 3, activeDeadlineSeconds: 31500000 });
    const pod = job.spec.template.spec;
    expect(pod.subdomain).toBe('flux-sample');
    expect(pod.setHostnameAsFQDN).toBe(false);
    expect(pod.hostname).toBeUndefined();
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(service.spec).toEqual({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { 'flux-framework.org/minicluster': 'flux-sample' },
      ports: [{ name: 'flux', port: 8050, protocol: 'TCP', targetPort: 8050 }],
    });
    // the selector matches the pod labels, and only this cluster's (its own label)
    for (const [k, v] of Object.entries(service.spec.selector)) expect(job.spec.template.metadata.labels[k]).toBe(v);
    expect(cluster.hostlist).toBe('flux-sample-[0-3]');
    expect(cluster.hostname(3)).toBe('flux-sample-3');
    expect(cluster.fqdn(0)).toBe('flux-sample-0.flux-sample.default.svc.cluster.local');
    expect(() => cluster.hostname(4)).toThrow(/outside 0..3/);
    const toml = parse(configMap.data['broker.toml']) as any;
    expect(toml.bootstrap.hosts).toEqual([{ host: 'flux-sample-[0-3]' }]);
    // (the handshake program is in a ConfigMap shared by the namespace's clusters: test/runtime-programs.test.ts)
    expect(Object.keys(configMap.data).sort()).toEqual(['broker.toml', 'entrypoint.sh', 'flux-init.sh', 'flux-ready.sh', 'lead-program.sh', 'worker-rc.sh']);
    // Ready means connected: the handshake sidecar answers the runner's probe, an httpGet the kubelet
    // runs itself (docs/day2.md), with the lead's 3 children; the sidecar sees the lead's socket
    const runner = job.spec.template.spec.containers[0];
    expect(runner.readinessProbe).toEqual({ httpGet: { path: '/readyz', port: 8061 }, periodSeconds: 5, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 2 });
    const sidecar = job.spec.template.spec.initContainers.find((c: any) => c.name === 'flux-handshake');
    expect(sidecar.command).toEqual(expect.arrayContaining(['--ready-port=8061', '--ready-lead-children=3', '--ready-socket=/mnt/flux/config/run/flux/local']));
    expect(sidecar.ports).toEqual([{ name: 'handshake', containerPort: 8060, protocol: 'TCP' }]);
    expect(sidecar.volumeMounts).toContainEqual({ name: 'flux-view', mountPath: '/mnt/flux', readOnly: true });
    expect(configMap.data['flux-ready.sh']).toContain("lead_children='3'");
    expectValidManifests(docs, { kubernetesVersion: '1.34' });
  });

  test('GIVEN no sidecar to answer it (Kubernetes 1.28, or the handshake off) THEN the readiness probe runs the script in the runner', () => {
    const execProbe = { exec: { command: ['/bin/sh', '/flux_operator/flux-ready.sh'] }, periodSeconds: 5, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 2 };
    for (const props of [{ ...hello, kubernetesVersion: '1.28' }, { ...hello, handshake: { enabled: false } }]) {
      const { job } = synth(props);
      expect(job.spec.template.spec.containers[0].readinessProbe).toEqual(execProbe);
      for (const c of job.spec.template.spec.initContainers ?? []) expect(JSON.stringify(c)).not.toContain('ready-port');
    }
    // AND a chosen port reaches both ends
    const { job } = synth({ ...hello, handshake: { readyPort: 9000 } });
    expect(job.spec.template.spec.containers[0].readinessProbe.httpGet).toEqual({ path: '/readyz', port: 9000 });
    expect(initContainer(job, 'flux-handshake').command).toContain('--ready-port=9000');
  });

  test('broker.toml is in the entrypoint ConfigMap once; the init container copies that key from its mount', () => {
    // WHEN
    const { job, configMap } = synth();
    // THEN only the broker.toml key holds the text
    const toml: string = configMap.data['broker.toml'];
    expect(Object.entries(configMap.data).filter(([, text]) => (text as string).includes(toml)).map(([key]) => key)).toEqual(['broker.toml']);
    // AND flux-init.sh reads it where the init container mounts this ConfigMap
    const init = initContainer(job, 'flux-view');
    const mount = init.volumeMounts.find((m: any) => m.name === 'flux-entrypoint');
    const volume = job.spec.template.spec.volumes.find((v: any) => v.name === 'flux-entrypoint');
    expect(volume.configMap.name).toBe(configMap.metadata.name);
    expect(configMap.data['flux-init.sh']).toContain(`broker_toml_source='${mount.mountPath}/broker.toml'\n`);
  });

  test('the runner is named after the cluster, runs the entrypoint and mounts view, scripts and certificate', () => {
    const { job, configMap } = synth();
    const pod = job.spec.template.spec;
    const runner = pod.containers[0];
    expect(runner.name).toBe('flux-sample');
    expect(runner.command).toEqual(['/bin/bash', '/flux_operator/entrypoint.sh']);
    expect(runner.volumeMounts).toEqual([
      { name: 'flux-view', mountPath: '/mnt/flux' },
      { name: 'flux-entrypoint', mountPath: '/flux_operator', readOnly: true },
      { name: 'flux-curve-cert', mountPath: '/etc/flux-curve', readOnly: true },
      { name: 'flux-software', mountPath: '/opt/software' },
      { name: 'flux-handshake', mountPath: '/mnt/flux-handshake', readOnly: true },
      { name: 'flux-handshake', mountPath: '/mnt/flux-runner', subPath: 'runner' },
    ]);
    // AND the handshake sidecar watches for the file the runner leaves there as it exits
    expect(initContainer(job, 'flux-handshake').command).toContain('--runner-exit-file=/mnt/flux-handshake/runner/exited');
    expect(configMap.data['entrypoint.sh']).toContain(`runner_exit_file='/mnt/flux-runner/exited'`);
    // AND the handshake sidecar starts first, so it runs while the view init container copies Flux
    expect(pod.initContainers.map((c: any) => c.name)).toEqual(['flux-handshake', 'flux-view']);
    expect(initContainer(job, 'flux-view').image).toBe('ghcr.io/converged-computing/flux-view-ubuntu:tag-noble');
    // AND the view init container copies the install tree straight into the volume the runner mounts
    // at /opt/software (one copy; flux-init.sh writes <mountPath>/software)
    expect(initContainer(job, 'flux-view').volumeMounts).toEqual([
      { name: 'flux-view', mountPath: '/mnt/flux' },
      { name: 'flux-entrypoint', mountPath: '/flux_operator', readOnly: true },
      { name: 'flux-software', mountPath: '/mnt/flux/software' },
    ]);
    const cert = pod.volumes.find((v: any) => v.name === 'flux-curve-cert');
    expect(cert.secret).toEqual({ secretName: 'flux-sample-curve', defaultMode: 0o400, items: [{ key: 'curve.cert', path: 'curve.cert' }] });
    // every mount refers to a volume of the pod
    const volumeNames = new Set(pod.volumes.map((v: any) => v.name));
    for (const c of [...pod.initContainers, ...pod.containers]) for (const m of c.volumeMounts) expect(volumeNames).toContain(m.name);
  });

  test('inMemory: the view tree and the install tree are copied into memory, Flux state stays on disk', () => {
    // WHEN
    const { docs, job } = synth({ ...hello, containers: [{ image: 'ubuntu:noble', command: 'hostname', runFlux: true }, { image: 'nginx', name: 'web', sidecar: true }], flux: { container: { inMemory: true } } });
    // THEN both copy targets are memory-backed emptyDirs; the view volume (config, state) is not
    const pod = job.spec.template.spec;
    const volume = (name: string) => pod.volumes.find((v: any) => v.name === name);
    expect(volume('flux-software').emptyDir).toEqual({ medium: 'Memory' });
    expect(volume('flux-view-tree').emptyDir).toEqual({ medium: 'Memory' });
    expect(volume('flux-view').emptyDir).toEqual({});
    // AND every container that mounts the view mounts the tree at <mountPath>/view, after the view
    const users = [initContainer(job, 'flux-view'), ...pod.containers, initContainer(job, 'web')];
    for (const c of users) {
      const names = c.volumeMounts.map((m: any) => m.name);
      expect(names.indexOf('flux-view-tree')).toBe(names.indexOf('flux-view') + 1);
      expect(c.volumeMounts[names.indexOf('flux-view-tree')]).toEqual({ name: 'flux-view-tree', mountPath: '/mnt/flux/view' });
    }
    // AND the scripts put the view where the tree is mounted
    expect(initContainer(job, 'flux-view').volumeMounts.find((m: any) => m.name === 'flux-software').mountPath).toBe('/mnt/flux/software');
    expectValidManifests(docs, { kubernetesVersion: '1.34' });
  });

  test('GIVEN a [systemd] table added to the broker config WHEN synthesized THEN the workers run flux-modprobe (no worker-rc.sh)', () => {
    // GIVEN systemd enabled, which makes flux-modprobe load the sdbus modules on every rank
    const chart = new Chart(Testing.app(), 'test');
    const cluster = new MiniCluster(chart, 'flux-sample', hello);
    cluster.brokerConfig.addTable('systemd', { enable: true });
    // WHEN
    const configMap = Testing.synth(chart).find((d) => d.kind === 'ConfigMap' && d.metadata.name === cluster.entrypointConfigMapName);
    // THEN worker-rc.sh is not rendered and the entrypoint never swaps the workers' rc1 and rc3
    expect(Object.keys(configMap.data)).not.toContain('worker-rc.sh');
    expect(configMap.data['entrypoint.sh']).not.toContain('broker.rc1_path');
    // AND without it, the workers' rc is swapped on a verified install
    expect(synth().configMap.data['entrypoint.sh']).toContain('-Sbroker.rc1_path=bash $worker_rc_script 1 $plan');
  });

  describe('source image-volume: the view image mounted read-only, nothing copied', () => {
    const imageVolume = (more: Partial<MiniClusterProps> = {}, view: object = {}): MiniClusterProps => ({
      ...hello, kubernetesVersion: '1.35', ...more, flux: { container: { source: FluxViewSource.IMAGE_VOLUME, ...view } },
    });

    test('GIVEN a runner and a sidecar WHEN synthesized THEN one image volume, mounted by subPath at /opt/software and /opt/views in each', () => {
      // WHEN
      const { docs, job, configMap } = synth(imageVolume({ containers: [{ image: 'ubuntu:noble', command: 'hostname', runFlux: true }, { image: 'nginx', name: 'web', sidecar: true }] }, { pullAlways: true }));
      const pod = job.spec.template.spec;
      // THEN the view image is a volume, and neither copy target exists
      expect(pod.volumes.find((v: any) => v.name === 'flux-view-image')).toEqual({
        name: 'flux-view-image', image: { reference: 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble', pullPolicy: 'Always' },
      });
      expect(pod.volumes.map((v: any) => v.name)).not.toEqual(expect.arrayContaining(['flux-software']));
      expect(pod.volumes.map((v: any) => v.name)).not.toContain('flux-view-tree');
      // AND the Flux containers mount its install tree and views read-only where the view's links point,
      // and the whole volume where the runner's check looks
      for (const c of [...pod.containers, initContainer(job, 'web')]) {
        expect(c.volumeMounts.filter((m: any) => m.name === 'flux-view-image')).toEqual([
          { name: 'flux-view-image', mountPath: '/opt/software', subPath: 'opt/software', readOnly: true },
          { name: 'flux-view-image', mountPath: '/opt/views', subPath: 'opt/views', readOnly: true },
          { name: 'flux-view-image', mountPath: '/mnt/flux-view-image', readOnly: true },
        ]);
      }
      // AND there is no flux view init container: the runner checks the volume (below), then runs
      // flux-init.sh, which only writes the config and links <mountPath>/view to the mounted view
      // (nor a handshake sidecar: the runner runs the handshake, below)
      expect(pod.initContainers.map((c: any) => c.name)).toEqual(['web']);
      const init = configMap.data['flux-init.sh'];
      expect(init).toContain("image_view='/opt/views/view'");
      expect(init).toContain('ln -sfn -- "$image_view" "$mount_path/view"');
      expect(init).not.toContain('copy_tree');
      expect(configMap.data['entrypoint.sh']).toContain("init_script='/flux_operator/flux-init.sh'");
      expectValidManifests(docs, { kubernetesVersion: '1.35' });
    });

    test('GIVEN a flux-views image WHEN synthesized THEN the runner checks the volume first and its exit code fails the Job', () => {
      // GIVEN the default view image, a flux-views one
      const { docs, job, configMap } = synth(imageVolume());
      // THEN no init container checks it: the runner's entrypoint runs the check before flux-init.sh
      expect(job.spec.template.spec.initContainers).toBeUndefined();
      const entrypoint = configMap.data['entrypoint.sh'];
      expect(entrypoint).toContain("view_check_script='/flux_operator/flux-view-check.sh'");
      const check = entrypoint.indexOf('/bin/sh "$view_check_script" || exit');
      expect(check).toBeGreaterThan(0);
      expect(check).toBeLessThan(entrypoint.indexOf('bash "$init_script" || exit'));
      // AND the script names the image and the exit code the Job fails on
      expect(configMap.data['flux-view-check.sh']).toContain("image='ghcr.io/converged-computing/flux-view-ubuntu:tag-noble'");
      expect(configMap.data['flux-view-check.sh']).toContain("missing_exit='78'");
      // AND that code of the runner fails the Job at once, after the evictions', stopped pods' and handshake's rules
      expect(job.spec.podFailurePolicy.rules.map((r: any) => `${r.action} ${r.onExitCodes?.containerName ?? ''}`.trim())).toEqual(['Ignore', 'Ignore flux-sample', 'FailJob flux-sample', 'FailJob flux-sample', 'FailJob flux-sample']);
      expect(job.spec.podFailurePolicy.rules[3]).toEqual({ action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'In', values: [78] } });
      expectValidManifests(docs, { kubernetesVersion: '1.35' });
    });

    test.each([
      'ghcr.io/converged-computing/flux-view-rocky:tag-9',
      'ghcr.io/converged-computing/flux-view-ubuntu@sha256:' + 'a'.repeat(64),
    ])('GIVEN the flux-views image %s THEN the runner checks it', (image) => {
      expect(synth(imageVolume({}, { image })).job.spec.template.spec.initContainers).toBeUndefined();
    });

    test('GIVEN a view image of another publisher WHEN synthesized THEN the flux view init container checks it, whole and read-only, first', () => {
      // GIVEN a runner that pulls its image always, a sidecar and a view image whose layout is not known
      const props = imageVolume({ containers: [{ image: 'ubuntu:noble', command: 'hostname', runFlux: true, pullAlways: true }, { image: 'nginx', name: 'web', sidecar: true }] },
        { image: 'registry.example/hpc/flux-view:1' });
      // WHEN
      const { docs, job, configMap } = synth(props);
      const pod = job.spec.template.spec;
      // THEN it runs first (the runner runs the handshake), before the user's sidecars (which mount the view by subPath)
      expect(pod.initContainers.map((c: any) => [c.name, c.restartPolicy])).toEqual([['flux-view', undefined], ['web', 'Always']]);
      // AND it runs the check script in the runner's image (pulled once: the runner pulls again), with no privileges
      expect(initContainer(job, 'flux-view')).toEqual({
        name: 'flux-view',
        image: 'ubuntu:noble',
        imagePullPolicy: 'IfNotPresent',
        command: ['/bin/sh', '/flux_operator/flux-view-check.sh'],
        env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
        resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } },
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
        terminationMessagePolicy: 'FallbackToLogsOnError',
        // AND it mounts the whole image volume (no subPath, which an image of another layout would fail) and the scripts, read-only
        volumeMounts: [
          { name: 'flux-view-image', mountPath: '/mnt/flux-view-image', readOnly: true },
          { name: 'flux-entrypoint', mountPath: '/flux_operator', readOnly: true },
        ],
      });
      // AND the runner does not check again, nor mount the whole volume
      expect(configMap.data['entrypoint.sh']).not.toContain('view_check_script');
      expect(pod.containers[0].volumeMounts.map((m: any) => m.mountPath)).not.toContain('/mnt/flux-view-image');
      // AND the script names the image and the exit code the Job fails on
      const check = configMap.data['flux-view-check.sh'];
      expect(check).toContain("image='registry.example/hpc/flux-view:1'");
      expect(check).toContain("missing_exit='78'");
      expect(check).toContain("root=${FLUX_VIEW_IMAGE_ROOT:-'/mnt/flux-view-image'}");
      // AND that exit code fails the Job at once, after the evictions', stopped pods' and handshake's rules and before the runner's
      expect(job.spec.podFailurePolicy.rules.map((r: any) => `${r.action} ${r.onExitCodes?.containerName ?? ''}`.trim())).toEqual(['Ignore', 'Ignore flux-sample', 'FailJob flux-sample', 'FailJob flux-view', 'FailJob flux-sample']);
      expect(job.spec.podFailurePolicy.rules[3]).toEqual({ action: 'FailJob', onExitCodes: { containerName: 'flux-view', operator: 'In', values: [78] } });
      expectValidManifests(docs, { kubernetesVersion: '1.35' });
    });

    test('GIVEN another view image, a view container name, no handshake and a runner that never pulls THEN the check and its rule follow them', () => {
      const { job } = synth(imageVolume({ handshake: { enabled: false }, containers: [{ image: 'my/app:1', command: 'hostname', imagePullPolicy: ImagePullPolicy.NEVER }] },
        { name: 'view', image: 'mirror.example/converged-computing/flux-view-ubuntu:tag-noble' }));
      const pod = job.spec.template.spec;
      expect(pod.initContainers.map((c: any) => c.name)).toEqual(['view']);
      expect(pod.initContainers[0]).toMatchObject({ image: 'my/app:1', imagePullPolicy: 'Never' });
      expect(job.spec.podFailurePolicy.rules[2]).toEqual({ action: 'FailJob', onExitCodes: { containerName: 'view', operator: 'In', values: [78] } });
    });

    test('GIVEN a flux-views image and no handshake THEN no init container at all, and the runner\'s rule', () => {
      const { job } = synth(imageVolume({ handshake: { enabled: false } }));
      expect(job.spec.template.spec.initContainers).toBeUndefined();
      expect(job.spec.podFailurePolicy.rules[2]).toEqual({ action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'In', values: [78] } });
    });

    test('GIVEN the copy sources THEN there is no check script', () => {
      expect(Object.keys(synth().configMap.data)).not.toContain('flux-view-check.sh');
      expect(Object.keys(synth({ ...hello, flux: { container: { disable: true } } }).configMap.data)).not.toContain('flux-view-check.sh');
    });

    test('GIVEN a custom mountPath THEN the link is made there and the image mounts do not move', () => {
      const { job, configMap } = synth(imageVolume({}, { mountPath: '/opt/flux-x/' }));
      const pod = job.spec.template.spec;
      expect(pod.containers[0].volumeMounts.map((m: any) => m.mountPath)).toEqual(expect.arrayContaining(['/opt/flux-x', '/opt/software', '/opt/views']));
      expect(configMap.data['flux-init.sh']).toContain("mount_path='/opt/flux-x'");
      expect(configMap.data['entrypoint.sh']).toContain("flux_view='\\''/opt/flux-x/view'\\''");
    });

    test('GIVEN the restricted level THEN the manifests keep to it and stay valid for 1.35 and 1.36', () => {
      const { docs, job } = synth(imageVolume({ podSecurity: PodSecurityLevel.RESTRICTED }, { image: 'registry.example/hpc/flux-view:1' }));
      // the view check too: no privileges, a read-only root with a writable /tmp, the pod's non-root user
      expect(initContainer(job, 'flux-view').securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true });
      expect(initContainer(job, 'flux-view').volumeMounts.map((m: any) => m.mountPath)).toEqual(['/mnt/flux-view-image', '/flux_operator', '/tmp']);
      expect(job.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } });
      expectValidManifests(docs, { kubernetesVersion: '1.35' });
      expectValidManifests(docs, { kubernetesVersion: '1.36' });
      // AND with a flux-views image, the runner (which checks it) keeps to it as well
      const own = synth(imageVolume({ podSecurity: PodSecurityLevel.RESTRICTED }));
      expect(own.job.spec.template.spec.containers[0].securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      expectValidManifests(own.docs, { kubernetesVersion: '1.35' });
    });

    test('GIVEN inMemory false beside it THEN the same pod as with source alone', () => {
      expect(synth(imageVolume({}, { inMemory: false })).job).toEqual(synth(imageVolume()).job);
    });

    test('GIVEN source copy-to-memory THEN the same pod as inMemory: true', () => {
      const viaSource = synth({ ...hello, flux: { container: { source: FluxViewSource.COPY_TO_MEMORY } } }).job;
      expect(viaSource).toEqual(synth({ ...hello, flux: { container: { inMemory: true } } }).job);
    });
  });

  test('by default the copies go to the node\'s disk, and there is no separate view tree volume', () => {
    const { job } = synth();
    const pod = job.spec.template.spec;
    expect(pod.volumes.find((v: any) => v.name === 'flux-software').emptyDir).toEqual({});
    expect(pod.volumes.map((v: any) => v.name)).not.toContain('flux-view-tree');
  });

  test.each(['1.27', '1.28', '1.29', '1.30', '1.31', '1.33', '1.34', '1.36'])('kubernetes %s: schema-valid output with the lifecycle it supports', (version) => {
    // WHEN
    const { docs, job } = synth({ ...hello, kubernetesVersion: version });
    const minor = Number(version.split('.')[1]);
    // THEN
    expectValidManifests(docs, { kubernetesVersion: version });
    expect(job.spec.successPolicy).toEqual(minor >= 31 ? { rules: [{ succeededIndexes: '0' }] } : undefined);
    const native = minor >= 29;
    expect(job.spec.template.spec.restartPolicy).toBe(native ? 'Never' : 'OnFailure');
    expect(job.spec.podReplacementPolicy).toBe(native ? 'Failed' : undefined);
    // No per-index limit: it holds a failed pod's finalizer until its replacement exists (namespace deletion hung).
    expect(job.spec.backoffLimitPerIndex).toBeUndefined();
    expect(job.spec.maxFailedIndexes).toBeUndefined();
    expect(job.spec.backoffLimit).toBe(native ? 3 : 100);
    if (native) {
      expect(job.spec.podFailurePolicy.rules[0]).toEqual({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] });
      expect(job.spec.podFailurePolicy.rules.at(-1)).toEqual({ action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'NotIn', values: [0] } });
    } else {
      expect(job.spec.podFailurePolicy).toBeUndefined();
    }
  });

  test.each([
    ['1.34', {}, 'true'],
    ['1.31', {}, 'true'],
    ['1.30', {}, 'false'],
    ['1.34', { completeWorkers: true }, 'false'],
  ])('kubernetes %s, flux %j: workers rejoin after a clean broker exit: %s', (version, flux, rejoins) => {
    // GIVEN a cluster whose workers' instance may end because its lead was evicted
    // WHEN it is synthesized
    const { configMap } = synth({ ...hello, kubernetesVersion: version, flux });
    // THEN workers wait for a new lead only where successPolicy reaps them once the lead succeeded
    expect(configMap.data['entrypoint.sh']).toContain(`\nworker_rejoins='${rejoins}'\n`);
  });

  test('the Flux container ends with its last log lines as its termination message, other containers as they were', () => {
    const { job } = synth({ ...hello, containers: [{ ...hello.containers[0], runFlux: true }, { name: 'helper', image: 'busybox', command: 'sleep 1' }] });
    const [runner, helper] = job.spec.template.spec.containers;
    expect(runner.terminationMessagePolicy).toBe('FallbackToLogsOnError');
    expect(helper.terminationMessagePolicy).toBeUndefined();
  });

  test('fields the cdk8s-plus-27 L1 classes would drop still reach the YAML', () => {
    const { job } = synth({ ...hello, kubernetesVersion: '1.34', shareProcessNamespace: true });
    expect(job.spec.successPolicy).toBeDefined();
    expect(job.spec.podFailurePolicy).toBeDefined();
    expect(job.spec.podReplacementPolicy).toBeDefined();
    expect(job.spec.template.spec.shareProcessNamespace).toBe(true);
  });

  test('OnFailure chosen by the user turns off podFailurePolicy (the API forbids the pair)', () => {
    const { docs, job } = synth({ ...hello, pod: { restartPolicy: PodRestartPolicy.ON_FAILURE } });
    expect(job.spec.template.spec.restartPolicy).toBe('OnFailure');
    expect(job.spec.podFailurePolicy).toBeUndefined();
    expect(job.spec.backoffLimit).toBe(100);
    expectValidManifests(docs);
  });

  test('namespace comes from the prop, else the chart, else default', () => {
    expect(synth().job.metadata.namespace).toBe('default');
    expect(synth(hello, 'flux-sample', { namespace: 'hpc' }).job.metadata.namespace).toBe('hpc');
    const { configMap } = synth({ ...hello, namespace: 'team' }, 'flux-sample', { namespace: 'hpc' });
    expect(configMap.metadata.namespace).toBe('team');
    expect(configMap.data['broker.toml']).toContain('%h.flux-sample.team.svc.cluster.local');
  });

  test('maxSize widens hosts and R while the Job runs size pods; minSize sets the quorum', () => {
    const { job, configMap, cluster } = synth({ ...hello, size: 2, maxSize: 8, minSize: 1 });
    expect(job.spec.completions).toBe(2);
    expect(cluster.hostlist).toBe('flux-sample-[0-7]');
    expect(configMap.data['broker.toml']).toContain('hosts = [ { host = "flux-sample-[0-7]" } ]');
    expect(configMap.data['entrypoint.sh']).toContain('-Sbroker.quorum=1');
  });

  test('the Job records the day-2 facts: sizes, the view script, the target Kubernetes minor (a patch or v prefix dropped)', () => {
    // GIVEN an elastic cluster synthesized for 'v1.31.4' WHEN synthesized THEN its annotations say so
    const { job } = synth({ ...hello, size: 2, maxSize: 8, minSize: 1, kubernetesVersion: 'v1.31.4' });
    expect(job.metadata.annotations).toEqual({
      'flux-framework.org/flux-view': '/mnt/flux/flux-view.sh',
      'flux-framework.org/kubernetes-version': '1.31',
      'flux-framework.org/max-size': '8',
      'flux-framework.org/min-size': '1',
      'flux-framework.org/size': '2',
    });
    // and the default target when none is given
    expect(synth().job.metadata.annotations['flux-framework.org/kubernetes-version']).toBe('1.35');
  });

  test('pod options reach the pod spec', () => {
    const { docs, job } = synth({
      ...hello,
      // hostIPC and hostPID are below the default baseline level
      podSecurity: PodSecurityLevel.PRIVILEGED,
      jobLabels: { 'kueue.x-k8s.io/queue-name': 'hpc' },
      pod: {
        labels: { team: 'a' }, annotations: { note: 'x' }, serviceAccountName: 'runner', nodeSelector: { pool: 'hpc' },
        nodeAffinity: { 'topology.kubernetes.io/zone': ['us-east1-b'] }, tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
        schedulerName: 'fluence', runtimeClassName: 'kata', dnsPolicy: 'ClusterFirst', hostIPC: true, hostPID: true, fsGroup: 1000,
      },
      network: { disableAffinity: true },
    });
    const pod = job.spec.template.spec;
    expect(job.metadata.labels['kueue.x-k8s.io/queue-name']).toBe('hpc');
    expect(job.spec.template.metadata.labels.team).toBe('a');
    expect(job.spec.template.metadata.annotations).toEqual({ note: 'x' });
    expect(pod).toMatchObject({
      serviceAccountName: 'runner', nodeSelector: { pool: 'hpc' }, schedulerName: 'fluence', runtimeClassName: 'kata',
      dnsPolicy: 'ClusterFirst', hostIPC: true, hostPID: true, securityContext: { fsGroup: 1000 },
    });
    expect(pod.tolerations[0]).toEqual({ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' });
    expect(pod.affinity).toEqual({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-east1-b'] }] }] } } });
    expectValidManifests(docs);
  });

  test('soft affinity by default: same zone preferred, one pod per node preferred', () => {
    const aff = synth().job.spec.template.spec.affinity;
    expect(aff.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey).toBe('topology.kubernetes.io/zone');
    expect(aff.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm).toEqual({
      labelSelector: { matchExpressions: [{ key: 'flux-framework.org/minicluster', operator: 'In', values: ['flux-sample'] }] },
      topologyKey: 'kubernetes.io/hostname',
    });
  });

  test('container options: env sorted, secrets, resources, ports, lifecycle, pull policy and secrets', () => {
    const { docs, job } = synth({
      size: 2,
      containers: [
        {
          image: 'ubuntu:noble', command: 'hostname', runFlux: true, pullAlways: true, imagePullSecret: 'regcred',
          environment: { ZED: '1', ALPHA: '2' }, secrets: { TOKEN: { name: 'tok', key: 'value' } },
          resources: { limits: { cpu: '4', memory: '1Gi' }, requests: { cpu: '2' } }, ports: [9000],
          lifecycle: { postStartExec: 'touch /tmp/started' }, securityContext: { runAsUser: 1000, runAsNonRoot: true },
        },
        { image: 'nginx', name: 'nginx', noWrapEntrypoint: true, ports: [80], imagePullSecret: 'regcred' },
      ],
    });
    const [runner, nginx] = job.spec.template.spec.containers;
    expect(runner.env).toEqual([{ name: 'ALPHA', value: '2' }, { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'tok', key: 'value' } } }, { name: 'ZED', value: '1' }]);
    expect(runner.imagePullPolicy).toBe('Always');
    expect(runner.ports).toEqual([{ containerPort: 9000, protocol: 'TCP' }]);
    expect(runner.lifecycle).toEqual({ postStart: { exec: { command: ['touch /tmp/started'] } } });
    expect(runner.securityContext).toEqual({ runAsUser: 1000, runAsNonRoot: true });
    expect(nginx.command).toBeUndefined();
    expect(nginx.volumeMounts).toBeUndefined();
    expect(job.spec.template.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expectValidManifests(docs);
  });

  test('a sidecar container runs as a native sidecar after the view copy, so the pod completes when Flux does', () => {
    // GIVEN a server beside Flux, and a wrapped helper that is not a sidecar
    const { docs, job, configMap } = synth({
      size: 2,
      containers: [
        { image: 'ubuntu:noble', command: 'curl -s localhost', runFlux: true },
        { image: 'nginx', name: 'web', noWrapEntrypoint: true, ports: [80], sidecar: true },
        { image: 'ubuntu:noble', name: 'helper', command: 'flux jobs -a' },
      ],
    });
    // THEN the main containers are the runner and the helper; the server is the last init container
    const pod = job.spec.template.spec;
    expect(pod.containers.map((c: any) => c.name)).toEqual(['flux-sample', 'helper']);
    expect(pod.initContainers.map((c: any) => c.name)).toEqual(['flux-handshake', 'flux-view', 'web']);
    expect(initContainer(job, 'web')).toEqual({
      name: 'web', image: 'nginx', imagePullPolicy: 'IfNotPresent', restartPolicy: 'Always',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    });
    expect(pod.initContainers.filter((c: any) => c.restartPolicy === 'Always').map((c: any) => c.name)).toEqual(['flux-handshake', 'web']);
    expect(Object.keys(configMap.data)).toContain('start-helper.sh');
    expectValidManifests(docs);
  });

  test('whole-CPU and GPU limits give an exact R; otherwise the node is probed', () => {
    const exact = synth({ size: 2, containers: [{ image: 'a', command: 'x', resources: { limits: { 'cpu': '4', 'nvidia.com/gpu': '2' } } }] });
    expect(exact.configMap.data['entrypoint.sh']).toMatch(/--cores=0-3/);
    expect(exact.configMap.data['entrypoint.sh']).toMatch(/--gpu=0-1/);
    expect(synth().configMap.data['entrypoint.sh']).toMatch(/--local/);
  });

  test('user volumes of every kind are added once and mounted', () => {
    const { docs, job } = synth({
      size: 2,
      // a hostPath volume is below the default baseline level
      podSecurity: PodSecurityLevel.PRIVILEGED,
      containers: [{
        image: 'a', command: 'x',
        volumes: {
          data: { path: '/data', claimName: 'data', readOnly: true },
          host: { path: '/h', hostPath: '/var/h' },
          cfg: { path: '/cfg', configMapName: 'cfg', items: { b: 'b.txt', a: 'a.txt' } },
          sec: { path: '/sec', secretName: 'sec' },
          shm: { emptyDir: true, emptyDirMedium: 'memory', emptyDirSizeLimit: '1Gi' },
          csi: { path: '/csi', csiDriver: 'x.csi.io', csiDriverAttributes: { b: '2', a: '1' } },
        },
      }],
    });
    const vols = Object.fromEntries(job.spec.template.spec.volumes.map((v: any) => [v.name, v]));
    expect(vols.data).toEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data', readOnly: true } });
    expect(vols.host).toEqual({ name: 'host', hostPath: { path: '/var/h', type: 'Directory' } });
    expect(vols.cfg).toEqual({ name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'a', path: 'a.txt' }, { key: 'b', path: 'b.txt' }] } });
    expect(vols.sec).toEqual({ name: 'sec', secret: { secretName: 'sec' } });
    expect(vols.shm).toEqual({ name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } });
    expect(vols.csi).toEqual({ name: 'csi', csi: { driver: 'x.csi.io', volumeAttributes: { a: '1', b: '2' } } });
    const mounts = job.spec.template.spec.containers[0].volumeMounts;
    expect(mounts.find((m: any) => m.name === 'shm').mountPath).toBe('/dev/shm');
    expect(mounts.find((m: any) => m.name === 'data')).toEqual({ name: 'data', mountPath: '/data', readOnly: true });
    expectValidManifests(docs);
  });

  test('a changed mount path moves every Flux path with it', () => {
    const { job, configMap } = synth({ ...hello, flux: { container: { mountPath: '/opt/flux' } } });
    expect(job.spec.template.spec.containers[0].volumeMounts[0]).toEqual({ name: 'flux-view', mountPath: '/opt/flux' });
    for (const text of Object.values<string>(configMap.data)) expect(text).not.toMatch(/\/mnt\/flux(?!-handshake|-runner)/);
  });

  test('output size and object count do not grow with cluster size', () => {
    const size = (n: number) => JSON.stringify(synth({ ...hello, size: n }).docs).length;
    expect(size(16384) - size(4)).toBeLessThan(200);
    expect(synth({ ...hello, size: 16384 }).docs).toHaveLength(synth().docs.length);
  });

  test('synthesis is deterministic', () => {
    const yaml = () => {
      const app = Testing.app();
      new MiniCluster(new Chart(app, 'c'), 'flux-sample', hello);
      return app.synthYaml();
    };
    expect(yaml()).toEqual(yaml());
  });
});

describe('MiniCluster certificate', () => {
  test('by default a one-off Job generates it in the cluster: no private key in the YAML', () => {
    const { docs, cluster, job } = synth();
    expect(cluster.certificateJob?.secretName).toBe('flux-sample-curve');
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`).sort()).toEqual([
      'ConfigMap/flux-sample-entrypoint', expect.stringMatching(/^ConfigMap\/test-minicluster-certgen-[0-9a-f]{8}$/),
      expect.stringMatching(/^ConfigMap\/test-minicluster-handshake-[0-9a-f]{8}$/), 'Job/flux-sample', 'Job/flux-sample-curve-cert',
      'Role/flux-sample-curve-cert', 'RoleBinding/flux-sample-curve-cert', 'Service/flux-sample', 'Service/flux-sample-rendezvous',
      'ServiceAccount/flux-sample-curve-cert',
    ]);
    expect(docs.some((d) => d.kind === 'Secret')).toBe(false);
    expect(JSON.stringify(docs)).not.toMatch(/secret-key\s*=/);
    expect(job.spec.template.spec.volumes.find((v: any) => v.name === 'flux-curve-cert').secret.secretName).toBe('flux-sample-curve');
    expectValidManifests(docs);
  });

  test('an existing Secret is only mounted', () => {
    const { docs, job } = synth({ ...hello, certificate: CertificateSource.fromExistingSecret('sealed-curve') });
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`).sort()).toEqual([
      'ConfigMap/flux-sample-entrypoint', expect.stringMatching(/^ConfigMap\/test-minicluster-handshake-/), 'Job/flux-sample', 'Service/flux-sample', 'Service/flux-sample-rendezvous',
    ]);
    expect(job.spec.template.spec.volumes.find((v: any) => v.name === 'flux-curve-cert').secret.secretName).toBe('sealed-curve');
  });

  test('inline (insecure) writes a Secret, never a ConfigMap, and checks the text', () => {
    const cert = createCurveCert({ name: 'flux-sample', seed: '11'.repeat(32) });
    const { docs } = synth({ ...hello, certificate: CertificateSource.insecureInline(cert) });
    const secret = docs.find((d) => d.kind === 'Secret');
    expect(Buffer.from(secret.data['curve.cert'], 'base64').toString()).toBe(cert);
    const secretKey = /secret-key = "([^"]+)"/.exec(cert)![1];
    for (const d of docs.filter((x) => x.kind !== 'Secret')) expect(JSON.stringify(d)).not.toContain(secretKey);
    expectValidManifests(docs);
    expect(() => synth({ ...hello, certificate: CertificateSource.insecureInline('not a cert') })).toThrow(/certificate.inlineCertificate = "\(certificate\)"/);
  });

  test('a generated certificate needs a name of at most 52 characters', () => {
    expect(() => synth(hello, 'a'.repeat(53))).toThrow(/name = "a{53}": must be at most 52 characters with CertificateSource.generatedInCluster/);
    // (in DNS handshake mode: the default rendezvous Service '<name>-rendezvous' would not fit 63 characters)
    expect(() => synth({ ...hello, certificate: CertificateSource.fromExistingSecret(), handshake: { mode: HandshakeMode.DNS } }, 'a'.repeat(53))).not.toThrow();
  });
});

describe('MiniCluster hosts handshake', () => {
  const initNames = (job: any) => job.spec.template.spec.initContainers.map((c: any) => c.name);

  test('1.29+: a native sidecar that starts first, a rendezvous Service on index 0, and a FailJob rule', () => {
    // WHEN
    const { docs, job, configMap } = synth({ ...hello, kubernetesVersion: '1.34' });
    // THEN the sidecar, first of the pod, runs the bundled program, mounted from the shared program
    // ConfigMap where the entrypoint ConfigMap is mounted in the other containers
    const sidecar = job.spec.template.spec.initContainers[0];
    expect(sidecar.name).toBe('flux-handshake');
    expect(sidecar.restartPolicy).toBe('Always');
    expect(sidecar.command.slice(0, 5)).toEqual(['node', '--max-semi-space-size=1', '--lite-mode', '--no-expose-wasm', '/flux_operator/handshake.js']);
    expect(sidecar.command).toEqual(expect.arrayContaining(['--name=flux-sample', '--size=4', '--quorum=4', '--mode=rendezvous', '--lifecycle=sidecar', '--cert=/etc/flux-curve/curve.cert']));
    // AND no startup probe holds the pod's other containers back: the entrypoint waits for the result
    expect(sidecar.startupProbe).toBeUndefined();
    expect(configMap.data['entrypoint.sh']).toContain('until [ -e "$handshake_dir/ready" ]; do');
    expect(sidecar.env).toEqual([
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    ]);
    const programVolume = job.spec.template.spec.volumes.find((v: any) => v.name === 'flux-handshake-program');
    expect(sidecar.volumeMounts).toContainEqual({ name: 'flux-handshake-program', mountPath: '/flux_operator', readOnly: true });
    expect(sidecar.volumeMounts.some((m: any) => m.name === 'flux-entrypoint')).toBe(false);
    const program = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === programVolume.configMap.name);
    expect(program.data['handshake.js']).toContain('handshake deadline');
    expect(configMap.data['entrypoint.sh']).toContain("handshake_dir='/mnt/flux-handshake'");
    // AND the rendezvous Service selects only rank 0 of this Job, before it is Ready
    const rdv = docs.find((d) => d.kind === 'Service' && d.metadata.name === 'flux-sample-rendezvous');
    expect(rdv.spec).toEqual({
      type: 'ClusterIP', publishNotReadyAddresses: true,
      selector: { 'batch.kubernetes.io/job-completion-index': '0', 'batch.kubernetes.io/job-name': 'flux-sample' },
      ports: [{ name: 'handshake', port: 8060, targetPort: 8060, protocol: 'TCP' }],
    });
    // AND it is emitted before the Job, so its name is never looked up before it exists
    expect(docs.indexOf(rdv)).toBeLessThan(docs.indexOf(job));
    // AND a handshake failure fails the Job deliberately, by its exit code on the runner
    expect(job.spec.podFailurePolicy.rules[2]).toEqual({
      action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'In', values: [64, 70, 81, 82, 83, 84, 85, 86] },
    });
    expectValidManifests(docs, { kubernetesVersion: '1.34' });
  });

  test('1.28: a plain init container in rendezvous mode; 1.27: DNS mode, no rendezvous Service', () => {
    const v28 = synth({ ...hello, kubernetesVersion: '1.28' });
    // (a plain init container runs after the view copy: init containers run one after another)
    expect(initNames(v28.job)).toEqual(['flux-view', 'flux-handshake']);
    const init28 = initContainer(v28.job, 'flux-handshake');
    expect(init28.restartPolicy).toBeUndefined();
    expect(init28.startupProbe).toBeUndefined();
    expect(init28.command).toEqual(expect.arrayContaining(['--lifecycle=init', '--mode=rendezvous']));
    // AND an init container ends by itself: no exit file to watch, no volume for it, no trap in the entrypoint
    expect(init28.command.some((a: string) => a.startsWith('--runner-exit-file'))).toBe(false);
    expect(v28.job.spec.template.spec.containers[0].volumeMounts.map((m: any) => m.mountPath)).not.toContain('/mnt/flux-runner');
    expect(v28.configMap.data['entrypoint.sh']).not.toContain('runner_exit_file');
    // AND its rendezvous Service also reaches rank 0's broker port, which a pod that comes later probes
    const rdv28 = v28.docs.find((d) => d.kind === 'Service' && d.metadata.name === 'flux-sample-rendezvous');
    expect(rdv28.spec.ports).toEqual([
      { name: 'handshake', port: 8060, targetPort: 8060, protocol: 'TCP' },
      { name: 'flux', port: 8050, targetPort: 8050, protocol: 'TCP' },
    ]);
    // AND its workers re-resolve a parent that moved (no sidecar keeps parent.env current); 1.29+ ones need not
    expect(v28.configMap.data['entrypoint.sh']).toContain('moved_parent_address');
    expect(synth({ ...hello, kubernetesVersion: '1.29' }).configMap.data['entrypoint.sh']).not.toContain('moved_parent_address');
    expectValidManifests(v28.docs, { kubernetesVersion: '1.28' });
    const v27 = synth({ ...hello, kubernetesVersion: '1.27' });
    expect(initContainer(v27.job, 'flux-handshake').command).toEqual(expect.arrayContaining(['--lifecycle=init', '--mode=dns']));
    expect(v27.docs.some((d) => d.metadata.name === 'flux-sample-rendezvous')).toBe(false);
    expectValidManifests(v27.docs, { kubernetesVersion: '1.27' });
  });

  test('an elastic cluster: the handshake knows every possible pod, and waits for the quorum', () => {
    const { job } = synth({ ...hello, size: 2, maxSize: 8, minSize: 1 });
    expect(initContainer(job, 'flux-handshake').command).toEqual(expect.arrayContaining(['--size=8', '--max-size=8', '--quorum=1']));
  });

  test('the sidecar memory limit grows with the pods rank 0 holds a session with; the request does not', () => {
    // GIVEN clusters of 4, 4096 and 16384 possible pods
    const limits = [4, 4096, 16384].map((maxSize) => initContainer(synth({ ...hello, size: Math.min(maxSize, 4), maxSize })
      .job, 'flux-handshake').resources);
    // THEN the limit is 128Mi up to a few thousand pods, then 64Mi + 6 KiB per pod; requests stay fixed
    expect(limits.map((r) => r.limits.memory)).toEqual(['128Mi', '128Mi', '160Mi']);
    expect(limits.map((r) => r.requests.memory)).toEqual(['48Mi', '48Mi', '48Mi']);
  });

  test('options reach the program; disabled leaves no trace', () => {
    const { job } = synth({ ...hello, handshake: { deadlineSeconds: 60, port: 9100, mode: HandshakeMode.DNS, image: 'node:20-alpine' } });
    const sidecar = initContainer(job, 'flux-handshake');
    expect(sidecar.image).toBe('node:20-alpine');
    expect(sidecar.ports).toEqual([{ name: 'handshake', containerPort: 9100, protocol: 'TCP' }]);
    expect(sidecar.command).toEqual(expect.arrayContaining(['--deadline-seconds=60', '--port=9100', '--mode=dns']));
    const off = synth({ ...hello, handshake: { enabled: false } });
    expect(initNames(off.job)).toEqual(['flux-view']);
    expect(off.docs.filter((d) => d.kind === 'ConfigMap').map((d) => d.metadata.name)).not.toContainEqual(expect.stringContaining('handshake'));
    expect(off.job.spec.template.spec.volumes.map((v: any) => v.name)).not.toContain('flux-handshake-program');
    expect(off.configMap.data['entrypoint.sh']).not.toContain('handshake_dir');
    expect(off.docs.some((d) => d.metadata.name === 'flux-sample-rendezvous')).toBe(false);
  });

  describe('in the Flux runner (handshake.inRunner)', () => {
    const imageVolume = (handshake: object = {}, more: Partial<MiniClusterProps> = {}): MiniClusterProps => ({
      ...hello, kubernetesVersion: '1.35', handshake, ...more, flux: { container: { source: FluxViewSource.IMAGE_VOLUME } },
    });

    test('GIVEN the view as an image volume WHEN synthesized THEN the runner runs the handshake with node from the handshake image, and the pod has no handshake container', () => {
      // WHEN
      const { docs, job, configMap } = synth(imageVolume());
      const pod = job.spec.template.spec;
      const runner = pod.containers[0];
      // THEN no init container at all (the view check is the runner's too)
      expect(pod.initContainers).toBeUndefined();
      // AND the handshake image is an image volume the runner mounts read-only, beside the program and its results' volume (read-write)
      expect(pod.volumes).toContainEqual({ name: 'flux-handshake-node', image: { reference: 'docker.io/library/node:22.11.0-alpine3.20', pullPolicy: 'IfNotPresent' } });
      expect(runner.volumeMounts).toEqual(expect.arrayContaining([
        { name: 'flux-handshake', mountPath: '/mnt/flux-handshake' },
        { name: 'flux-handshake-program', mountPath: '/mnt/flux-handshake-program', readOnly: true },
        { name: 'flux-handshake-node', mountPath: '/mnt/flux-handshake-node', readOnly: true },
      ]));
      expect(runner.volumeMounts.map((m: any) => m.mountPath)).not.toContain('/mnt/flux-runner');
      // AND the runner declares the handshake's port, has its environment, and its readiness is the handshake's httpGet
      expect(runner.ports).toEqual([{ name: 'handshake', containerPort: 8060, protocol: 'TCP' }]);
      expect(runner.env).toEqual(expect.arrayContaining([
        { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      ]));
      expect(runner.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 8061 });
      // AND the runner, which asked for nothing, asks for what the sidecar did: the pod stays Burstable
      expect(runner.resources).toEqual({ requests: { cpu: '10m', memory: '48Mi' } });
      // AND the entrypoint starts it before anything else, with the program's flags and its exit file
      const entrypoint = configMap.data['entrypoint.sh'];
      expect(entrypoint).toContain("handshake_node_root='/mnt/flux-handshake-node'");
      expect(entrypoint).toMatch(/handshake_args=\( '--max-semi-space-size=1' '--lite-mode' '--no-expose-wasm' '\/mnt\/flux-handshake-program\/handshake.js' '--name=flux-sample' .*'--lifecycle=sidecar'.* '--runner-exit-file=\/mnt\/flux-handshake\/runner\/exited' '--ready-port=8061'/);
      expect(entrypoint).toContain("runner_exit_file='/mnt/flux-handshake/runner/exited'");
      expect(entrypoint.indexOf('supervise_handshake &')).toBeLessThan(entrypoint.indexOf('/bin/sh "$view_check_script" || exit'));
      // AND its failures still fail the Job by the runner's exit code
      expect(job.spec.podFailurePolicy.rules[2]).toEqual({
        action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'In', values: [64, 70, 81, 82, 83, 84, 85, 86] },
      });
      expectValidManifests(docs, { kubernetesVersion: '1.35' });
    });

    test('GIVEN inRunner false THEN the native sidecar as before; GIVEN the view copied THEN a sidecar by default, in the runner when asked', () => {
      const sidecar = synth(imageVolume({ inRunner: false })).job.spec.template.spec;
      expect(sidecar.initContainers.map((c: any) => [c.name, c.restartPolicy])).toEqual([['flux-handshake', 'Always']]);
      expect(sidecar.volumes.map((v: any) => v.name)).not.toContain('flux-handshake-node');
      expect(sidecar.containers[0].ports).toBeUndefined();
      const copied = synth({ ...hello, kubernetesVersion: '1.35' });
      expect(copied.job.spec.template.spec.initContainers.map((c: any) => c.name)).toEqual(['flux-handshake', 'flux-view']);
      const asked = synth({ ...hello, kubernetesVersion: '1.35', handshake: { inRunner: true, image: 'node:20-bookworm-slim', port: 9100 } });
      const pod = asked.job.spec.template.spec;
      expect(pod.initContainers.map((c: any) => c.name)).toEqual(['flux-view']);
      expect(pod.volumes).toContainEqual({ name: 'flux-handshake-node', image: { reference: 'node:20-bookworm-slim', pullPolicy: 'IfNotPresent' } });
      expect(pod.containers[0].ports).toEqual([{ name: 'handshake', containerPort: 9100, protocol: 'TCP' }]);
      expect(asked.configMap.data['entrypoint.sh']).toContain("handshake_image='node:20-bookworm-slim'");
      expectValidManifests(asked.docs, { kubernetesVersion: '1.35' });
    });

    test('GIVEN a runner that sets POD_IP and its requests itself THEN its own value stays, once, and its requests', () => {
      const { job } = synth(imageVolume({}, { containers: [{ image: 'ubuntu:noble', command: 'hostname', environment: { POD_IP: '10.0.0.1' }, resources: { requests: { cpu: '2' }, limits: { memory: '1Gi' } } }] }));
      const runner = job.spec.template.spec.containers[0];
      expect(runner.env.filter((e: any) => e.name === 'POD_IP')).toEqual([{ name: 'POD_IP', value: '10.0.0.1' }]);
      // AND a runner with requests of its own keeps them as they are
      expect(runner.resources).toEqual({ requests: { cpu: '2' }, limits: { memory: '1Gi' } });
    });

    test('GIVEN inRunner on a version without image volumes, or a volume where the handshake image goes THEN errors naming each, and nothing is synthesized', () => {
      expect(() => synth({ ...hello, kubernetesVersion: '1.34', handshake: { inRunner: true } }))
        .toThrow(/handshake.inRunner = true: needs Kubernetes 1.35 or newer, where image volumes are on by default \(kubernetesVersion is 1.34\); set it to false/);
      expect(() => synth(imageVolume({}, { containers: [{ image: 'ubuntu:noble', command: 'hostname', volumes: { n: { emptyDir: true, path: '/mnt/flux-handshake-node' } } }] })))
        .toThrow(/volumes.n.path = "\/mnt\/flux-handshake-node": the handshake image volume \(handshake.inRunner\) is already mounted at \/mnt\/flux-handshake-node/);
      expect(() => synth(imageVolume({ inRunner: false }, { containers: [{ image: 'ubuntu:noble', command: 'hostname', volumes: { n: { emptyDir: true, path: '/mnt/flux-handshake-node' } } }] })))
        .not.toThrow();
    });
  });

  test('bad handshake options are validation errors', () => {
    expect(() => synth({ ...hello, handshake: { port: 8050, deadlineSeconds: 0 } })).toThrow(/handshake.deadlineSeconds = 0[\s\S]*handshake.port = 8050: must be a port from 1 to 65535 other than the broker port \(8050\)/);
    expect(() => synth({ ...hello, handshake: { port: 9000, readyPort: 9000 } })).toThrow(/handshake.readyPort = 9000: must be a port from 1 to 65535 other than the broker port \(8050\) and handshake.port \(9000\)/);
    expect(() => synth({ ...hello, handshake: { readyPort: 70000 } })).toThrow(/handshake.readyPort = 70000/);
    expect(() => synth({ ...hello, kubernetesVersion: '1.27', handshake: { mode: HandshakeMode.RENDEZVOUS } })).toThrow(/handshake.mode = "rendezvous": rendezvous needs Kubernetes 1.28 or newer/);
  });

  test.each([
    ['a cluster of fixed size', 'fcfs', {}],
    ['an elastic cluster (maxSize above size)', 'easy', { maxSize: 8 }],
    ['a cluster that starts before every broker (minSize below size)', 'easy', { minSize: 2 }],
    ['an elastic cluster whose user chose fcfs', 'fcfs', { maxSize: 8, flux: { scheduler: { queuePolicy: 'fcfs' } } }],
  ])('GIVEN %s THEN Fluxion\'s queue policy is %s (fcfs refuses a job for nodes not up yet)', (_, policy, props) => {
    const { configMap } = synth({ ...hello, ...props });
    expect(parseToml(configMap.data['broker.toml'])['sched-fluxion-qmanager']).toEqual({ 'queue-policy': policy });
  });
});

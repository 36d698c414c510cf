import * as fs from 'fs';
import { loadSchema, schemaMinors, validatorCacheFile } from './support/k8s-schema';
import { DEFAULT_KUBERNETES_VERSION, expectValidManifests, validateManifests } from './support/k8s-validate';
// The generator is a plain Node script (tools/ convention); it exports its staleness check.
const generator = require('../tools/gen-k8s-schema.js') as { checkSchemas(): string[] };

/** An Indexed Job shaped like the MiniCluster's, with a native sidecar (init container, restartPolicy Always). */
function indexedJob(): any {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'flux-sample', namespace: 'default', labels: { 'app.kubernetes.io/name': 'flux-sample' } },
    spec: {
      completionMode: 'Indexed',
      completions: 4,
      parallelism: 4,
      backoffLimit: 0,
      activeDeadlineSeconds: 7200,
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'NotIn', values: [0] } }] },
      template: {
        metadata: { labels: { 'job-name': 'flux-sample' } },
        spec: {
          restartPolicy: 'Never',
          subdomain: 'flux-service',
          setHostnameAsFQDN: false,
          shareProcessNamespace: true,
          dnsPolicy: 'ClusterFirst',
          initContainers: [
            {
              name: 'hosts-handshake',
              image: 'docker.io/library/node:22.11.0-alpine3.20',
              imagePullPolicy: 'IfNotPresent',
              restartPolicy: 'Always',
              command: ['node', '/runtime/handshake.js'],
              readinessProbe: { exec: { command: ['test', '-f', '/mnt/flux/ready'] }, periodSeconds: 2 },
              volumeMounts: [{ name: 'flux-view', mountPath: '/mnt/flux' }],
            },
          ],
          containers: [
            {
              name: 'flux-sample',
              image: 'ghcr.io/rse-ops/lammps-matrix:mpich-ubuntu-22.04-amd64',
              stdin: true,
              tty: true,
              ports: [{ containerPort: 8050, name: 'flux', protocol: 'TCP' }],
              resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2, memory: '2Gi' } },
              securityContext: { privileged: false, capabilities: { add: ['SYS_PTRACE'] } },
              env: [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }],
              volumeMounts: [
                { name: 'flux-config', mountPath: '/etc/flux/config', readOnly: true },
                { name: 'flux-view', mountPath: '/mnt/flux' },
              ],
            },
          ],
          volumes: [
            { name: 'flux-config', configMap: { name: 'flux-sample-flux-config', defaultMode: 0o444, items: [{ key: 'broker.toml', path: 'broker.toml' }] } },
            { name: 'flux-view', emptyDir: { sizeLimit: '1Gi' } },
            { name: 'curve', secret: { secretName: 'flux-sample-curve-mount', defaultMode: 0o400 } },
          ],
        },
      },
    },
  };
}

function headlessService(): any {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'flux-service' },
    spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'job-name': 'flux-sample' } },
  };
}

function supportingObjects(): any[] {
  return [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flux-sample-flux-config' }, data: { 'broker.toml': '[bootstrap]\n' }, immutable: false },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'flux-sample-munge' }, type: 'Opaque', stringData: { 'munge.key': 'x' } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'flux-sample-certgen' }, automountServiceAccountToken: true },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'flux-sample-certgen' },
      rules: [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['flux-sample-curve-mount'], verbs: ['get', 'create'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'flux-sample-certgen' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'flux-sample-certgen' },
      subjects: [{ kind: 'ServiceAccount', name: 'flux-sample-certgen', namespace: 'default' }],
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'flux-sample' },
      spec: {
        podSelector: { matchLabels: { 'job-name': 'flux-sample' } },
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ podSelector: { matchLabels: { 'job-name': 'flux-sample' } } }], ports: [{ port: 8050, protocol: 'TCP' }] }],
      },
    },
  ];
}

/** Problems for `doc` after `mutate`, for the target version. */
function problemsAfter(mutate: (doc: any) => void, kubernetesVersion?: string): string[] {
  const doc = indexedJob();
  mutate(doc);
  return validateManifests([doc], { kubernetesVersion });
}

const podSpec = (job: any) => job.spec.template.spec;

/** Removes the native sidecar, which needs Kubernetes 1.29. */
const withoutSidecar = (mutate: (job: any) => void) => (job: any) => {
  delete podSpec(job).initContainers;
  mutate(job);
};

describe('validateManifests accepts correct objects', () => {
  test('an Indexed Job with a native sidecar, headless Service and supporting objects are valid for the default version', () => {
    // GIVEN the objects a MiniCluster synthesizes
    const docs = [indexedJob(), headlessService(), ...supportingObjects()];
    // THEN there is no problem, and the default target is 1.34
    expect(DEFAULT_KUBERNETES_VERSION).toBe('1.34');
    expect(validateManifests(docs)).toEqual([]);
    expect(() => expectValidManifests(docs, { kubernetesVersion: '1.36' })).not.toThrow();
  });

  test('a Pod is valid, and a typo in it is not', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'busybox', args: ['true'] }] } };
    expect(validateManifests([pod])).toEqual([]);
    (pod.spec as any).restartPolicyy = 'Never';
    expect(validateManifests([pod])).toEqual([expect.stringMatching(/^Pod\/p: spec\.restartPolicyy: unknown field/)]);
  });

  test('kinds beyond the MiniCluster set are validated too', () => {
    const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } };
    expect(validateManifests([pvc])).toEqual([]);
    pvc.spec.resources.requests.storage = '10 GB';
    expect(validateManifests([pvc])).toEqual(['PersistentVolumeClaim/data: spec.resources.requests.storage: must be a quantity like 500m, 2 or 1.5Gi, got "10 GB"']);
  });
});

describe('validateManifests catches each class of fault', () => {
  test('a misspelled field deep in a container', () => {
    expect(problemsAfter((j) => (podSpec(j).containers[0].securityContext.capabilities.addd = ['NET_ADMIN']))).toEqual([
      expect.stringMatching(/^Job\/flux-sample: spec\.template\.spec\.containers\[0\]\.securityContext\.capabilities\.addd: unknown field/),
    ]);
  });

  test('unknown fields in volumes, probes, RBAC rules and the Job spec, all reported at once', () => {
    const problems = problemsAfter((j) => {
      j.spec.completionsMode = 'Indexed';
      podSpec(j).volumes[1].emptyDir.sizelimit = '1Gi';
      podSpec(j).initContainers[0].readinessProbe.exec.cmd = ['true'];
    });
    expect(problems).toEqual([
      expect.stringMatching(/^Job\/flux-sample: spec\.completionsMode: unknown field/),
      expect.stringMatching(/^Job\/flux-sample: spec\.template\.spec\.initContainers\[0\]\.readinessProbe\.exec\.cmd: unknown field/),
      expect.stringMatching(/^Job\/flux-sample: spec\.template\.spec\.volumes\[1\]\.emptyDir\.sizelimit: unknown field/),
    ]);
    const role = supportingObjects()[3];
    role.rules[0].verb = role.rules[0].verbs;
    delete role.rules[0].verbs;
    expect(validateManifests([role])).toEqual([
      expect.stringMatching(/^Role\/flux-sample-certgen: rules\[0\]\.verb: unknown field/),
      'Role/flux-sample-certgen: rules[0].verbs: required field is missing',
    ]);
  });

  test('completions as a string and a boolean as a string', () => {
    expect(problemsAfter((j) => {
      j.spec.completions = '4';
      podSpec(j).containers[0].tty = 'true';
    })).toEqual([
      'Job/flux-sample: spec.completions: must be integer, got "4"',
      'Job/flux-sample: spec.template.spec.containers[0].tty: must be boolean, got "true"',
    ]);
  });

  test('a fractional integer field', () => {
    expect(problemsAfter((j) => (j.spec.parallelism = 1.5))).toEqual(['Job/flux-sample: spec.parallelism: must be integer, got 1.5']);
  });

  test('bad enums across the pod and Job spec', () => {
    const problems = problemsAfter((j) => {
      podSpec(j).containers[0].imagePullPolicy = 'Sometimes';
      podSpec(j).restartPolicy = 'Maybe';
      podSpec(j).dnsPolicy = 'Default2';
      podSpec(j).containers[0].ports[0].protocol = 'tcp';
      j.spec.completionMode = 'Indexd';
      j.spec.podFailurePolicy.rules[0].action = 'Fail';
      j.spec.podFailurePolicy.rules[0].onExitCodes.operator = 'Equals';
    });
    expect(problems).toEqual([
      'Job/flux-sample: spec.completionMode: must be one of "Indexed", "NonIndexed", got "Indexd"',
      'Job/flux-sample: spec.podFailurePolicy.rules[0].action: must be one of "Count", "FailIndex", "FailJob", "Ignore", got "Fail"',
      'Job/flux-sample: spec.podFailurePolicy.rules[0].onExitCodes.operator: must be one of "In", "NotIn", got "Equals"',
      'Job/flux-sample: spec.template.spec.containers[0].imagePullPolicy: must be one of "Always", "IfNotPresent", "Never", got "Sometimes"',
      'Job/flux-sample: spec.template.spec.containers[0].ports[0].protocol: must be one of "SCTP", "TCP", "UDP", got "tcp"',
      'Job/flux-sample: spec.template.spec.dnsPolicy: must be one of "ClusterFirst", "ClusterFirstWithHostNet", "Default", "None", got "Default2"',
      'Job/flux-sample: spec.template.spec.restartPolicy: must be one of "Always", "Never", "OnFailure", got "Maybe"',
    ]);
    const svc = headlessService();
    svc.spec.type = 'Headless';
    expect(validateManifests([svc])).toEqual([
      'Service/flux-service: spec.type: must be one of "ClusterIP", "ExternalName", "LoadBalancer", "NodePort", got "Headless"',
    ]);
  });

  test('missing container and volume names', () => {
    expect(problemsAfter((j) => {
      delete podSpec(j).containers[0].name;
      delete podSpec(j).volumes[0].name;
    })).toEqual([
      // The API server also no longer finds the container and the volume they named.
      'Job/flux-sample: spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "flux-sample": must be one of the container or initContainer names in the pod template (validatePodFailurePolicyRuleOnExitCodes)',
      'Job/flux-sample: spec.template.spec.containers[0].name: required field is missing',
      'Job/flux-sample: spec.template.spec.containers[0].volumeMounts[0].name: Not found: "flux-config" (ValidateVolumeMounts)',
      'Job/flux-sample: spec.template.spec.volumes[0].name: required field is missing',
    ]);
  });

  test('a bad cpu quantity', () => {
    expect(problemsAfter((j) => (podSpec(j).containers[0].resources.limits.cpu = '1.5 cores'))).toEqual([
      'Job/flux-sample: spec.template.spec.containers[0].resources.limits.cpu: must be a quantity like 500m, 2 or 1.5Gi, got "1.5 cores"',
    ]);
  });

  test('restartPolicy on a regular container, or other than Always on an init container', () => {
    expect(problemsAfter((j) => {
      podSpec(j).containers[0].restartPolicy = 'Always';
      podSpec(j).initContainers[0].restartPolicy = 'OnFailure';
    })).toEqual([
      'Job/flux-sample: spec.template.spec.containers[0].restartPolicy: only init containers may set restartPolicy (native sidecar), got "Always"',
      // Not a sidecar, so its probe is not allowed either.
      'Job/flux-sample: spec.template.spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always (validateInitContainers)',
      'Job/flux-sample: spec.template.spec.initContainers[0].restartPolicy: the only allowed value for an init container is "Always", got "OnFailure"',
    ].sort());
  });

  test('unknown kinds and apiVersion/kind pairs that do not exist', () => {
    const problems = validateManifests([
      { apiVersion: 'v1', kind: 'Job', metadata: { name: 'a' } },
      { apiVersion: 'batch/v1', kind: 'MiniCluster', metadata: { name: 'b' } },
      { apiVersion: 'flux-framework.org/v1alpha2', kind: 'MiniCluster', metadata: { name: 'c' } },
      { kind: 'ConfigMap', metadata: { name: 'd' } },
    ]);
    expect(problems).toEqual([
      'Job/a: kind: "v1 Job" is not a GA kind of Kubernetes 1.34 (kubernetes-types 1.30.0); kind Job is served as apiVersion batch/v1',
      'MiniCluster/b: kind: "batch/v1 MiniCluster" is not a GA kind of Kubernetes 1.34 (kubernetes-types 1.30.0)',
      'MiniCluster/c: kind: "flux-framework.org/v1alpha2 MiniCluster" is not a GA kind of Kubernetes 1.34 (kubernetes-types 1.30.0)',
      'ConfigMap/d: apiVersion: required string, got nothing',
    ]);
  });

  test('a document without metadata.name', () => {
    const cm = supportingObjects()[0];
    delete cm.metadata.name;
    expect(validateManifests([cm])).toEqual(['ConfigMap/<unnamed document 0>: metadata.name: required field is missing (or metadata.generateName)']);
  });

  test('expectValidManifests fails with every message', () => {
    const job = indexedJob();
    job.spec.completions = '4';
    podSpec(job).containers[0].imagePullPolicy = 'Sometimes';
    expect(() => expectValidManifests([job, headlessService()])).toThrow(
      '2 problem(s) in 2 manifest(s) for Kubernetes 1.34:\n' +
        '  Job/flux-sample: spec.completions: must be integer, got "4"\n' +
        '  Job/flux-sample: spec.template.spec.containers[0].imagePullPolicy: must be one of "Always", "IfNotPresent", "Never", got "Sometimes"',
    );
  });

  test('a bad kubernetesVersion is a usage error', () => {
    expect(() => validateManifests([], { kubernetesVersion: '1.26' })).toThrow(/kubernetesVersion must be a 'MAJOR\.MINOR' string from 1\.27 to 1\.36, got "1\.26"/);
    expect(() => validateManifests([], { kubernetesVersion: 'v1.30' })).toThrow(/got "v1\.30"/);
  });
});

describe('validateManifests is version aware', () => {
  // The API server drops a field whose feature gate is off; what then fails without it is reported too.
  const probeOfPlainInit = 'Job/flux-sample: spec.template.spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always (validateInitContainers)';
  test.each([
    ['native sidecar', (j: any) => j, ['spec.template.spec.initContainers[0].restartPolicy'], [probeOfPlainInit]],
    ['backoffLimitPerIndex', withoutSidecar((j) => Object.assign(j.spec, { backoffLimitPerIndex: 1, maxFailedIndexes: 1 })), ['spec.backoffLimitPerIndex', 'spec.maxFailedIndexes'], []],
    ['podReplacementPolicy', withoutSidecar((j) => Object.assign(j.spec, { podReplacementPolicy: 'Failed' })), ['spec.podReplacementPolicy'], []],
  ])('%s (1.29+) is rejected for 1.27 and 1.28 and accepted for 1.29 and 1.34', (_name, mutate, paths, consequences) => {
    for (const version of ['1.27', '1.28']) {
      expect(problemsAfter(mutate, version)).toEqual([
        ...paths.map(
          (p) =>
            `Job/flux-sample: ${p}: unknown field (not in kubernetes-types 1.26.0, the newest installed types not newer than Kubernetes ${version}); it is a newer field (present in kubernetes-types 1.30.0+1.35)`,
        ),
        ...consequences,
      ].sort());
    }
    expect(problemsAfter(mutate, '1.29')).toEqual([]);
    expect(problemsAfter(mutate, '1.34')).toEqual([]);
  });

  test('an image volume (volumes[].image, on by default from 1.35) is unknown before 1.35 and validated strictly from 1.35', () => {
    // GIVEN the flux view as an image volume, mounted by subPath
    const withImage = (image: any) => withoutSidecar((j) => {
      podSpec(j).volumes.push({ name: 'view-image', image });
      podSpec(j).containers[0].volumeMounts.push({ name: 'view-image', mountPath: '/opt/software', subPath: 'opt/software', readOnly: true });
    });
    const good = withImage({ reference: 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble', pullPolicy: 'IfNotPresent' });
    // THEN 1.34 does not know the field, 1.35 and 1.36 accept it
    expect(problemsAfter(good, '1.34')).toEqual([
      'Job/flux-sample: spec.template.spec.volumes[3].image: unknown field (not in kubernetes-types 1.30.0, the newest installed types not newer than Kubernetes 1.34); it is a newer field (present in kubernetes-types 1.30.0+1.35)',
    ]);
    expect(problemsAfter(good, '1.35')).toEqual([]);
    expect(problemsAfter(good, '1.36')).toEqual([]);
    // AND inside it, unknown fields, a missing reference and a bad pull policy are errors (an invalid
    // volume is not one the mounts can name, as on the API server)
    expect(problemsAfter(withImage({ reference: 'a', digest: 'sha256:0' }), '1.35')).toEqual([
      'Job/flux-sample: spec.template.spec.volumes[3].image.digest: unknown field (not in kubernetes-types 1.30.0+1.35, the newest installed types not newer than Kubernetes 1.35)',
    ]);
    expect(problemsAfter(withImage({ pullPolicy: 'Sometimes' }), '1.35')).toEqual([
      'Job/flux-sample: spec.template.spec.containers[0].volumeMounts[2].name: Not found: "view-image" (ValidateVolumeMounts)',
      'Job/flux-sample: spec.template.spec.volumes[3].image.pullPolicy: must be one of "Always", "IfNotPresent", "Never", got "Sometimes"',
      'Job/flux-sample: spec.template.spec.volumes[3].image.reference: Required value (validateImageVolumeSource)',
    ]);
  });

  test('successPolicy is unknown to 1.27 types, alpha (off) in 1.30, accepted from 1.31', () => {
    const mutate = withoutSidecar((j) => (j.spec.successPolicy = { rules: [{ succeededIndexes: '0' }] }));
    expect(problemsAfter(mutate, '1.27')).toEqual([
      expect.stringMatching(/^Job\/flux-sample: spec\.successPolicy: unknown field \(not in kubernetes-types 1\.26\.0/),
    ]);
    expect(problemsAfter(mutate, '1.30')).toEqual([
      'Job/flux-sample: spec.successPolicy: field not accepted by Kubernetes 1.30 with default feature gates (needs 1.31+; JobSuccessPolicy: alpha 1.30, beta (on) 1.31)',
    ]);
    expect(problemsAfter(mutate, '1.31')).toEqual([]);
  });

  test('podFailurePolicy action FailIndex needs 1.29 although the enum knows it', () => {
    const mutate = withoutSidecar((j) => {
      j.spec.podFailurePolicy.rules[0].action = 'FailIndex';
      j.spec.backoffLimitPerIndex = 1;
    });
    expect(problemsAfter(mutate, '1.28')).toEqual([
      expect.stringMatching(/^Job\/flux-sample: spec\.backoffLimitPerIndex: unknown field \(not in kubernetes-types 1\.26\.0/),
      'Job/flux-sample: spec.podFailurePolicy.rules[0].action: value "FailIndex" not accepted by Kubernetes 1.28 with default feature gates (needs 1.29+; JobBackoffLimitPerIndex: alpha 1.28, beta (on) 1.29)',
    ]);
    expect(problemsAfter(mutate, '1.29')).toEqual([]);
  });

  test('a preStop sleep, alpha in the 1.29 types, needs 1.30', () => {
    const mutate = (j: any) => (podSpec(j).containers[0].lifecycle = { preStop: { sleep: { seconds: 5 } } });
    expect(problemsAfter(mutate, '1.29')).toEqual([
      'Job/flux-sample: spec.template.spec.containers[0].lifecycle.preStop.sleep: field not accepted by Kubernetes 1.29 with default feature gates (needs 1.30+; PodLifecycleSleepAction: alpha 1.29, beta (on) 1.30)',
      // Dropped, the sleep leaves preStop without a handler.
      'Job/flux-sample: spec.template.spec.containers[0].lifecycle.preStop: Required value: must specify a handler type (validateHandler)',
    ]);
    expect(problemsAfter(mutate, '1.30')).toEqual([]);
  });

  test('a kind newer than the target types is named as such', () => {
    const vap = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec: {} };
    expect(validateManifests([vap], { kubernetesVersion: '1.29' })).toEqual([
      'ValidatingAdmissionPolicy/p: kind: "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy" is not a GA kind of Kubernetes 1.29 (kubernetes-types 1.29.0); it exists in kubernetes-types 1.30.0+1.35, newer than the target',
    ]);
    expect(validateManifests([vap], { kubernetesVersion: '1.30' })).toEqual([]);
  });
});

describe('generated schemas', () => {
  test('match the installed kubernetes-types and the generator (else run: node tools/gen-k8s-schema.js)', () => {
    expect(generator.checkSchemas()).toEqual([]);
  });

  test('every kind of every schema has a kubernetes-models class', () => {
    for (const minor of schemaMinors()) {
      const { kinds } = loadSchema(minor);
      for (const apiVersion of Object.keys(kinds)) {
        for (const kind of Object.keys(kinds[apiVersion])) expect(() => require.resolve(`kubernetes-models/${apiVersion}/${kind}`)).not.toThrow();
      }
    }
  });

  test('a validator compiled afresh and the one loaded from the disk cache report the same', () => {
    // GIVEN no cached validator for LimitRange (a kind no other test uses)
    const file = validatorCacheFile(loadSchema('1.30'), 'core.v1.LimitRange');
    fs.rmSync(file, { force: true });
    const doc = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: [{ type: 'Container', max: { cpu: '2 cpus' }, extra: 1 }] } };
    // WHEN validating in two fresh module registries: the first compiles and writes the cache, the second loads it
    const run = () => {
      let problems: string[] = [];
      jest.isolateModules(() => {
        problems = (require('./support/k8s-validate') as typeof import('./support/k8s-validate')).validateManifests([doc]);
      });
      return problems;
    };
    const fresh = run();
    expect(fs.existsSync(file)).toBe(true);
    // THEN both report the same problems
    expect(run()).toEqual(fresh);
    expect(fresh).toEqual([
      'LimitRange/l: spec.limits[0].extra: unknown field (not in kubernetes-types 1.30.0, the newest installed types not newer than Kubernetes 1.34)',
      'LimitRange/l: spec.limits[0].max.cpu: must be a quantity like 500m, 2 or 1.5Gi, got "2 cpus"',
    ]);
  });
});

/**
 * The port of the API server's semantic validation (support/k8s-semantics.ts), through
 * validateManifests: every rule fires on one small bad manifest, with the API server's message and
 * the upstream function, and good manifests pass for every supported minor.
 */
import { compareMinor } from './support/k8s-schema';
import { semanticFindings } from './support/k8s-semantics';
import { validateManifests } from './support/k8s-validate';

const VERSIONS = ['1.29', '1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36'];

/** An Indexed Job shaped like the MiniCluster's: failure and success policies, a native sidecar. */
function job(): any {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'flux-sample', namespace: 'hpc', labels: { 'app.kubernetes.io/name': 'minicluster' } },
    spec: {
      completionMode: 'Indexed',
      completions: 4,
      parallelism: 4,
      backoffLimit: 100,
      backoffLimitPerIndex: 3,
      maxFailedIndexes: 0,
      podReplacementPolicy: 'Failed',
      activeDeadlineSeconds: 3600,
      ttlSecondsAfterFinished: 60,
      podFailurePolicy: {
        rules: [
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
          { action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'In', values: [64, 70, 81] } },
          { action: 'FailJob', onExitCodes: { containerName: 'flux-sample', operator: 'NotIn', values: [0] } },
        ],
      },
      successPolicy: { rules: [{ succeededIndexes: '0' }] },
      template: {
        metadata: { labels: { 'flux-framework.org/minicluster': 'flux-sample' }, annotations: { note: 'x' } },
        spec: {
          restartPolicy: 'Never',
          subdomain: 'flux-sample',
          setHostnameAsFQDN: false,
          securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
          initContainers: [
            {
              name: 'flux-view',
              image: 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble',
              command: ['/bin/bash', '/flux_operator/flux-init.sh'],
              volumeMounts: [{ name: 'flux-view', mountPath: '/mnt/flux' }, { name: 'entrypoint', mountPath: '/flux_operator', readOnly: true }],
            },
            {
              name: 'flux-handshake',
              image: 'docker.io/library/node:22.11.0-alpine3.20',
              restartPolicy: 'Always',
              ports: [{ name: 'handshake', containerPort: 8060, protocol: 'TCP' }],
              env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
              startupProbe: { exec: { command: ['test', '-f', '/mnt/flux-handshake/ready'] }, periodSeconds: 1, failureThreshold: 330 },
              resources: { requests: { cpu: '10m', memory: '48Mi' }, limits: { memory: '128Mi' } },
              terminationMessagePolicy: 'FallbackToLogsOnError',
              volumeMounts: [{ name: 'handshake', mountPath: '/mnt/flux-handshake' }],
            },
          ],
          containers: [
            {
              name: 'flux-sample',
              image: 'ghcr.io/rse-ops/lammps:latest',
              command: ['/bin/bash', '/flux_operator/entrypoint.sh'],
              env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'creds', key: 'token' } } }, { name: 'LOG_LEVEL', value: '1' }],
              resources: { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi', 'nvidia.com/gpu': '1' } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
              volumeMounts: [
                { name: 'flux-view', mountPath: '/mnt/flux' },
                { name: 'entrypoint', mountPath: '/flux_operator', readOnly: true },
                { name: 'curve', mountPath: '/etc/flux-curve', readOnly: true },
                { name: 'handshake', mountPath: '/mnt/flux-handshake', readOnly: true },
              ],
            },
          ],
          volumes: [
            { name: 'flux-view', emptyDir: {} },
            { name: 'entrypoint', configMap: { name: 'flux-sample-entrypoint', defaultMode: 0o555, items: [{ key: 'entrypoint.sh', path: 'entrypoint.sh' }] } },
            { name: 'curve', secret: { secretName: 'flux-sample-curve', defaultMode: 0o400, items: [{ key: 'curve.cert', path: 'curve.cert' }] } },
            { name: 'handshake', emptyDir: {} },
          ],
          tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [{
                weight: 100,
                podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'flux-framework.org/minicluster', operator: 'In', values: ['flux-sample'] }] }, topologyKey: 'kubernetes.io/hostname' },
              }],
            },
          },
        },
      },
    },
  };
}

/** The headless Service of the brokers. */
function service(): any {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'flux-sample', namespace: 'hpc' },
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { 'flux-framework.org/minicluster': 'flux-sample' },
      ports: [{ name: 'flux', port: 8050, targetPort: 8050, protocol: 'TCP' }],
    },
  };
}

function configMap(): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flux-sample-entrypoint', namespace: 'hpc' }, data: { 'broker.toml': '[bootstrap]\n', 'entrypoint.sh': '#!/bin/bash\n' } };
}

function secret(): any {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'flux-sample-curve', namespace: 'hpc' }, type: 'Opaque', data: { 'curve.cert': Buffer.from('cert').toString('base64') } };
}

function serviceAccount(): any {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'flux-sample-curve-cert', namespace: 'hpc' }, automountServiceAccountToken: false };
}

function role(): any {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'flux-sample-curve-cert', namespace: 'hpc' },
    rules: [
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      { apiGroups: [''], resources: ['secrets'], resourceNames: ['flux-sample-curve'], verbs: ['get'] },
    ],
  };
}

function roleBinding(): any {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'flux-sample-curve-cert', namespace: 'hpc' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'flux-sample-curve-cert' },
    subjects: [{ kind: 'ServiceAccount', name: 'flux-sample-curve-cert', namespace: 'hpc' }],
  };
}

function networkPolicy(): any {
  const peers = () => [{ podSelector: { matchLabels: { 'flux-framework.org/minicluster': 'flux-sample' } } }];
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'flux-sample', namespace: 'hpc' },
    spec: {
      podSelector: { matchLabels: { 'flux-framework.org/minicluster': 'flux-sample' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: peers(), ports: [{ protocol: 'TCP', port: 8050 }] }],
      egress: [{ to: peers() }, { ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] }],
    },
  };
}

const BASES: Record<string, () => any> = { job, service, configMap, secret, serviceAccount, role, roleBinding, networkPolicy };

const pod = (j: any) => j.spec.template.spec;
const main = (j: any) => pod(j).containers[0];
const sidecar = (j: any) => pod(j).initContainers[1];
const rule = (j: any, i: number) => j.spec.podFailurePolicy.rules[i];

/** Problems of one base object after `mutate`, for `version`. */
function problems(base: string, mutate: (o: any) => void, version = '1.34'): string[] {
  const doc = BASES[base]();
  mutate(doc);
  return validateManifests([doc], { kubernetesVersion: version });
}

describe('good manifests pass', () => {
  test.each(VERSIONS)('every base object is valid for Kubernetes %s', (version) => {
    // GIVEN objects shaped like a MiniCluster's (native sidecar, backoffLimitPerIndex: 1.29+)
    const docs = Object.values(BASES).map((make) => make());
    // WHEN validated for the version, managedBy and successPolicy removed where the minor drops them
    // THEN nothing is reported
    expect(validateManifests(docs.map((d) => (d.kind === 'Job' && compareMinor(version, '1.31') < 0 ? withoutSuccessPolicy(d) : d)), { kubernetesVersion: version })).toEqual([]);
  });

  test.each(['1.27', '1.28'])('without the 1.29 features, every base object is valid for Kubernetes %s', (version) => {
    // GIVEN the Job as a MiniCluster synthesizes it before 1.29: plain init container, no per-index limits
    const docs = Object.values(BASES).map((make) => make());
    const j = withoutSuccessPolicy(docs[0]);
    for (const f of ['backoffLimitPerIndex', 'maxFailedIndexes', 'podReplacementPolicy']) delete j.spec[f];
    pod(j).initContainers = [pod(j).initContainers[0]];
    pod(j).containers[0].volumeMounts.pop();
    // THEN nothing is reported
    expect(validateManifests(docs, { kubernetesVersion: version })).toEqual([]);
  });

  test('a native sidecar may have probes and lifecycle hooks; an onExitCodes rule may name an init container', () => {
    expect(problems('job', (j) => {
      sidecar(j).readinessProbe = { tcpSocket: { port: 'handshake' } };
      sidecar(j).livenessProbe = { httpGet: { port: 8060, path: '/healthz' }, successThreshold: 1 };
      sidecar(j).lifecycle = { preStop: { exec: { command: ['true'] } } };
      rule(j, 1).onExitCodes.containerName = 'flux-handshake';
    })).toEqual([]);
  });

  test('defaults the API server applies first are taken into account', () => {
    // GIVEN an unset targetPort (the port), a probe successThreshold of 0 (1) and an unset fieldRef apiVersion (v1)
    expect(problems('service', (s) => delete s.spec.ports[0].targetPort)).toEqual([]);
    expect(problems('job', (j) => (sidecar(j).startupProbe.successThreshold = 0))).toEqual([]);
  });

  test('semanticFindings alone accepts any shape without throwing', () => {
    for (const odd of [null, 42, 'x', [], {}, { apiVersion: 'batch/v1', kind: 'Job', spec: { template: 7 } }, { apiVersion: 'v1', kind: 'Service', spec: [] }]) {
      expect(() => semanticFindings(odd, '1.34')).not.toThrow();
    }
  });
});

const withoutSuccessPolicy = (j: any) => {
  delete j.spec.successPolicy;
  return j;
};

type Row = [string, string, (o: any) => void, string[]];

/** Shorthand for an expected line. */
const at = (object: string, path: string, body: string) => `${object}: ${path}: ${body}`;
const J = 'Job/flux-sample';
const S = 'Service/flux-sample';

describe('batch/v1 Job (validateJobSpec)', () => {
  test.each<Row>([
    ['Indexed needs completions', 'job', (j) => delete j.spec.completions,
      [at(J, 'spec.completions', 'Required value: when completion mode is Indexed (validateJobSpec)')]],
    ['Indexed parallelism is at most 100000', 'job', (j) => (j.spec.parallelism = 100001),
      [at(J, 'spec.parallelism', 'Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed (validateJobSpec)')]],
    ['maxFailedIndexes is at most completions', 'job', (j) => (j.spec.maxFailedIndexes = 5),
      [at(J, 'spec.maxFailedIndexes', 'Invalid value: 5: must be less than or equal to completions (validateJobSpec)')]],
    ['maxFailedIndexes needs backoffLimitPerIndex', 'job', (j) => delete j.spec.backoffLimitPerIndex,
      [at(J, 'spec.backoffLimitPerIndex', 'Required value: when maxFailedIndexes is specified (validateJobSpec)')]],
    ['backoffLimitPerIndex needs Indexed', 'job', (j) => {
      j.spec.completionMode = 'NonIndexed';
      delete j.spec.maxFailedIndexes;
      delete j.spec.successPolicy;
    }, [at(J, 'spec.backoffLimitPerIndex', 'Invalid value: 3: requires indexed completion mode (validateJobSpec)')]],
    ['over 100000 completions with backoffLimitPerIndex need maxFailedIndexes', 'job', (j) => {
      j.spec.completions = 100001;
      delete j.spec.maxFailedIndexes;
    }, [at(J, 'spec.maxFailedIndexes', 'Required value: must be specified when completions is above 100000 (validateJobSpec)')]],
    ['non-negative counts', 'job', (j) => (j.spec.ttlSecondsAfterFinished = -1),
      [at(J, 'spec.ttlSecondsAfterFinished', 'Invalid value: -1: must be greater than or equal to 0 (ValidateNonnegativeField)')]],
    ['the pod hostname <name>-<completions-1> is a DNS label', 'job', (j) => {
      j.metadata.name = 'a'.repeat(60);
      j.spec.completions = 1000;
    }, [at(`Job/${'a'.repeat(60)}`, 'metadata.name', `Invalid value: "${'a'.repeat(60)}": will not able to create pod with invalid DNS label: ${'a'.repeat(60)}-999 (ValidateJob)`)]],
    ['a Job name over 63 characters cannot be the job-name label the API server adds', 'job', (j) => {
      j.metadata.name = 'b'.repeat(64);
      j.spec.completionMode = 'NonIndexed';
      for (const f of ['backoffLimitPerIndex', 'maxFailedIndexes', 'successPolicy']) delete j.spec[f];
    }, [at(`Job/${'b'.repeat(64)}`, 'spec.template.metadata.labels', `Invalid value: "${'b'.repeat(64)}": must be no more than 63 characters (ValidateLabels)`)]],
    ['restartPolicy must be set (it defaults to Always)', 'job', (j) => delete pod(j).restartPolicy,
      [at(J, 'spec.template.spec.restartPolicy', 'Required value: valid values: "OnFailure", "Never" (validateJobSpec)')]],
    ['restartPolicy Always is not allowed', 'job', (j) => (pod(j).restartPolicy = 'Always'),
      [at(J, 'spec.template.spec.restartPolicy', 'Required value: valid values: "OnFailure", "Never" (validateJobSpec)')]],
    ['podFailurePolicy needs restartPolicy Never', 'job', (j) => (pod(j).restartPolicy = 'OnFailure'),
      [at(J, 'spec.template.spec.restartPolicy', 'Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified (validateJobSpec)')]],
    ['podReplacementPolicy is Failed with a podFailurePolicy', 'job', (j) => (j.spec.podReplacementPolicy = 'TerminatingOrFailed'),
      [at(J, 'spec.podReplacementPolicy', 'Unsupported value: "TerminatingOrFailed": supported values: "Failed" (validatePodReplacementPolicy)')]],
    ['managedBy is a domain-prefixed path', 'job', (j) => (j.spec.managedBy = 'kueue'),
      [at(J, 'spec.managedBy', 'Invalid value: "kueue": must be a domain-prefixed path (such as "acme.io/foo") (IsDomainPrefixedPath)')]],
    ['managedBy is at most 63 characters', 'job', (j) => (j.spec.managedBy = `example.com/${'c'.repeat(52)}`),
      [at(J, 'spec.managedBy', 'Too long: may not be more than 63 bytes (validateJobSpec)')]],
    ['a selector without manualSelector is generated', 'job', (j) => (j.spec.selector = { matchLabels: { 'flux-framework.org/minicluster': 'flux-sample' } }),
      [at(J, 'spec.selector', 'Invalid value: {"matchLabels":{"batch.kubernetes.io/controller-uid":"00000000-0000-4000-8000-000000000000","flux-framework.org/minicluster":"flux-sample"}}: `selector` not auto-generated (validateGeneratedSelector)')]],
    ['a manual selector must match the template labels', 'job', (j) => {
      j.spec.manualSelector = true;
      j.spec.selector = { matchLabels: { app: 'other' } };
    }, [at(J, 'spec.template.metadata.labels', 'Invalid value: {"flux-framework.org/minicluster":"flux-sample"}: `selector` does not match template `labels` (ValidateJobSpec)')]],
    ['manualSelector needs a selector', 'job', (j) => (j.spec.manualSelector = true),
      [at(J, 'spec.selector', 'Required value (ValidateJobSpec)')]],
    ['a template job-name label must be the Job name', 'job', (j) => (j.spec.template.metadata.labels['batch.kubernetes.io/job-name'] = 'other'),
      [at(J, 'spec.template.metadata.labels["batch.kubernetes.io/job-name"]', 'Invalid value: {"flux-framework.org/minicluster":"flux-sample","batch.kubernetes.io/job-name":"other"}: must be \'flux-sample\' (ValidateHasLabel)')]],
    ['a template controller-uid label cannot be known ahead', 'job', (j) => (j.spec.template.metadata.labels['controller-uid'] = 'abc'),
      [at(J, 'spec.template.metadata.labels.controller-uid', 'Invalid value: {"flux-framework.org/minicluster":"flux-sample","controller-uid":"abc"}: must be the Job\'s UID, which the API server assigns on create (ValidateHasLabel)')]],
  ])('%s', (_name, base, mutate, expected) => {
    // GIVEN a valid object with one rule broken; WHEN validated for 1.34; THEN exactly that rule's message
    expect(problems(base, mutate)).toEqual(expected);
  });
});

describe('batch/v1 Job podFailurePolicy (validatePodFailurePolicy)', () => {
  test.each<Row>([
    ['at most 20 rules', 'job', (j) => (j.spec.podFailurePolicy.rules = Array.from({ length: 21 }, () => ({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }))),
      [at(J, 'spec.podFailurePolicy.rules', 'Too many: 21: must have at most 20 items (validatePodFailurePolicy)')]],
    ['onExitCodes.containerName names a container or init container', 'job', (j) => (rule(j, 1).onExitCodes.containerName = 'runner'),
      [at(J, 'spec.podFailurePolicy.rules[1].onExitCodes.containerName', 'Invalid value: "runner": must be one of the container or initContainer names in the pod template (validatePodFailurePolicyRuleOnExitCodes)')]],
    ['operator In must not list 0', 'job', (j) => (rule(j, 1).onExitCodes.values = [0, 64]),
      [at(J, 'spec.podFailurePolicy.rules[1].onExitCodes.values[0]', 'Invalid value: 0: must not be 0 for the In operator (validatePodFailurePolicyRuleOnExitCodes)')]],
    ['values are unique', 'job', (j) => (rule(j, 1).onExitCodes.values = [64, 64]),
      [at(J, 'spec.podFailurePolicy.rules[1].onExitCodes.values[1]', 'Duplicate value: 64 (validatePodFailurePolicyRuleOnExitCodes)')]],
    ['values are sorted', 'job', (j) => (rule(j, 1).onExitCodes.values = [70, 64]),
      [at(J, 'spec.podFailurePolicy.rules[1].onExitCodes.values', 'Invalid value: [70,64]: must be ordered (validatePodFailurePolicyRuleOnExitCodes)')]],
    ['at most 255 values', 'job', (j) => (rule(j, 1).onExitCodes.values = Array.from({ length: 256 }, (_, i) => i + 1)),
      [at(J, 'spec.podFailurePolicy.rules[1].onExitCodes.values', 'Too many: 256: must have at most 255 items (validatePodFailurePolicyRuleOnExitCodes)')]],
    ['at least one value', 'job', (j) => (rule(j, 1).onExitCodes.values = []),
      [at(J, 'spec.podFailurePolicy.rules[1].onExitCodes.values', 'Invalid value: []: at least one value is required (validatePodFailurePolicyRuleOnExitCodes)')]],
    ['FailIndex needs backoffLimitPerIndex', 'job', (j) => {
      delete j.spec.backoffLimitPerIndex;
      delete j.spec.maxFailedIndexes;
      rule(j, 1).action = 'FailIndex';
    }, [at(J, 'spec.podFailurePolicy.rules[1].action', 'Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set (validatePodFailurePolicyRule)')]],
    ['not both onExitCodes and onPodConditions', 'job', (j) => (rule(j, 1).onPodConditions = [{ type: 'DisruptionTarget', status: 'True' }]),
      [at(J, 'spec.podFailurePolicy.rules[1]', 'Invalid value: "object": specifying both OnExitCodes and OnPodConditions is not supported (validatePodFailurePolicyRule)')]],
    ['one of onExitCodes and onPodConditions', 'job', (j) => delete rule(j, 1).onExitCodes,
      [at(J, 'spec.podFailurePolicy.rules[1]', 'Invalid value: "object": specifying one of OnExitCodes and OnPodConditions is required (validatePodFailurePolicyRule)')]],
    ['onPodConditions status is True, False or Unknown', 'job', (j) => (rule(j, 0).onPodConditions[0].status = 'Yes'),
      [at(J, 'spec.podFailurePolicy.rules[0].onPodConditions[0].status', 'Unsupported value: "Yes": supported values: "False", "True", "Unknown" (validatePodFailurePolicyRuleOnPodConditions)')]],
    ['onPodConditions type is a qualified name', 'job', (j) => (rule(j, 0).onPodConditions[0].type = 'Disruption Target'),
      [at(J, 'spec.podFailurePolicy.rules[0].onPodConditions[0].type', "Invalid value: \"Disruption Target\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName' or 'my.name' or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') (validatePodFailurePolicyRuleOnPodConditions)")]],
  ])('%s', (_name, base, mutate, expected) => {
    expect(problems(base, mutate)).toEqual(expected);
  });
});

describe('batch/v1 Job successPolicy (validateSuccessPolicy)', () => {
  test.each<Row>([
    ['only for Indexed Jobs', 'job', (j) => {
      j.spec.completionMode = 'NonIndexed';
      delete j.spec.backoffLimitPerIndex;
      delete j.spec.maxFailedIndexes;
    }, [at(J, 'spec.successPolicy', 'Invalid value: {"rules":[{"succeededIndexes":"0"}]}: requires indexed completion mode (validateJobSpec)')]],
    ['at least one rule', 'job', (j) => (j.spec.successPolicy.rules = []),
      [at(J, 'spec.successPolicy.rules', 'Required value: at least one rules must be specified when the successPolicy is specified (validateSuccessPolicy)')]],
    ['a rule needs succeededCount or succeededIndexes', 'job', (j) => (j.spec.successPolicy.rules = [{}]),
      [at(J, 'spec.successPolicy.rules[0]', 'Required value: at least one of succeededCount or succeededIndexes must be specified (validateSuccessPolicyRule)')]],
    ['succeededIndexes intervals increase', 'job', (j) => (j.spec.successPolicy.rules[0].succeededIndexes = '2-1'),
      [at(J, 'spec.successPolicy.rules[0].succeededIndexes', 'Invalid value: "2-1": error parsing succeededIndexes: non-increasing order, previous: 2, current: 1 (validateSuccessPolicyRule)')]],
    ['succeededIndexes are below completions', 'job', (j) => (j.spec.successPolicy.rules[0].succeededIndexes = '0,4'),
      [at(J, 'spec.successPolicy.rules[0].succeededIndexes', 'Invalid value: "0,4": error parsing succeededIndexes: too large index: "4" (validateSuccessPolicyRule)')]],
    ['succeededIndexes are numbers', 'job', (j) => (j.spec.successPolicy.rules[0].succeededIndexes = 'first'),
      [at(J, 'spec.successPolicy.rules[0].succeededIndexes', 'Invalid value: "first": error parsing succeededIndexes: cannot convert string to integer for index: "first" (validateSuccessPolicyRule)')]],
    ['succeededCount is at most completions', 'job', (j) => (j.spec.successPolicy.rules = [{ succeededCount: 5 }]),
      [at(J, 'spec.successPolicy.rules[0].succeededCount', 'Invalid value: 5: must be less than or equal to 4 (the number of specified completions) (validateSuccessPolicyRule)')]],
    ['succeededCount is at most the succeededIndexes', 'job', (j) => (j.spec.successPolicy.rules = [{ succeededIndexes: '0-1', succeededCount: 3 }]),
      [at(J, 'spec.successPolicy.rules[0].succeededCount', 'Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field) (validateSuccessPolicyRule)')]],
  ])('%s', (_name, base, mutate, expected) => {
    expect(problems(base, mutate)).toEqual(expected);
  });
});

describe('feature gates: a field the minor drops leaves its dependants unmet', () => {
  test('managedBy is dropped before 1.32, so a bad value is not checked there', () => {
    const bad = (j: any) => (j.spec.managedBy = 'kueue');
    expect(problems('job', bad, '1.31')).toEqual([
      at(J, 'spec.managedBy', 'field not accepted by Kubernetes 1.31 with default feature gates (needs 1.32+; JobManagedBy: alpha 1.30, beta (on) 1.32)'),
    ]);
    expect(problems('job', bad, '1.32')).toEqual([
      at(J, 'spec.managedBy', 'Invalid value: "kueue": must be a domain-prefixed path (such as "acme.io/foo") (IsDomainPrefixedPath)'),
    ]);
  });

  test('env var names: strict before 1.32 (RelaxedEnvironmentVariableValidation), any printable ASCII but = from 1.32', () => {
    const digit = (j: any) => (main(j).env[1].name = '1_LEVEL');
    expect(problems('job', digit, '1.31')).toEqual([
      at(J, 'spec.template.spec.containers[0].env[1].name', "Invalid value: \"1_LEVEL\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name' or 'MY_ENV.NAME' or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*') (ValidateEnv)"),
    ]);
    expect(problems('job', digit, '1.32')).toEqual([]);
    expect(problems('job', (j) => (main(j).env[1].name = 'A=B'), '1.32')).toEqual([
      at(J, 'spec.template.spec.containers[0].env[1].name', "Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '=' (ValidateEnv)"),
    ]);
  });

  test('fieldRef status.hostIPs needs 1.29 (PodHostIPs)', () => {
    const hostIPs = (j: any) => (sidecar(j).env[0].valueFrom.fieldRef.fieldPath = 'status.hostIPs');
    const sidecarless = (j: any) => {
      hostIPs(j);
      const handshake = sidecar(j);
      delete handshake.restartPolicy;
      delete handshake.startupProbe;
      pod(j).initContainers = [handshake];
    };
    expect(problems('job', sidecarless, '1.28').filter((p) => p.includes('fieldRef'))).toEqual([
      at(J, 'spec.template.spec.initContainers[0].env[0].valueFrom.fieldRef.fieldPath', 'Unsupported value: "status.hostIPs": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.podIP", "status.podIPs" (validateObjectFieldSelector)'),
    ]);
    expect(problems('job', (j) => hostIPs(withoutSuccessPolicy(j)), '1.29')).toEqual([]);
  });

  test('Service trafficDistribution PreferSameZone needs 1.34', () => {
    const zone = (s: any) => (s.spec.trafficDistribution = 'PreferSameZone');
    expect(problems('service', zone, '1.33')).toEqual([
      at(S, 'spec.trafficDistribution', 'Unsupported value: "PreferSameZone": supported values: "PreferClose" (validateServiceTrafficDistribution)'),
    ]);
    expect(problems('service', zone, '1.34')).toEqual([]);
  });
});

describe('core/v1 PodSpec (ValidatePodSpec)', () => {
  const P = 'spec.template.spec';
  test.each<Row>([
    ['container names are unique across containers and init containers', 'job', (j) => (sidecar(j).name = 'flux-sample'),
      [at(J, `${P}.initContainers[1].name`, 'Duplicate value: "flux-sample" (validateInitContainers)')]],
    ['container names are unique among containers', 'job', (j) => pod(j).containers.push({ ...main(j), volumeMounts: [] }),
      [at(J, `${P}.containers[1].name`, 'Duplicate value: "flux-sample" (validateContainers)')]],
    ['a container name is a DNS label', 'job', (j) => (pod(j).initContainers[0].name = 'flux_view'),
      [at(J, `${P}.initContainers[0].name`, "Invalid value: \"flux_view\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name' or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') (validateContainerCommon)")]],
    ['a port name is at most 15 characters', 'job', (j) => (sidecar(j).ports[0].name = 'handshake-server'),
      [at(J, `${P}.initContainers[1].ports[0].name`, 'Invalid value: "handshake-server": must be no more than 15 characters (validateContainerPorts)')]],
    ['a port name is an IANA service name', 'job', (j) => (sidecar(j).ports[0].name = 'Handshake'),
      [
        at(J, `${P}.initContainers[1].ports[0].name`, 'Invalid value: "Handshake": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-) (validateContainerPorts)'),
      ]],
    ['port names are unique in a container', 'job', (j) => sidecar(j).ports.push({ name: 'handshake', containerPort: 8061, protocol: 'TCP' }),
      [at(J, `${P}.initContainers[1].ports[1].name`, 'Duplicate value: "handshake" (validateContainerPorts)')]],
    ['containerPort is required', 'job', (j) => (sidecar(j).ports[0].containerPort = 0),
      [at(J, `${P}.initContainers[1].ports[0].containerPort`, 'Required value (validateContainerPorts)')]],
    ['host ports do not collide', 'job', (j) => {
      main(j).ports = [{ containerPort: 80, hostPort: 8080 }];
      pod(j).containers.push({ name: 'web', image: 'nginx', ports: [{ containerPort: 81, hostPort: 8080 }] });
    }, [at(J, `${P}.containers[1].ports[0].hostPort`, 'Duplicate value: "TCP//8080" (AccumulateUniqueHostPorts)')]],
    ['volume names are unique', 'job', (j) => pod(j).volumes.push({ name: 'handshake', emptyDir: {} }),
      [at(J, `${P}.volumes[4].name`, 'Duplicate value: "handshake" (ValidateVolumes)')]],
    ['a volume name is a DNS label', 'job', (j) => pod(j).volumes.push({ name: 'Scratch', emptyDir: {} }),
      [at(J, `${P}.volumes[4].name`, "Invalid value: \"Scratch\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name' or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') (ValidateVolumes)")]],
    ['a volume has a source', 'job', (j) => pod(j).volumes.push({ name: 'scratch' }),
      [at(J, `${P}.volumes[4]`, 'Required value: must specify a volume type (validateVolumeSource)')]],
    // An invalid volume is left out of the pod's volumes, so its mounts are not found either (as upstream).
    ['a volume has one source', 'job', (j) => (pod(j).volumes[0].hostPath = { path: '/srv' }),
      [
        at(J, `${P}.containers[0].volumeMounts[0].name`, 'Not found: "flux-view" (ValidateVolumeMounts)'),
        at(J, `${P}.initContainers[0].volumeMounts[0].name`, 'Not found: "flux-view" (ValidateVolumeMounts)'),
        at(J, `${P}.volumes[0].hostPath`, 'Forbidden: may not specify more than 1 volume type (validateVolumeSource)'),
      ]],
    ['every volumeMount names a volume', 'job', (j) => (main(j).volumeMounts[0].name = 'flux-viewer'),
      [at(J, `${P}.containers[0].volumeMounts[0].name`, 'Not found: "flux-viewer" (ValidateVolumeMounts)')]],
    ['mount paths are unique in a container', 'job', (j) => (main(j).volumeMounts[3].mountPath = '/mnt/flux'),
      [at(J, `${P}.containers[0].volumeMounts[3].mountPath`, 'Invalid value: "/mnt/flux": must be unique (ValidateVolumeMounts)')]],
    // The volume rules on an extra, unmounted volume: an invalid volume's mounts would not be found too.
    ['configMap defaultMode is 0 to 0777', 'job', (j) => pod(j).volumes.push({ name: 'extra', configMap: { name: 'x', defaultMode: 0o1000 } }),
      [at(J, `${P}.volumes[4].configMap.defaultMode`, 'Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive (validateConfigMapVolumeSource)')]],
    ['secret defaultMode is 0 to 0777', 'job', (j) => pod(j).volumes.push({ name: 'extra', secret: { secretName: 'x', defaultMode: -1 } }),
      [at(J, `${P}.volumes[4].secret.defaultMode`, 'Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive (validateSecretVolumeSource)')]],
    ['items paths are relative', 'job', (j) => pod(j).volumes.push({ name: 'extra', configMap: { name: 'x', items: [{ key: 'a', path: '/a' }] } }),
      [at(J, `${P}.volumes[4].configMap.items[0].path`, 'Invalid value: "/a": must be a relative path (validateLocalDescendingPath)')]],
    ['items paths do not step out', 'job', (j) => pod(j).volumes.push({ name: 'extra', secret: { secretName: 'x', items: [{ key: 'a', path: 'a/../../b' }] } }),
      [at(J, `${P}.volumes[4].secret.items[0].path`, 'Invalid value: "a/../../b": must not contain \'..\' (validatePathNoBacksteps)')]],
    ['items keys are required', 'job', (j) => pod(j).volumes.push({ name: 'extra', secret: { secretName: 'x', items: [{ key: '', path: 'a' }] } }),
      [at(J, `${P}.volumes[4].secret.items[0].key`, 'Required value (validateKeyToPath)')]],
    ['a hostPath has no backsteps', 'job', (j) => pod(j).volumes.push({ name: 'extra', hostPath: { path: '/srv/../etc' } }),
      [at(J, `${P}.volumes[4].hostPath.path`, 'Invalid value: "/srv/../etc": must not contain \'..\' (validatePathNoBacksteps)')]],
    ['a plain init container has no startupProbe', 'job', (j) => (pod(j).initContainers[0].startupProbe = { exec: { command: ['true'] } }),
      [at(J, `${P}.initContainers[0].startupProbe`, 'Forbidden: may not be set for init containers without restartPolicy=Always (validateInitContainers)')]],
    ['a plain init container has no readinessProbe', 'job', (j) => (pod(j).initContainers[0].readinessProbe = { exec: { command: ['true'] } }),
      [at(J, `${P}.initContainers[0].readinessProbe`, 'Forbidden: may not be set for init containers without restartPolicy=Always (validateInitContainers)')]],
    ['a plain init container has no livenessProbe', 'job', (j) => (pod(j).initContainers[0].livenessProbe = { exec: { command: ['true'] } }),
      [at(J, `${P}.initContainers[0].livenessProbe`, 'Forbidden: may not be set for init containers without restartPolicy=Always (validateInitContainers)')]],
    ['a plain init container has no lifecycle', 'job', (j) => (pod(j).initContainers[0].lifecycle = { preStop: { exec: { command: ['true'] } } }),
      [at(J, `${P}.initContainers[0].lifecycle`, 'Forbidden: may not be set for init containers without restartPolicy=Always (validateInitContainers)')]],
    ['a probe has exactly one handler', 'job', (j) => (sidecar(j).startupProbe.tcpSocket = { port: 8060 }),
      [at(J, `${P}.initContainers[1].startupProbe.tcpSocket`, 'Forbidden: may not specify more than 1 handler type (validateHandler)')]],
    ['a probe has a handler', 'job', (j) => delete sidecar(j).startupProbe.exec,
      [at(J, `${P}.initContainers[1].startupProbe`, 'Required value: must specify a handler type (validateHandler)')]],
    ['a startup probe succeeds once', 'job', (j) => (sidecar(j).startupProbe.successThreshold = 2),
      [at(J, `${P}.initContainers[1].startupProbe.successThreshold`, 'Invalid value: 2: must be 1 (validateStartupProbe)')]],
    ['a liveness probe succeeds once', 'job', (j) => (main(j).livenessProbe = { exec: { command: ['true'] }, successThreshold: 3 }),
      [at(J, `${P}.containers[0].livenessProbe.successThreshold`, 'Invalid value: 3: must be 1 (validateLivenessProbe)')]],
    ['a readiness probe has no terminationGracePeriodSeconds', 'job', (j) => (main(j).readinessProbe = { exec: { command: ['true'] }, terminationGracePeriodSeconds: 5 }),
      [at(J, `${P}.containers[0].readinessProbe.terminationGracePeriodSeconds`, 'Invalid value: 5: must not be set for readinessProbes (validateReadinessProbe)')]],
    ['probe periods are not negative', 'job', (j) => (sidecar(j).startupProbe.periodSeconds = -1),
      [at(J, `${P}.initContainers[1].startupProbe.periodSeconds`, 'Invalid value: -1: must be greater than or equal to 0 (ValidateNonnegativeField)')]],
    ['an exec handler has a command', 'job', (j) => (sidecar(j).startupProbe.exec.command = []),
      [at(J, `${P}.initContainers[1].startupProbe.exec.command`, 'Required value (validateExecAction)')]],
    ['requests are at most limits', 'job', (j) => (main(j).resources.requests.cpu = '2500m'),
      [at(J, `${P}.containers[0].resources.requests`, 'Invalid value: "2500m": must be less than or equal to cpu limit of 2 (validateResourceRequirements)')]],
    ['an extended resource request equals its limit', 'job', (j) => (main(j).resources.requests['nvidia.com/gpu'] = '2'),
      [at(J, `${P}.containers[0].resources.requests`, 'Invalid value: "2": must be equal to nvidia.com/gpu limit of 1 (validateResourceRequirements)')]],
    ['an extended resource request needs a limit', 'job', (j) => (sidecar(j).resources.requests['example.com/fpga'] = '1'),
      [at(J, `${P}.initContainers[1].resources.limits`, 'Required value: Limit must be set for non overcommitable resources (validateResourceRequirements)')]],
    ['an extended resource is a whole number', 'job', (j) => (main(j).resources.limits['nvidia.com/gpu'] = '500m'),
      [at(J, `${P}.containers[0].resources.limits["nvidia.com/gpu"]`, 'Invalid value: "500m": must be an integer (ValidateResourceQuantityValue)')]],
    ['a resource name is standard or fully qualified', 'job', (j) => (main(j).resources.limits.gpu = '1'),
      [at(J, `${P}.containers[0].resources.limits.gpu`, 'Invalid value: "gpu": must be a standard resource for containers (validateContainerResourceName)')]],
    ['quantities are not negative', 'job', (j) => (sidecar(j).resources.limits.memory = '-128Mi'),
      [
        at(J, `${P}.initContainers[1].resources.limits.memory`, 'Invalid value: "-128Mi": must be greater than or equal to 0 (ValidateNonnegativeQuantity)'),
        at(J, `${P}.initContainers[1].resources.requests`, 'Invalid value: "48Mi": must be less than or equal to memory limit of -128Mi (validateResourceRequirements)'),
      ]],
    ['a value and valueFrom are exclusive', 'job', (j) => (main(j).env[0].value = 'x'),
      [at(J, `${P}.containers[0].env[0].valueFrom`, 'Invalid value: "": may not be specified when `value` is not empty (validateEnvVarValueFrom)')]],
    ['a fieldRef path is one the downward API offers', 'job', (j) => (sidecar(j).env[0].valueFrom.fieldRef.fieldPath = 'status.nodeIP'),
      [at(J, `${P}.initContainers[1].env[0].valueFrom.fieldRef.fieldPath`, 'Invalid value: "status.nodeIP": error converting fieldPath: field label not supported: status.nodeIP (validateObjectFieldSelector)')]],
    ['labels need a subscript in an env fieldRef', 'job', (j) => (sidecar(j).env[0].valueFrom.fieldRef.fieldPath = 'metadata.labels'),
      [at(J, `${P}.initContainers[1].env[0].valueFrom.fieldRef.fieldPath`, 'Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs" (validateObjectFieldSelector)')]],
    ['a secretKeyRef key is a config key', 'job', (j) => (main(j).env[0].valueFrom.secretKeyRef.key = 'a/b'),
      [at(J, `${P}.containers[0].env[0].valueFrom.secretKeyRef.key`, "Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name' or 'KEY_NAME' or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+') (validateSecretKeySelector)")]],
    ['no privileged container with allowPrivilegeEscalation false', 'job', (j) => (main(j).securityContext.privileged = true),
      [at(J, `${P}.containers[0].securityContext`, 'Invalid value: {"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]},"privileged":true}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true (ValidateSecurityContext)')]],
    // IsValidUserID / IsValidGroupID stop at math.MaxInt32, not at the uint32 maximum.
    ['user IDs are at most 2147483647', 'job', (j) => (pod(j).securityContext.runAsUser = 2147483648),
      [at(J, `${P}.securityContext.runAsUser`, 'Invalid value: 2147483648: must be between 0 and 2147483647, inclusive (validatePodSpecSecurityContext)')]],
    ['container group IDs are at most 2147483647', 'job', (j) => (main(j).securityContext.runAsGroup = 4294967295),
      [at(J, `${P}.containers[0].securityContext.runAsGroup`, 'Invalid value: 4294967295: must be between 0 and 2147483647, inclusive (ValidateSecurityContext)')]],
    ['a user ID of 2147483647 is valid', 'job', (j) => (pod(j).securityContext.runAsUser = 2147483647), []],
    // IsHugePageResourceValueDivisible: a page size that does not parse, is not positive or not whole fits nothing.
    ['a huge page size parses', 'job', (j) => (main(j).resources.limits['hugepages-big'] = '2Mi'),
      [at(J, `${P}.containers[0].resources.limits.hugepages-big`, 'Invalid value: "2Mi": 2Mi is not positive integer multiple of hugepages-big (validateResourceQuantityHugePageValue)')]],
    ['a huge page size is positive', 'job', (j) => (main(j).resources.limits['hugepages-0'] = '0'),
      [at(J, `${P}.containers[0].resources.limits.hugepages-0`, 'Invalid value: "0": 0 is not positive integer multiple of hugepages-0 (validateResourceQuantityHugePageValue)')]],
    ['a huge page size is a whole number of bytes', 'job', (j) => (main(j).resources.limits['hugepages-1500m'] = '4'),
      [at(J, `${P}.containers[0].resources.limits.hugepages-1500m`, 'Invalid value: "4": 4 is not positive integer multiple of hugepages-1500m (validateResourceQuantityHugePageValue)')]],
    ['huge pages in whole pages are valid', 'job', (j) => (main(j).resources.limits['hugepages-2Mi'] = '4Mi'), []],
    ['a Localhost seccomp profile names its file', 'job', (j) => (pod(j).securityContext.seccompProfile = { type: 'Localhost' }),
      [at(J, `${P}.securityContext.seccompProfile.localhostProfile`, 'Required value: must be set when seccomp type is Localhost (validateSeccompProfileField)')]],
    ['shareProcessNamespace and hostPID are exclusive', 'job', (j) => Object.assign(pod(j), { shareProcessNamespace: true, hostPID: true }),
      [at(J, `${P}.shareProcessNamespace`, 'Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled (validatePodSpecSecurityContext)')]],
    ['the subdomain is a DNS label', 'job', (j) => (pod(j).subdomain = 'flux.sample'),
      [at(J, `${P}.subdomain`, 'Invalid value: "flux.sample": must not contain dots (ValidatePodSpec)')]],
    ['the hostname is a DNS label', 'job', (j) => (pod(j).hostname = 'Flux'),
      [at(J, `${P}.hostname`, "Invalid value: \"Flux\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name' or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') (ValidatePodSpec)")]],
    ['a serviceAccountName is a DNS subdomain', 'job', (j) => (pod(j).serviceAccountName = 'Flux'),
      [at(J, `${P}.serviceAccountName`, "Invalid value: \"Flux\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') (ValidatePodSpec)")]],
    ['terminationMessagePolicy is File or FallbackToLogsOnError (the schema already says so)', 'job', (j) => (sidecar(j).terminationMessagePolicy = 'Never'),
      [at(J, `${P}.initContainers[1].terminationMessagePolicy`, 'must be one of "FallbackToLogsOnError", "File", got "Never"')]],
    ['a keyless toleration must be Exists', 'job', (j) => (pod(j).tolerations = [{ operator: 'Equal', value: 'x' }]),
      [at(J, `${P}.tolerations[0].operator`, 'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys" (ValidateTolerations)')]],
    ['a pod affinity weight is 1 to 100', 'job', (j) => (pod(j).affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight = 101),
      [at(J, `${P}.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight`, 'Invalid value: 101: must be in the range 1-100 (validateWeightedPodAffinityTerms)')]],
    ['a required node affinity value is a label value', 'job', (j) => (pod(j).affinity.nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['us east'] }] }] } }),
      [at(J, `${P}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]`, "Invalid value: \"us east\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue' or 'my_value' or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?') (ValidateNodeSelectorRequirement)")]],
    ['dnsPolicy None needs a dnsConfig', 'job', (j) => (pod(j).dnsPolicy = 'None'),
      [at(J, `${P}.dnsConfig`, 'Required value: must provide `dnsConfig` when `dnsPolicy` is None (validatePodDNSConfig)')]],
    ['a pod template has no ephemeral containers', 'job', (j) => (pod(j).ephemeralContainers = [{ name: 'debug', image: 'busybox' }]),
      [at(J, `${P}.ephemeralContainers`, 'Forbidden: ephemeral containers not allowed in pod template (ValidatePodTemplateSpec)')]],
  ])('%s', (_name, base, mutate, expected) => {
    expect(problems(base, mutate)).toEqual(expected);
  });
});

describe('core/v1 Service (ValidateService)', () => {
  test.each<Row>([
    ['the name is a DNS-1035 label', 'service', (s) => (s.metadata.name = '1flux'),
      [at('Service/1flux', 'metadata.name', "Invalid value: \"1flux\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name' or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?') (ValidateObjectMetaAccessor)")]],
    ['a Service with a cluster IP needs ports', 'service', (s) => {
      delete s.spec.clusterIP;
      delete s.spec.ports;
    }, [at(S, 'spec.ports', 'Required value (ValidateService)')]],
    ['a headless Service may have no ports', 'service', (s) => delete s.spec.ports, []],
    ['ports are named when there are several', 'service', (s) => s.spec.ports.push({ port: 8060, protocol: 'TCP' }),
      [at(S, 'spec.ports[1].name', 'Required value (validateServicePort)')]],
    ['port names are unique', 'service', (s) => s.spec.ports.push({ name: 'flux', port: 8060, protocol: 'TCP' }),
      [at(S, 'spec.ports[1].name', 'Duplicate value: "flux" (validateServicePort)')]],
    ['a port name is a DNS label', 'service', (s) => (s.spec.ports[0].name = 'flux_broker'),
      [at(S, 'spec.ports[0].name', "Invalid value: \"flux_broker\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name' or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') (validateServicePort)")]],
    ['a port and protocol are unique', 'service', (s) => s.spec.ports.push({ name: 'again', port: 8050, protocol: 'TCP' }),
      [at(S, 'spec.ports[1]', 'Duplicate value: {"port":8050,"protocol":"TCP"} (ValidateService)')]],
    ['a named targetPort is an IANA service name', 'service', (s) => (s.spec.ports[0].targetPort = 'flux--broker'),
      [at(S, 'spec.ports[0].targetPort', 'Invalid value: "flux--broker": must not contain consecutive hyphens (ValidatePortNumOrName)')]],
    ['a LoadBalancer is not headless', 'service', (s) => (s.spec.type = 'LoadBalancer'),
      [at(S, 'spec.clusterIPs[0]', 'Invalid value: "None": may not be set to \'None\' for LoadBalancer services (ValidateService)')]],
    ['a ClusterIP Service has no nodePort', 'service', (s) => (s.spec.ports[0].nodePort = 30050),
      [at(S, 'spec.ports[0].nodePort', "Forbidden: may not be used when `type` is 'ClusterIP' (ValidateService)")]],
    ['externalTrafficPolicy is for externally reachable Services', 'service', (s) => (s.spec.externalTrafficPolicy = 'Local'),
      [at(S, 'spec.externalTrafficPolicy', 'Invalid value: "Local": may only be set for externally-accessible services (validateServiceExternalTrafficPolicy)')]],
    // SetDefaults_Service drops the config of a None affinity before ValidateService could forbid it.
    ['a None affinity may carry a sessionAffinityConfig (defaulting drops it)', 'service', (s) => {
      s.spec.sessionAffinity = 'None';
      s.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 60 } };
    }, []],
    ['an unset affinity (None) may carry a sessionAffinityConfig', 'service', (s) => (s.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 60 } }), []],
    ['a ClientIP affinity timeout is at most 86400', 'service', (s) => {
      s.spec.sessionAffinity = 'ClientIP';
      s.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 86401 } };
    }, [at(S, 'spec.sessionAffinityConfig.clientIP.timeoutSeconds', 'Invalid value: 86401: must be greater than 0 and less than 86400 (validateAffinityTimeout)')]],
    ['clusterIP is an IP or None', 'service', (s) => (s.spec.clusterIP = '10.0.0.300'),
      [at(S, 'spec.clusterIPs[0]', 'Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff) (ValidateServiceClusterIPsRelatedFields)')]],
    ['clusterIPs start with clusterIP', 'service', (s) => (s.spec.clusterIPs = ['10.0.0.1']),
      [at(S, 'spec.clusterIPs', 'Invalid value: ["10.0.0.1"]: first value must match `clusterIP` (ValidateServiceClusterIPsRelatedFields)')]],
    ['selector values are label values', 'service', (s) => (s.spec.selector = { app: 'flux sample' }),
      [at(S, 'spec.selector', "Invalid value: \"flux sample\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue' or 'my_value' or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?') (ValidateLabels)")]],
    ['an ExternalName Service names a host', 'service', (s) => (s.spec = { type: 'ExternalName' }),
      [at(S, 'spec.externalName', 'Required value (ValidateService)')]],
  ])('%s', (_name, base, mutate, expected) => {
    expect(problems(base, mutate)).toEqual(expected);
  });
});

describe('ConfigMap, Secret, ServiceAccount, RBAC and NetworkPolicy', () => {
  const C = 'ConfigMap/flux-sample-entrypoint';
  const SEC = 'Secret/flux-sample-curve';
  const R = 'Role/flux-sample-curve-cert';
  const RB = 'RoleBinding/flux-sample-curve-cert';
  const N = 'NetworkPolicy/flux-sample';
  test.each<Row>([
    ['ConfigMap keys are config keys', 'configMap', (c) => (c.data['etc/broker.toml'] = ''),
      [at(C, 'data["etc/broker.toml"]', "Invalid value: \"etc/broker.toml\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name' or 'KEY_NAME' or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+') (ValidateConfigMap)")]],
    ['ConfigMap keys do not start with ..', 'configMap', (c) => (c.data['..data'] = ''),
      [at(C, 'data["..data"]', "Invalid value: \"..data\": must not start with '..' (ValidateConfigMap)")]],
    ['a ConfigMap key is in data or binaryData, not both', 'configMap', (c) => (c.binaryData = { 'broker.toml': 'AA==' }),
      [at(C, 'data["broker.toml"]', 'Invalid value: "broker.toml": duplicate of key present in binaryData (ValidateConfigMap)')]],
    ['a ConfigMap holds at most 1 MiB', 'configMap', (c) => (c.data['big.txt'] = 'x'.repeat(1024 * 1024)),
      [at(C, '(document)', 'Too long: may not be more than 1048576 bytes (ValidateConfigMap)')]],
    ['a ConfigMap name is a DNS subdomain', 'configMap', (c) => (c.metadata.name = 'Flux_Entrypoint'),
      [at('ConfigMap/Flux_Entrypoint', 'metadata.name', "Invalid value: \"Flux_Entrypoint\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') (ValidateObjectMetaAccessor)")]],
    ['Secret keys are config keys, stringData included', 'secret', (s) => (s.stringData = { 'curve cert': 'x' }),
      [at(SEC, 'data["curve cert"]', "Invalid value: \"curve cert\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name' or 'KEY_NAME' or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+') (ValidateSecret)")]],
    ['a Secret holds at most 1 MiB', 'secret', (s) => (s.stringData = { big: 'x'.repeat(1024 * 1024) }),
      [at(SEC, 'data', 'Too long: may not be more than 1048576 bytes (ValidateSecret)')]],
    ['a TLS Secret has tls.crt and tls.key', 'secret', (s) => {
      s.type = 'kubernetes.io/tls';
      s.data = { 'tls.crt': 'AA==' };
    }, [at(SEC, 'data["tls.key"]', 'Required value (ValidateSecret)')]],
    ['a ServiceAccount name is a DNS subdomain', 'serviceAccount', (s) => (s.metadata.name = 'curve_cert'),
      [at('ServiceAccount/curve_cert', 'metadata.name', "Invalid value: \"curve_cert\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') (ValidateObjectMetaAccessor)")]],
    ['a Role rule has verbs', 'role', (r) => (r.rules[1].verbs = []),
      [at(R, 'rules[1].verbs', 'Required value: verbs must contain at least one value (ValidatePolicyRule)')]],
    ['a Role rule has api groups', 'role', (r) => (r.rules[0].apiGroups = []),
      [at(R, 'rules[0].apiGroups', 'Required value: resource rules must supply at least one api group (ValidatePolicyRule)')]],
    ['a Role rule has resources', 'role', (r) => delete r.rules[1].resources,
      [at(R, 'rules[1].resources', 'Required value: resource rules must supply at least one resource (ValidatePolicyRule)')]],
    ['a namespaced Role has no non-resource URLs', 'role', (r) => r.rules.push({ nonResourceURLs: ['/healthz'], verbs: ['get'] }),
      [at(R, 'rules[2].nonResourceURLs', 'Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs (ValidatePolicyRule)')]],
    ['a RoleBinding refers to an RBAC role', 'roleBinding', (b) => (b.roleRef.kind = 'ServiceAccount'),
      [at(RB, 'roleRef.kind', 'Unsupported value: "ServiceAccount": supported values: "Role", "ClusterRole" (ValidateRoleBinding)')]],
    // SetDefaults_RoleBinding and SetDefaults_Subject fill an empty apiGroup before validation.
    ['an empty roleRef apiGroup defaults to rbac.authorization.k8s.io', 'roleBinding', (b) => (b.roleRef.apiGroup = ''), []],
    ['another roleRef apiGroup is not supported', 'roleBinding', (b) => (b.roleRef.apiGroup = 'example.com'),
      [at(RB, 'roleRef.apiGroup', 'Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io" (ValidateRoleBinding)')]],
    ['User and Group subjects without an api group default to rbac.authorization.k8s.io', 'roleBinding', (b) => b.subjects.push({ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'hpc', apiGroup: '' }), []],
    ['a Group subject in another api group is not supported', 'roleBinding', (b) => b.subjects.push({ kind: 'Group', name: 'hpc', apiGroup: 'example.com' }),
      [at(RB, 'subjects[1].apiGroup', 'Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io" (ValidateRoleBindingSubject)')]],
    ['a ServiceAccount subject has no api group', 'roleBinding', (b) => (b.subjects[0].apiGroup = 'rbac.authorization.k8s.io'),
      [at(RB, 'subjects[0].apiGroup', 'Unsupported value: "rbac.authorization.k8s.io": supported values: "" (ValidateRoleBindingSubject)')]],
    ['a NetworkPolicy port is 1 to 65535', 'networkPolicy', (n) => (n.spec.ingress[0].ports[0].port = 0),
      [at(N, 'spec.ingress[0].ports[0].port', 'Invalid value: 0: must be between 1 and 65535, inclusive (ValidateNetworkPolicyPort)')]],
    ['endPort is at least port', 'networkPolicy', (n) => (n.spec.ingress[0].ports[0].endPort = 8000),
      [at(N, 'spec.ingress[0].ports[0].endPort', 'Invalid value: 8000: must be greater than or equal to `port` (ValidateNetworkPolicyPort)')]],
    ['a peer names something', 'networkPolicy', (n) => n.spec.egress[0].to.push({}),
      [at(N, 'spec.egress[0].to[1]', 'Required value: must specify a peer (ValidateNetworkPolicyPeer)')]],
    ['an ipBlock stands alone', 'networkPolicy', (n) => (n.spec.ingress[0].from[0].ipBlock = { cidr: '10.0.0.0/8' }),
      [at(N, 'spec.ingress[0].from[0]', 'Forbidden: may not specify both ipBlock and another peer (ValidateNetworkPolicyPeer)')]],
    ['an ipBlock except is inside the cidr', 'networkPolicy', (n) => n.spec.egress[0].to.push({ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }),
      [at(N, 'spec.egress[0].to[1].ipBlock.except[0]', 'Invalid value: "10.1.0.0/24": must be a strict subset of `cidr` (ValidateIPBlock)')]],
    ['a selector In expression has values', 'networkPolicy', (n) => (n.spec.podSelector = { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }),
      [at(N, 'spec.podSelector.matchExpressions[0].values', "Required value: must be specified when `operator` is 'In' or 'NotIn' (ValidateLabelSelectorRequirement)")]],
  ])('%s', (_name, base, mutate, expected) => {
    expect(problems(base, mutate)).toEqual(expected);
  });
});

describe('RBAC defaulting (SetDefaults_RoleBinding, SetDefaults_Subject)', () => {
  test('an unset roleRef or User/Group subject apiGroup is rbac.authorization.k8s.io to the semantic checks', () => {
    // GIVEN a RoleBinding whose roleRef and User subject leave apiGroup unset
    const b = roleBinding();
    delete b.roleRef.apiGroup;
    b.subjects.push({ kind: 'User', name: 'alice' });
    // WHEN the ported semantic checks run (the schema layer reports the missing field on its own)
    // THEN the API server's defaulting is applied first, so nothing is reported
    expect(semanticFindings(b, '1.34')).toEqual([]);
  });
});

describe('object metadata (ValidateObjectMeta)', () => {
  const C = 'ConfigMap/flux-sample-entrypoint';
  test.each<Row>([
    ['label keys are qualified names', 'configMap', (c) => (c.metadata.labels = { 'app name': 'flux' }),
      [at(C, 'metadata.labels', "Invalid value: \"app name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName' or 'my.name' or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') (ValidateLabelName)")]],
    ['label values are at most 63 characters', 'configMap', (c) => (c.metadata.labels = { app: 'x'.repeat(64) }),
      [at(C, 'metadata.labels', `Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters (ValidateLabels)`)]],
    ['annotation keys are qualified names', 'configMap', (c) => (c.metadata.annotations = { 'flux/operator/source': 'x' }),
      [at(C, 'metadata.annotations', "Invalid value: \"flux/operator/source\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName' or 'my.name' or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName') (ValidateAnnotations)")]],
    ['annotations total at most 256 KiB', 'configMap', (c) => (c.metadata.annotations = { a: 'x'.repeat(256 * 1024) }),
      [at(C, 'metadata.annotations', 'Too long: may not be more than 262144 bytes (ValidateAnnotations)')]],
    ['the namespace is a DNS label', 'configMap', (c) => (c.metadata.namespace = 'HPC'),
      [at(C, 'metadata.namespace', "Invalid value: \"HPC\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name' or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') (ValidateObjectMetaAccessor)")]],
    ['a custom finalizer is domain-qualified', 'configMap', (c) => (c.metadata.finalizers = ['cleanup']),
      [at(C, 'metadata.finalizers[0]', 'Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified (validateKubeFinalizerName)')]],
    // maskTrailingDash, verbatim: 'flux-.-' is checked as 'flux-a', and a lone '-' is not masked.
    ['a generateName has its last two characters masked', 'configMap', (c) => {
      delete c.metadata.name;
      c.metadata.generateName = 'flux-.-';
    }, []],
    ['a generateName of one dash is not masked', 'configMap', (c) => {
      delete c.metadata.name;
      c.metadata.generateName = '-';
    }, [at('ConfigMap/<unnamed document 0>', 'metadata.generateName', "Invalid value: \"-\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') (ValidateObjectMetaAccessor)")]],
    ['an envFrom ConfigMap name is masked like a generateName', 'job', (j) => (main(j).envFrom = [{ configMapRef: { name: 'flux-.-' } }]), []],
    ['RBAC names are path segments', 'role', (r) => (r.metadata.name = 'curve/cert'),
      [at('Role/curve/cert', 'metadata.name', "Invalid value: \"curve/cert\": may not contain '/' (ValidateObjectMetaAccessor)")]],
  ])('%s', (_name, base, mutate, expected) => {
    expect(problems(base, mutate)).toEqual(expected);
  });
});

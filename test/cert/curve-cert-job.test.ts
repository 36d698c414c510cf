import { createHash } from 'crypto';
import { Chart, Testing, Yaml } from 'cdk8s';
import { ImagePullPolicy } from 'cdk8s-plus-27';
import { CurveCertJob, CurveCertJobProps } from '../../lib/constructs/curve-cert-job';
import { parseCurveCert } from '../../lib/cert';
import { runtimeBundle } from '../../lib/core/runtime-bundle';
import { FakeKubeApi, RecordedRequest, status } from './support/fake-kube-api';
import { runCertgen, serviceAccountDir } from './support/run-certgen';
import { OPENSSL, makeTlsFixture } from './support/tls-fixture';
import { describeIf } from '../support/requires';
import { expectValidManifests } from '../support/k8s-validate';

const LABELS = {
  'app.kubernetes.io/component': 'curve-cert',
  'app.kubernetes.io/instance': 'demo',
  'app.kubernetes.io/managed-by': 'cdk8s-minicluster',
  'app.kubernetes.io/name': 'minicluster',
};

/** Synthesizes in a chart with namespace `chartNamespace` (null: a chart without namespace). */
function synth(props: Partial<CurveCertJobProps> = {}, chartNamespace: string | null = 'hpc') {
  const chart = new Chart(Testing.app(), 'test', { namespace: chartNamespace ?? undefined });
  const job = new CurveCertJob(chart, 'cert', { clusterName: 'demo', ...props });
  const docs = Testing.synth(chart);
  const byKind = (kind: string) => {
    const found = docs.filter((d) => d.kind === kind);
    expect(found).toHaveLength(1);
    return found[0];
  };
  return { job, docs, byKind, pod: byKind('Job').spec.template.spec };
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('CurveCertJob', () => {
  test('synthesizes ServiceAccount, Role, RoleBinding and the program ConfigMap before the Job, with deterministic names', () => {
    // GIVEN a chart in namespace hpc / WHEN
    const { job, docs } = synth();
    // THEN the program's ConfigMap is named after the chart and the program's content
    const hash = createHash('sha256').update(runtimeBundle('certgen')).digest('hex').slice(0, 8);
    expect(docs.map((d) => `${d.apiVersion} ${d.kind} ${d.metadata.namespace}/${d.metadata.name}`)).toEqual([
      'v1 ServiceAccount hpc/demo-curve-cert',
      'rbac.authorization.k8s.io/v1 Role hpc/demo-curve-cert',
      'rbac.authorization.k8s.io/v1 RoleBinding hpc/demo-curve-cert',
      `v1 ConfigMap hpc/test-minicluster-certgen-${hash}`,
      'batch/v1 Job hpc/demo-curve-cert',
    ]);
    expect({ secretName: job.secretName, jobName: job.jobName, serviceAccountName: job.serviceAccountName, programConfigMapName: job.programConfigMapName }).toEqual({
      secretName: 'demo-curve',
      jobName: 'demo-curve-cert',
      serviceAccountName: 'demo-curve-cert',
      programConfigMapName: `test-minicluster-certgen-${hash}`,
    });
    expectValidManifests(docs);
  });

  test('RBAC grants exactly: create secrets, and get on the one named secret', () => {
    const { docs, byKind } = synth();
    expect(byKind('Role').rules).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      { apiGroups: [''], resources: ['secrets'], resourceNames: ['demo-curve'], verbs: ['get'] },
    ]);
    expect(byKind('RoleBinding').roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'demo-curve-cert' });
    expect(byKind('RoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'demo-curve-cert', namespace: 'hpc' }]);
    expect(docs.filter((d) => /Cluster/.test(d.kind))).toEqual([]);
  });

  test('the token is mounted only in this pod: ServiceAccount false, pod true', () => {
    const { byKind, pod } = synth();
    expect(byKind('ServiceAccount').automountServiceAccountToken).toBe(false);
    expect(pod.automountServiceAccountToken).toBe(true);
    expect(pod.serviceAccountName).toBe('demo-curve-cert');
  });

  test('the Job is hardened: non-root, no escalation, no capabilities, RuntimeDefault seccomp, read-only root, small resources', () => {
    const { byKind, pod } = synth();
    expect(byKind('Job').spec).toMatchObject({ backoffLimit: 3, activeDeadlineSeconds: 300 });
    expect(byKind('Job').spec.ttlSecondsAfterFinished).toBeUndefined();
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.enableServiceLinks).toBe(false);
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers).toHaveLength(1);
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      privileged: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
    });
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } });
  });

  test('a stock Node image runs the bundled program from the ConfigMap', () => {
    const { byKind, pod } = synth();
    expect(byKind('ConfigMap').data).toEqual({ 'certgen.js': runtimeBundle('certgen') });
    expect(byKind('ConfigMap').immutable).toBe(true);
    const [container] = pod.containers;
    expect(container).toMatchObject({
      name: 'certgen',
      image: 'docker.io/library/node:22.11.0-alpine3.20',
      imagePullPolicy: 'IfNotPresent',
      command: ['node', '/program/certgen.js'],
      volumeMounts: [{ name: 'program', mountPath: '/program', readOnly: true }],
    });
    expect(pod.volumes).toEqual([{ name: 'program', configMap: { name: byKind('ConfigMap').metadata.name, defaultMode: 0o444 } }]);
    expect(container.env).toEqual([
      { name: 'CERTGEN_CERT_NAME', value: 'demo' },
      { name: 'CERTGEN_REQUEST_TIMEOUT_SECONDS', value: '10' },
      { name: 'CERTGEN_SECRET_LABELS', value: JSON.stringify(LABELS) },
      { name: 'CERTGEN_SECRET_NAME', value: 'demo-curve' },
    ]);
  });

  test('every object, the pod and the created Secret carry the standard labels plus the user labels', () => {
    const { docs, pod } = synth({ labels: { team: 'hpc', 'example.com/tier': 'batch' } });
    const expected = { ...LABELS, 'example.com/tier': 'batch', team: 'hpc' };
    // (the program's ConfigMap is shared by every certificate Job of the namespace: labels of its own)
    for (const doc of docs.filter((d) => d.kind !== 'ConfigMap')) expect(doc.metadata.labels).toEqual(expected);
    expect(docs.find((d) => d.kind === 'ConfigMap').metadata.labels).toEqual({
      'app.kubernetes.io/component': 'runtime-program', 'app.kubernetes.io/managed-by': 'cdk8s-minicluster', 'app.kubernetes.io/name': 'minicluster',
    });
    expect(synth({ labels: { team: 'hpc', 'example.com/tier': 'batch' } }).byKind('Job').spec.template.metadata.labels).toEqual(expected);
    const secretLabels = pod.containers[0].env.find((e: { name: string }) => e.name === 'CERTGEN_SECRET_LABELS').value;
    expect(secretLabels).toBe(JSON.stringify(expected));
    expect(Object.keys(JSON.parse(secretLabels))).toEqual(Object.keys(expected).sort());
  });

  test('props reach the manifests: secret name, image, pull policy, limits, timeout, user, ttl', () => {
    const { job, byKind, pod } = synth({
      secretName: 'my.curve',
      namespace: 'other',
      image: `registry.example/node@sha256:${'ab'.repeat(32)}`,
      imagePullPolicy: ImagePullPolicy.ALWAYS,
      backoffLimit: 1,
      activeDeadlineSeconds: 60,
      ttlSecondsAfterFinished: 600,
      requestTimeoutSeconds: 2.5,
      runAsUser: 65532,
      resources: { memoryLimit: '256Mi' },
    });
    expect(job.secretName).toBe('my.curve');
    expect(byKind('Role').rules[1].resourceNames).toEqual(['my.curve']);
    expect(byKind('Job').metadata.namespace).toBe('other');
    expect(byKind('RoleBinding').subjects[0].namespace).toBe('other');
    expect(byKind('Job').spec).toMatchObject({ backoffLimit: 1, activeDeadlineSeconds: 60, ttlSecondsAfterFinished: 600 });
    expect(pod.securityContext).toMatchObject({ runAsUser: 65532, runAsGroup: 65532 });
    expect(pod.containers[0]).toMatchObject({ image: `registry.example/node@sha256:${'ab'.repeat(32)}`, imagePullPolicy: 'Always' });
    expect(pod.containers[0].resources.limits).toEqual({ cpu: '500m', memory: '256Mi' });
    expect(pod.containers[0].env).toEqual(expect.arrayContaining([
      { name: 'CERTGEN_SECRET_NAME', value: 'my.curve' },
      { name: 'CERTGEN_REQUEST_TIMEOUT_SECONDS', value: '2.5' },
    ]));
  });

  test('the same props synthesize byte-identical YAML', () => {
    const a = Yaml.stringify(...synth({ labels: { b: '2', a: '1' } }).docs);
    const b = Yaml.stringify(...synth({ labels: { a: '1', b: '2' } }).docs);
    expect(a).toBe(b);
  });

  test('a namespace is required (prop or chart): the RoleBinding must name the ServiceAccount namespace', () => {
    expect(messageOf(() => synth({}, null))).toContain(
      'namespace: not set, and the Chart has no namespace; the RoleBinding must name the namespace of its ServiceAccount',
    );
    expect(synth({ namespace: 'explicit' }, null).byKind('Job').metadata.namespace).toBe('explicit');
  });

  test('invalid props are reported all at once, naming field, value and rule', () => {
    const message = messageOf(() =>
      synth({
        clusterName: 'Demo_Cluster',
        namespace: 'x'.repeat(64),
        secretName: 'bad/name',
        image: 'has space',
        backoffLimit: -1,
        activeDeadlineSeconds: 0,
        ttlSecondsAfterFinished: 1.5,
        requestTimeoutSeconds: 0,
        runAsUser: 0,
        resources: { cpuLimit: 'lots' },
        labels: { 'app.kubernetes.io/part-of': 'x', 'bad key!': 'ok', fine: 'not ok!' },
      }),
    );
    expect(message.split('\n')).toEqual([
      "CurveCertJob 'test/cert': invalid props:",
      "  - clusterName: 'Demo_Cluster' must be a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit) of at most 52 characters (the Job is named '<clusterName>-curve-cert', at most 63)",
      `  - namespace: '${'x'.repeat(64)}' must be a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit) of at most 63 characters`,
      "  - secretName: 'bad/name' must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.') of at most 253 characters",
      "  - image: 'has space' must be a non-empty image reference without spaces",
      '  - backoffLimit: -1 must be an integer >= 0',
      '  - activeDeadlineSeconds: 0 must be an integer >= 1',
      '  - ttlSecondsAfterFinished: 1.5 must be an integer >= 0',
      '  - runAsUser: 0 must be an integer from 1 to 2147483647',
      '  - requestTimeoutSeconds: 0 must be a positive number',
      "  - resources.cpuLimit: 'lots' is not a Kubernetes quantity (e.g. '100m', '64Mi')",
      "  - labels['app.kubernetes.io/part-of']: keys under 'app.kubernetes.io/' are set by this construct",
      "  - labels['bad key!']: key name must be 1-63 alphanumerics, -, _ or . starting and ending alphanumeric",
      "  - labels['fine']: value 'not ok!': label value must be at most 63 alphanumerics, -, _ or . starting and ending alphanumeric",
    ]);
  });

  test('runAsUser, also the group ID, is at most 2147483647, the largest ID the API server accepts', () => {
    // GIVEN a user ID past math.MaxInt32 WHEN synthesized THEN the prop is named with its range
    expect(messageOf(() => synth({ runAsUser: 2147483648 }))).toContain('  - runAsUser: 2147483648 must be an integer from 1 to 2147483647');
    // AND the largest ID is accepted
    expect(synth({ runAsUser: 2147483647 }).byKind('Job').spec.template.spec.securityContext.runAsUser).toBe(2147483647);
  });

  test('the longest cluster name fits: 52 characters pass, 53 fail', () => {
    expect(synth({ clusterName: 'a'.repeat(52) }).job.jobName).toHaveLength(63);
    expect(messageOf(() => synth({ clusterName: 'a'.repeat(53) }))).toContain('clusterName:');
  });
});


describeIf(OPENSSL, 'CurveCertJob end to end', () => {
  test('the synthesized container environment drives the real program to create the right Secret', async () => {
    // GIVEN the synthesized Job's container environment
    const { job, pod } = synth({ labels: { team: 'hpc' } });
    const env = Object.fromEntries(pod.containers[0].env.map((e: { name: string; value: string }) => [e.name, e.value]));
    const tls = makeTlsFixture();
    const api = await FakeKubeApi.start(tls.serverKey, tls.serverCert, (r: RecordedRequest) =>
      r.method === 'GET' ? status(404, 'NotFound', 'not found') : { status: 201, body: r.body });
    try {
      // WHEN the program runs with it, as in the pod (plus the address and files kubelet provides)
      const result = await runCertgen({
        ...env,
        KUBERNETES_SERVICE_HOST: '127.0.0.1',
        KUBERNETES_SERVICE_PORT: String(api.port),
        CERTGEN_SERVICE_ACCOUNT_DIR: serviceAccountDir('token', tls.caCert, 'hpc'),
      });
      // THEN it creates the Secret the construct announced, labelled like the construct's objects
      expect(result.code).toBe(0);
      expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET /api/v1/namespaces/hpc/secrets/${job.secretName}`,
        'POST /api/v1/namespaces/hpc/secrets',
      ]);
      const secret = api.requests[1].body as any;
      expect(secret.metadata).toEqual({ name: job.secretName, namespace: 'hpc', labels: { ...LABELS, team: 'hpc' } });
      expect(secret.type).toBe('Opaque');
      expect(parseCurveCert(Buffer.from(secret.data['curve.cert'], 'base64').toString()).name).toBe('demo');
      expectValidManifests([secret]);
    } finally {
      await api.stop();
    }
  });
});

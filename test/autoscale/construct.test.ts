import { Chart, Testing } from 'cdk8s';
import { MiniCluster, MiniClusterProps, PodSecurityLevel } from '../../lib';
import { FluxViewSource } from '../../lib/constructs/props/flux';
import { AUTOSCALE_DIR, AUTOSCALER_CONTAINER, TOKEN_DIR } from '../../lib/core/autoscale-contract';
import { AUTOSCALE_AGENT_SCRIPT_KEY } from '../../lib/scripts/render';
import { expectValidManifests } from '../support/k8s-validate';
import { podSecurityReport } from '../support/pod-security-standards';
import { expectCleanShellScript, testWithShellcheck } from '../support/shell-check';

const ELASTIC: MiniClusterProps = {
  size: 1, maxSize: 4, interactive: true, autoscale: { idleSeconds: 30 },
  containers: [{ image: 'ubuntu:noble' }],
};

function synth(props: MiniClusterProps, name = 'flux-auto'): { docs: any[]; job: any; pod: any } {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
  new MiniCluster(chart, name, props);
  const docs = Testing.synth(chart);
  // The cluster's Job: named `name`, or `name-<hash>` with a hashed GitOps name.
  const job = docs.find((d) => d.kind === 'Job' && d.metadata.labels['app.kubernetes.io/component'] === 'job');
  return { docs, job, pod: job.spec.template.spec };
}

function errorOf(props: MiniClusterProps): string {
  try {
    synth(props);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('no error');
}

const allContainers = (pod: any): any[] => [...(pod.initContainers ?? []), ...pod.containers];

describe('autoscale: what it adds', () => {
  test('a ServiceAccount without automounted tokens, a Role that may only get and patch this Job, and its RoleBinding', () => {
    const { docs } = synth(ELASTIC);
    const of = (kind: string) => docs.filter((d) => d.kind === kind && d.metadata.name === 'flux-auto-autoscaler');
    const [account] = of('ServiceAccount');
    expect(account.automountServiceAccountToken).toBe(false);
    const [role] = of('Role');
    expect(role.rules).toEqual([{ apiGroups: ['batch'], resources: ['jobs'], resourceNames: ['flux-auto'], verbs: ['get', 'patch'] }]);
    const [binding] = of('RoleBinding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'flux-auto-autoscaler' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'flux-auto-autoscaler', namespace: 'hpc' }]);
    // AND nothing cluster-wide
    expect(docs.filter((d) => d.kind.startsWith('Cluster'))).toEqual([]);
  });

  test('the token is mounted into the autoscaler container only; the pod mounts none by itself', () => {
    const { pod } = synth(ELASTIC);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe('flux-auto-autoscaler');
    const token = pod.volumes.find((v: any) => v.projected?.sources?.some((s: any) => s.serviceAccountToken));
    expect(token.projected.sources[0]).toEqual({ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } });
    const mounting = allContainers(pod).filter((c) => (c.volumeMounts ?? []).some((m: any) => m.name === token.name));
    expect(mounting.map((c) => c.name)).toEqual([AUTOSCALER_CONTAINER]);
    expect(mounting[0].volumeMounts.find((m: any) => m.name === token.name)).toEqual({ name: token.name, mountPath: TOKEN_DIR, readOnly: true });
    // AND the user's (Flux) container has no token mount of any kind
    const runner = pod.containers.find((c: any) => c.name === 'flux-auto');
    expect((runner.volumeMounts ?? []).filter((m: any) => m.mountPath.startsWith('/var/run/secrets'))).toEqual([]);
    // AND it shares only the autoscaler's directory with it
    expect(runner.volumeMounts).toContainEqual({ name: 'flux-autoscale', mountPath: AUTOSCALE_DIR });
  });

  test('the autoscaler is a hardened native sidecar with the cluster\'s sizes', () => {
    const { pod } = synth(ELASTIC);
    const c = pod.initContainers.find((x: any) => x.name === AUTOSCALER_CONTAINER);
    expect(c.restartPolicy).toBe('Always');
    expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: 1000 });
    const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({ AUTOSCALE_JOB_NAME: 'flux-auto', AUTOSCALE_NAMESPACE: { fieldRef: { fieldPath: 'metadata.namespace' } }, AUTOSCALE_MIN_SIZE: '1', AUTOSCALE_MAX_SIZE: '4', AUTOSCALE_IDLE_SECONDS: '30', AUTOSCALE_PERIOD_SECONDS: '2' });
  });

  testWithShellcheck('the lead starts the Flux agent, and the agent script is clean shell', () => {
    const { docs } = synth(ELASTIC);
    const entrypoint = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'flux-auto-entrypoint');
    expect(entrypoint.data['entrypoint.sh']).toContain('bash "$autoscale_agent_script" &');
    expectCleanShellScript(AUTOSCALE_AGENT_SCRIPT_KEY, entrypoint.data[AUTOSCALE_AGENT_SCRIPT_KEY]);
  });

  test('without autoscale nothing of it is there', () => {
    const { docs, pod } = synth({ ...ELASTIC, autoscale: undefined });
    expect(docs.filter((d) => d.metadata.name.includes('autoscale'))).toEqual([]);
    expect(pod.serviceAccountName).toBeUndefined();
    expect(JSON.stringify(pod)).not.toContain('autoscale');
  });

  test.each<[string, MiniClusterProps]>([
    ['the default', ELASTIC],
    ['restricted Pod Security', { ...ELASTIC, podSecurity: PodSecurityLevel.RESTRICTED }],
    ['the image volume', { ...ELASTIC, kubernetesVersion: '1.35', flux: { container: { source: FluxViewSource.IMAGE_VOLUME } } }],
    ['a hashed GitOps Job name', { ...ELASTIC, gitOps: { hashJobName: true } }],
  ])('%s: valid for the API server, and the Role names the Job', (_, props) => {
    const { docs, job } = synth(props);
    expectValidManifests(docs, { kubernetesVersion: props.kubernetesVersion });
    const role = docs.find((d) => d.kind === 'Role' && d.metadata.name.endsWith('-autoscaler'));
    expect(role.rules[0].resourceNames).toEqual([job.metadata.name]);
    expect(job.spec.template.spec.initContainers.find((c: any) => c.name === AUTOSCALER_CONTAINER).env)
      .toContainEqual({ name: 'AUTOSCALE_JOB_NAME', value: job.metadata.name });
  });

  test('at restricted the pods meet the restricted Pod Security Standard, the autoscaler included', () => {
    const { docs } = synth({ ...ELASTIC, podSecurity: PodSecurityLevel.RESTRICTED });
    expect(podSecurityReport(docs, 'restricted')).toEqual([]);
  });

  test('the autoscaler runs as the pod\'s user when the pod names one', () => {
    const { pod } = synth({ ...ELASTIC, pod: { runAsUser: 2000 } });
    expect(pod.initContainers.find((c: any) => c.name === AUTOSCALER_CONTAINER).securityContext.runAsUser).toBe(2000);
  });
});

describe('autoscale: refused props', () => {
  test('a cluster that is not elastic', () => {
    expect(errorOf({ ...ELASTIC, maxSize: undefined })).toContain('autoscale = "(set)": the cluster is not elastic: maxSize (1) must be above minSize or size (1)');
  });

  test('every conflict at once: an old Kubernetes, another ServiceAccount, an automounted token, bad numbers', () => {
    const message = errorOf({
      ...ELASTIC,
      kubernetesVersion: '1.28',
      pod: { serviceAccountName: 'mine', automountServiceAccountToken: true },
      autoscale: { idleSeconds: -1, periodSeconds: 0, image: 'two words' },
    });
    for (const line of [
      'kubernetesVersion = "1.28": autoscale needs Kubernetes 1.29 or newer',
      'pod.serviceAccountName = "mine": autoscale gives the pods their ServiceAccount',
      'pod.automountServiceAccountToken = true: with autoscale the token must reach the autoscaler container only',
      'autoscale.idleSeconds = -1: must be an integer from 0 to 86400',
      'autoscale.periodSeconds = 0: must be an integer from 1 to 300',
      'autoscale.image = "two words": must be a non-empty image reference without spaces',
    ]) expect(message).toContain(line);
  });

});

describe('Kueue: an elastic queued cluster is an elastic Kueue Job', () => {
  const jobOf = (props: any): any => {
    const chart = new Chart(Testing.app(), 'test');
    new MiniCluster(chart, 'flux-sample', props);
    return Testing.synth(chart).find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample');
  };
  const BASE = { containers: [{ image: 'ubuntu:noble', resources: { requests: { cpu: '100m' } } }] };

  test.each([
    ['autoscaled, queued by queueName', { ...BASE, size: 1, maxSize: 4, interactive: true, autoscale: {}, queueName: 'team-q' }, 'true'],
    ['autoscaled, queued by the label set by hand', { ...BASE, size: 1, maxSize: 4, interactive: true, autoscale: {}, jobLabels: { 'kueue.x-k8s.io/queue-name': 'q' } }, 'true'],
    ['elastic by maxSize, queued', { ...BASE, size: 2, maxSize: 4, interactive: true, queueName: 'team-q' }, 'true'],
    ['elastic by minSize, queued', { ...BASE, size: 4, minSize: 2, interactive: true, queueName: 'team-q' }, 'true'],
    ['of a fixed size, queued', { ...BASE, size: 4, queueName: 'team-q' }, undefined],
    ['elastic, not queued', { ...BASE, size: 2, maxSize: 4, interactive: true }, undefined],
  ])('GIVEN a cluster %s THEN the Job\'s kueue.x-k8s.io/elastic-job annotation is %s', (_, props, annotation) => {
    const job = jobOf(props);
    expect(job.metadata.annotations?.['kueue.x-k8s.io/elastic-job']).toBe(annotation);
    expectValidManifests([job]);
  });
});

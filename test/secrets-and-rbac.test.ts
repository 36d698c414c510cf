import { Chart, Testing } from 'cdk8s';
import { stringify } from 'yaml';
import { exampleApp } from '../examples/app';
import { CertificateSource, MiniCluster, MiniClusterProps, PodSecurityLevel } from '../lib';
import { createCurveCert, parseCurveCert } from '../lib/cert';

/** A Z85 key line as it appears in a certificate (40 characters of the Z85 alphabet, quoted). */
const SECRET_KEY_LINE = /secret-key\s*=\s*"[0-9a-zA-Z.\-:+=^!/*?&<>()[\]{}@%$#]{40}"/;
/** The base64 of the start of every certificate: `#  ZeroMQ CURVE **Secret** Certificate`. */
const CERT_BASE64_PREFIX = Buffer.from('#  ZeroMQ CURVE **Secret** Certificate').toString('base64').slice(0, 40);

const INLINE_CERT = createCurveCert({ name: 'flux-inline' });
const INLINE_SECRET_KEY = parseCurveCert(INLINE_CERT).secretKey;

/** Test configurations beside the examples: every certificate source and the production options. */
const CONFIGURATIONS: [string, MiniClusterProps][] = [
  ['flux-default', { containers: [{ image: 'ubuntu:noble', command: 'hostname' }] }],
  ['flux-inline', {
    size: 2,
    certificate: CertificateSource.insecureInline(INLINE_CERT),
    containers: [{ image: 'ubuntu:noble', command: 'hostname', secrets: { DB_PASSWORD: { name: 'db', key: 'password' } } }],
  }],
  ['flux-existing', { certificate: CertificateSource.fromExistingSecret('team-curve'), containers: [{ image: 'ubuntu:noble' }] }],
  ['flux-hardened', {
    size: 3, podSecurity: PodSecurityLevel.RESTRICTED, networkPolicy: {}, queueName: 'q',
    certificate: CertificateSource.generatedInCluster({ secretName: 'prod-curve', ttlSecondsAfterFinished: 60 }),
    gitOps: { hashJobName: true, argoCd: { certificateHook: true, replaceJob: true }, fluxCd: {} },
    containers: [{ image: 'ubuntu:noble', command: 'hostname' }],
  }],
];

/** Every synthesized output: each example chart and each test configuration, by name. */
function outputs(): [string, any[]][] {
  const examples = exampleApp(Testing.app().outdir).charts.map((c): [string, any[]] => [`example ${c.node.id}`, c.toJson()]);
  const configurations = CONFIGURATIONS.map(([name, props]): [string, any[]] => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
    new MiniCluster(chart, name, props);
    return [`configuration ${name}`, Testing.synth(chart)];
  });
  return [...examples, ...configurations];
}

const OUTPUTS = outputs();
const all = (kind: string) => OUTPUTS.flatMap(([, docs]) => docs.filter((d) => d.kind === kind));

describe('secrets', () => {
  test.each(OUTPUTS)('%s: no certificate key material outside a Secret', (_, docs) => {
    // GIVEN the YAML text of every object that is not a Secret
    const text = docs.filter((d) => d.kind !== 'Secret').map((d) => stringify(d)).join('---\n');
    // THEN no key line, no certificate in base64, and not the inline certificate's key, raw or encoded
    expect(text).not.toMatch(SECRET_KEY_LINE);
    expect(text).not.toContain(CERT_BASE64_PREFIX);
    expect(text).not.toContain(INLINE_SECRET_KEY);
    expect(text).not.toContain(Buffer.from(INLINE_SECRET_KEY).toString('base64').slice(0, 20));
    // AND the data of every Secret appears nowhere else, encoded or decoded
    for (const secret of docs.filter((d) => d.kind === 'Secret')) {
      for (const value of Object.values<string>(secret.data ?? {})) {
        expect(text).not.toContain(value);
        for (const line of Buffer.from(value, 'base64').toString('utf8').split('\n').filter((l) => l.includes('secret-key'))) {
          expect(text).not.toContain(line.trim());
        }
      }
    }
  });

  test.each(OUTPUTS)('%s: no environment variable, ConfigMap or annotation carries the certificate', (_, docs) => {
    const certificateSecrets = new Set(docs.flatMap((d) => (d.spec?.template?.spec?.volumes ?? [])
      .filter((v: any) => v.name === 'flux-curve-cert').map((v: any) => v.secret.secretName)));
    for (const d of docs) {
      for (const c of [...(d.spec?.template?.spec?.initContainers ?? []), ...(d.spec?.template?.spec?.containers ?? [])]) {
        for (const e of c.env ?? []) {
          expect(certificateSecrets).not.toContain(e.valueFrom?.secretKeyRef?.name);
          expect(String(e.value ?? '')).not.toMatch(/secret-key|CURVE \*\*Secret\*\*/);
        }
        expect(c.envFrom ?? []).toEqual([]);
      }
      for (const v of Object.values<string>(d.metadata.annotations ?? {})) expect(v).not.toMatch(/secret-key/);
    }
    // the certificate reaches the pods only as a read-only volume of its Secret, mode 0400
    for (const job of docs.filter((d) => d.kind === 'Job' && d.spec.template.spec.volumes?.some((v: any) => v.name === 'flux-curve-cert'))) {
      const volume = job.spec.template.spec.volumes.find((v: any) => v.name === 'flux-curve-cert');
      expect(volume.secret.defaultMode).toBe(0o400);
      for (const c of [...(job.spec.template.spec.initContainers ?? []), ...job.spec.template.spec.containers]) {
        for (const m of (c.volumeMounts ?? []).filter((mount: any) => mount.name === 'flux-curve-cert')) expect(m.readOnly).toBe(true);
      }
    }
  });

  test('the inline certificate is the only Secret any output holds, and the patterns above find its key material', () => {
    const secrets = all('Secret');
    // (the checks above would catch a copy: the patterns match the real Secret)
    const secretText = stringify(secrets[0]);
    expect(Buffer.from(secrets[0].data['curve.cert'], 'base64').toString('utf8')).toMatch(SECRET_KEY_LINE);
    expect(secretText).toContain(CERT_BASE64_PREFIX);
    expect(secrets.map((s) => `${s.metadata.namespace}/${s.metadata.name}`)).toEqual(['hpc/flux-inline-curve']);
    expect(Buffer.from(secrets[0].data['curve.cert'], 'base64').toString('utf8')).toBe(INLINE_CERT);
  });
});

describe('RBAC and service account tokens', () => {
  test('the only RBAC is the certificate Jobs\' (create Secrets, get their own Secret by name) and the autoscaler\'s (get and patch its own Job)', () => {
    // THEN no cluster-wide RBAC anywhere
    expect([...all('ClusterRole'), ...all('ClusterRoleBinding')]).toEqual([]);
    // AND the full set of Role rules, one Role per generated certificate, each for its own Secret
    const roles = all('Role').map((r) => [`${r.metadata.namespace}/${r.metadata.name}`, r.rules]).sort();
    const rules = (secret: string) => [
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      { apiGroups: [''], resources: ['secrets'], resourceNames: [secret], verbs: ['get'] },
    ];
    expect(roles).toEqual([
      ['default/flux-autoscale-autoscaler', [{ apiGroups: ['batch'], resources: ['jobs'], resourceNames: ['flux-autoscale'], verbs: ['get', 'patch'] }]],
      ['default/flux-autoscale-curve-cert', rules('flux-autoscale-curve')],
      ['default/flux-batch-curve-cert', rules('flux-batch-curve')],
      ['default/flux-elastic-curve-cert', rules('flux-elastic-curve')],
      ['default/flux-image-view-curve-cert', rules('flux-image-view-curve')],
      ['default/flux-interactive-curve-cert', rules('flux-interactive-curve')],
      ['default/flux-sample-curve-cert', rules('flux-sample-curve')],
      ['default/flux-volumes-curve-cert', rules('flux-volumes-curve')],
      ['default/snakemake-curve-cert', rules('snakemake-curve')],
      ['hpc/flux-default-curve-cert', rules('flux-default-curve')],
      ['hpc/flux-hardened-curve-cert', rules('prod-curve')],
      ['hpc/flux-prod-curve-cert', rules('flux-prod-curve')],
      ['hpc/lammps-curve-cert', rules('lammps-curve')],
      ['team-a/flux-queued-curve-cert', rules('flux-queued-curve')],
    ]);
    // AND each RoleBinding binds its Role to its own ServiceAccount only
    for (const b of all('RoleBinding')) {
      expect(b.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: b.metadata.name });
      expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: b.metadata.name, namespace: b.metadata.namespace }]);
    }
    expect(all('RoleBinding')).toHaveLength(roles.length);
  });

  test('no ServiceAccount mounts a token by default; only the certificate Job\'s pods mount one, for their own account, and the autoscaler its projected one', () => {
    const accounts = all('ServiceAccount');
    expect(accounts.length).toBe(all('Role').length);
    for (const sa of accounts) expect(sa.automountServiceAccountToken).toBe(false);
    const pods = all('Job').map((j) => j.spec.template.spec);
    for (const pod of pods) {
      if (pod.automountServiceAccountToken === true) {
        expect(accounts.map((a) => a.metadata.name)).toContain(pod.serviceAccountName);
        expect(pod.containers.map((c: any) => c.name)).toEqual(['certgen']);
      } else {
        expect(pod.automountServiceAccountToken).toBe(false);
        const tokenVolumes = (pod.volumes ?? []).filter((v: any) => v.projected?.sources?.some((s: any) => s.serviceAccountToken)).map((v: any) => v.name);
        const mounting = [...(pod.initContainers ?? []), ...pod.containers].filter((c: any) => (c.volumeMounts ?? []).some((m: any) => tokenVolumes.includes(m.name)));
        if (pod.serviceAccountName === undefined) {
          expect(tokenVolumes).toEqual([]);
        } else {
          // The autoscaler's account: its token is a projected volume only the autoscaler mounts.
          expect(pod.serviceAccountName).toMatch(/-autoscaler$/);
          expect(mounting.map((c: any) => c.name)).toEqual(['flux-autoscaler']);
        }
      }
    }
    const certificateAccounts = accounts.filter((a) => !a.metadata.name.endsWith('-autoscaler'));
    expect(pods.filter((p) => p.automountServiceAccountToken === true)).toHaveLength(certificateAccounts.length);
  });
});

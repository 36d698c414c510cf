import { Chart, Size, Testing } from 'cdk8s';
import * as kplus27 from 'cdk8s-plus-27';
import * as kplus33 from 'cdk8s-plus-33';
import {
  CertificateSource, IConfigMapReference, IPersistentVolumeClaimReference, ISecretReference, IServiceAccountReference, MiniCluster, MiniClusterProps,
} from '../lib';
import { expectValidManifests } from './support/k8s-validate';

/** The cdk8s-plus objects a MiniCluster can be given, from one cdk8s-plus version. */
interface PlusObjects {
  readonly secret: ISecretReference;
  readonly pullSecret: ISecretReference;
  readonly configMap: IConfigMapReference;
  readonly claim: IPersistentVolumeClaimReference;
  readonly serviceAccount: IServiceAccountReference;
  readonly certificate: ISecretReference;
}

/** The objects, from one cdk8s-plus version: typed as the library's interfaces, so this file compiling
 * (npm test runs tsc) is the structural fit of both versions. */
const plusObjects = (kplus: typeof kplus27 | typeof kplus33) => (chart: Chart): PlusObjects => ({
  secret: new kplus.Secret(chart, 'creds', { stringData: { token: 't' } }),
  pullSecret: kplus.Secret.fromSecretName(chart, 'pull', 'registry-creds'),
  configMap: new kplus.ConfigMap(chart, 'cfg', { data: { 'app.conf': 'x=1' } }),
  claim: new kplus.PersistentVolumeClaim(chart, 'data', { storage: Size.gibibytes(10) }),
  serviceAccount: new kplus.ServiceAccount(chart, 'sa'),
  certificate: kplus.Secret.fromSecretName(chart, 'curve', 'sealed-curve'),
});
const plus27 = plusObjects(kplus27);
const plus33 = plusObjects(kplus33);

const image = 'ubuntu:noble';

function byObjects(o: PlusObjects): MiniClusterProps {
  return {
    size: 2,
    certificate: CertificateSource.fromSecret(o.certificate),
    pod: { serviceAccount: o.serviceAccount },
    containers: [{
      image,
      command: 'hostname',
      imagePullSecretRef: o.pullSecret,
      secrets: { TOKEN: { secret: o.secret, key: 'token' } },
      volumes: {
        data: { persistentVolumeClaim: o.claim, path: '/data' },
        cfg: { configMap: o.configMap, path: '/etc/app' },
        creds: { secret: o.secret, path: '/etc/creds' },
      },
    }],
  };
}

function byNames(o: PlusObjects): MiniClusterProps {
  return {
    size: 2,
    certificate: CertificateSource.fromExistingSecret(o.certificate.name),
    pod: { serviceAccountName: o.serviceAccount.name },
    containers: [{
      image,
      command: 'hostname',
      imagePullSecret: o.pullSecret.name,
      secrets: { TOKEN: { name: o.secret.name, key: 'token' } },
      volumes: {
        data: { claimName: o.claim.name, path: '/data' },
        cfg: { configMapName: o.configMap.name, path: '/etc/app' },
        creds: { secretName: o.secret.name, path: '/etc/creds' },
      },
    }],
  };
}

const jobOf = (chart: Chart) => Testing.synth(chart).find((d) => d.kind === 'Job');

describe('cdk8s-plus objects where the props ask for a name', () => {
  test.each([['cdk8s-plus-27', plus27], ['cdk8s-plus-33', plus33]])('%s: Secret, ConfigMap, PersistentVolumeClaim and ServiceAccount objects give the same Job as their names', (_, make) => {
    // GIVEN cdk8s-plus objects in a chart
    const withObjects = new Chart(Testing.app(), 'c', { namespace: 'hpc' });
    const objects = make(withObjects);
    // WHEN one cluster takes the objects and another their names
    new MiniCluster(withObjects, 'flux-sample', byObjects(objects));
    const withNames = new Chart(Testing.app(), 'c', { namespace: 'hpc' });
    new MiniCluster(withNames, 'flux-sample', byNames(make(withNames)));
    // THEN the Jobs are identical, and they name the objects cdk8s-plus synthesized
    const job = jobOf(withObjects);
    expect(job).toEqual(jobOf(withNames));
    const pod = job.spec.template.spec;
    expect(pod.serviceAccountName).toBe(objects.serviceAccount.name);
    expect(pod.imagePullSecrets).toEqual([{ name: 'registry-creds' }]);
    expect(pod.volumes).toEqual(expect.arrayContaining([
      { name: 'data', persistentVolumeClaim: { claimName: objects.claim.name } },
      { name: 'cfg', configMap: { name: objects.configMap.name } },
      { name: 'creds', secret: { secretName: objects.secret.name } },
      expect.objectContaining({ name: 'flux-curve-cert', secret: expect.objectContaining({ secretName: 'sealed-curve' }) }),
    ]));
    const synthesized = Testing.synth(withObjects);
    for (const o of [objects.secret, objects.configMap, objects.claim, objects.serviceAccount]) {
      expect(synthesized.map((d) => d.metadata.name)).toContain(o.name);
    }
    expectValidManifests(synthesized.filter((d) => d.kind !== 'PersistentVolumeClaim'));
  });

  test('a plain { name } fits too, and a reference and a name prop may agree', () => {
    const chart = new Chart(Testing.app(), 'c');
    const cluster = new MiniCluster(chart, 'flux-sample', {
      containers: [{ image, volumes: { cfg: { configMap: { name: 'app' }, configMapName: 'app', path: '/etc/app' } } }],
    });
    expect(cluster.job.toJson().spec.template.spec.volumes).toContainEqual({ name: 'cfg', configMap: { name: 'app' } });
  });

  test('a reference that names another object than its name prop, or has no name, is an error naming both', () => {
    const chart = new Chart(Testing.app(), 'c');
    expect(() => new MiniCluster(chart, 'flux-sample', {
      pod: { serviceAccount: { name: 'a' }, serviceAccountName: 'b' },
      containers: [{
        image,
        imagePullSecretRef: { name: 'x' },
        imagePullSecret: 'y',
        volumes: { cfg: { secret: { name: undefined as unknown as string }, path: '/etc/x' } },
      }],
    })).toThrow([
      "invalid MiniCluster 'flux-sample' (4 problems):",
      "  - pod.serviceAccount = \"a\": names a different object than serviceAccountName 'b': set one of the two",
      "  - containers[0].imagePullSecretRef = \"x\": names a different object than imagePullSecret 'y': set one of the two",
      '  - containers[0].volumes.cfg.secret.name = (unset): a reference must have a name (a string)',
      '  - containers[0].volumes.cfg.claimName = (unset): a volume needs a source',
    ].join('\n'));
    expect(() => CertificateSource.fromSecret({} as ISecretReference)).toThrow("CertificateSource.fromSecret: secret.name = undefined: must be the Secret's name (a string)");
  });
});

/**
 * The Kubernetes Secret that holds a MiniCluster's CURVE certificate, built the same way by the
 * in-cluster certgen program and the `cdk8s-minicluster cert --secret` command.
 */
import { CERTIFICATE_SECRET_KEY } from '../core/certificate-contract';

/** The labels of the certificate objects (Job, RBAC, Secret) of the MiniCluster `clusterName`. */
export function curveCertLabels(clusterName: string): { [key: string]: string } {
  return {
    'app.kubernetes.io/component': 'curve-cert',
    'app.kubernetes.io/instance': clusterName,
    'app.kubernetes.io/managed-by': 'cdk8s-minicluster',
    'app.kubernetes.io/name': 'minicluster',
  };
}

/** Options of curveCertSecret. */
export interface CurveCertSecretOptions {
  readonly secretName: string;
  /** @default - no namespace in the manifest */
  readonly namespace?: string;
  /** @default - no labels */
  readonly labels?: { [key: string]: string };
  /** Certificate text, stored base64-encoded under key `curve.cert`. */
  readonly certificate: string;
}

/**
 * The Secret manifest. Immutable: a certificate is never rotated in place under running brokers
 * (replace it by deleting and recreating the Secret, then restarting the cluster).
 */
export function curveCertSecret(options: CurveCertSecretOptions): { [key: string]: unknown } {
  const labels = options.labels ?? {};
  const sortedLabels = Object.fromEntries(Object.keys(labels).sort().map((k) => [k, labels[k]]));
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: options.secretName,
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
      ...(Object.keys(labels).length === 0 ? {} : { labels: sortedLabels }),
    },
    type: 'Opaque',
    immutable: true,
    data: { [CERTIFICATE_SECRET_KEY]: Buffer.from(options.certificate, 'utf8').toString('base64') },
  };
}

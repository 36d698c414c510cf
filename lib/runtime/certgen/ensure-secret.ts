/**
 * Creates the certificate Secret only if it does not exist yet, so re-running never rotates the
 * certificate under a running cluster. Never logs key material.
 */
import { createCurveCert, curveCertProblems, curveCertSecret } from '../../cert';
import { CERTIFICATE_SECRET_KEY } from '../../core/certificate-contract';
import { CertgenConfig } from './config';
import { KubeApiResponse, kubeApiRequest, statusMessage } from '../shared/kube-api';

/** A failure with a complete, user-facing message. */
export class CertgenError extends Error {}

export type Log = (line: string) => void;

export async function ensureCertificateSecret(config: CertgenConfig, log: Log): Promise<void> {
  const ns = encodeURIComponent(config.namespace);
  const collection = `/api/v1/namespaces/${ns}/secrets`;
  const item = `${collection}/${encodeURIComponent(config.secretName)}`;
  const where = `Secret ${config.namespace}/${config.secretName}`;

  const existing = await kubeApiRequest(config, 'GET', item);
  if (existing.status === 200) {
    checkExisting(existing.body, where);
    log(`${where} already exists with a valid certificate; leaving it unchanged`);
    return;
  }
  if (existing.status !== 404) {
    throw failure(existing, `GET ${item}`, `get secrets/${config.secretName} in namespace ${config.namespace} (Role rule: apiGroups [""], resources [secrets], verbs [get], resourceNames [${config.secretName}])`);
  }

  const cert = createCurveCert({ name: config.certName });
  const secret = curveCertSecret({ secretName: config.secretName, namespace: config.namespace, labels: config.labels, certificate: cert });
  const created = await kubeApiRequest(config, 'POST', collection, secret);
  if (created.status === 200 || created.status === 201) {
    log(`created ${where} (key ${CERTIFICATE_SECRET_KEY})`);
  } else if (created.status === 409) {
    log(`${where} was created by someone else meanwhile (409 AlreadyExists); leaving it unchanged`);
  } else {
    throw failure(created, `POST ${collection}`, `create secrets in namespace ${config.namespace} (Role rule: apiGroups [""], resources [secrets], verbs [create])`);
  }
}

function checkExisting(body: unknown, where: string): void {
  const data = (body as { data?: { [key: string]: unknown } } | undefined)?.data;
  const encoded = data?.[CERTIFICATE_SECRET_KEY];
  if (typeof encoded !== 'string') {
    throw new CertgenError(`${where} exists but has no '${CERTIFICATE_SECRET_KEY}' key; this job never overwrites a Secret: delete it, or store a certificate under that key`);
  }
  const problems = curveCertProblems(Buffer.from(encoded, 'base64').toString('utf8'));
  if (problems.length > 0) {
    throw new CertgenError(`${where} exists but its '${CERTIFICATE_SECRET_KEY}' is not a valid Flux CURVE certificate; this job never overwrites a Secret: delete it to have a new one generated:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function failure(response: KubeApiResponse, request: string, permission: string): CertgenError {
  const detail = statusMessage(response.body);
  const suffix = detail ? `: ${detail.slice(0, 500)}` : '';
  switch (response.status) {
    case 401:
      return new CertgenError(`${request}: 401 Unauthorized: the API server rejected the service account token${suffix}`);
    case 403:
      return new CertgenError(`${request}: 403 Forbidden: the service account is not allowed to ${permission}${suffix}`);
    default:
      return new CertgenError(`${request}: unexpected HTTP ${response.status}${suffix}`);
  }
}

/**
 * Where the CURVE certificate lives, shared by the certificate job, the entrypoint scripts and
 * the handshake sidecar so they always agree.
 */

/** The Secret that holds the cluster's CURVE certificate when none is named explicitly. */
export function defaultCertificateSecretName(clusterName: string): string {
  return `${clusterName}-curve`;
}

/** The key of the certificate inside the Secret. */
export const CERTIFICATE_SECRET_KEY = 'curve.cert';

/** Where pods mount the Secret (read-only, mode 0400); scripts copy it to a private 0600 file. */
export const CERTIFICATE_MOUNT_DIR = '/etc/flux-curve';

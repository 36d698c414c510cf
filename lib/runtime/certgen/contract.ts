/**
 * The environment the certgen program reads. CurveCertJob sets these; tests set them too.
 */

/** Name of the Secret to create when absent. */
export const ENV_SECRET_NAME = 'CERTGEN_SECRET_NAME';
/** Value of the certificate's `name` metadata entry (the MiniCluster name). */
export const ENV_CERT_NAME = 'CERTGEN_CERT_NAME';
/** JSON object of labels for the created Secret. Optional, default none. */
export const ENV_SECRET_LABELS = 'CERTGEN_SECRET_LABELS';
/** Bound of each API request, seconds. Optional, default DEFAULT_REQUEST_TIMEOUT_SECONDS. */
export const ENV_REQUEST_TIMEOUT_SECONDS = 'CERTGEN_REQUEST_TIMEOUT_SECONDS';
/** Directory holding the service account `token`, `ca.crt` and `namespace`. Optional (tests). */
export const ENV_SERVICE_ACCOUNT_DIR = 'CERTGEN_SERVICE_ACCOUNT_DIR';

export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
export const DEFAULT_SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * What the autoscaler's two halves share (the `autoscale` prop, docs/production.md "Autoscaling"):
 * the Flux agent (templates/autoscale-agent.sh, in the lead's Flux container, no API token) and the
 * autoscaler (lib/runtime/autoscale, a native sidecar with the only token). They talk through files
 * in an emptyDir: the agent writes Flux's state, the autoscaler the ranks to drain and its decision.
 */

/** The autoscaler's program name (lib/runtime/autoscale) and the key of its shared ConfigMap. */
export const AUTOSCALE_PROGRAM = 'autoscale';
/** The autoscaler sidecar's container name. */
export const AUTOSCALER_CONTAINER = 'flux-autoscaler';
/** The emptyDir both halves mount, and where. */
export const AUTOSCALE_VOLUME = 'flux-autoscale';
export const AUTOSCALE_DIR = '/mnt/flux-autoscale';
/** The agent's JSON snapshot of Flux's queue and resources. */
export const STATE_FILE = 'state.json';
/** The ranks the autoscaler wants drained in Flux (one RFC 22 idset, maybe empty). */
export const DRAIN_FILE = 'drain';
/** The autoscaler's last decision, one line, which the agent repeats in the lead's log. */
export const DECISION_FILE = 'decision';
/** The drain reason the agent gives, and the only drains it ever undoes. */
export const DRAIN_REASON = 'autoscale';

/** The environment of the autoscaler program. */
export const ENV = {
  jobName: 'AUTOSCALE_JOB_NAME',
  namespace: 'AUTOSCALE_NAMESPACE',
  minSize: 'AUTOSCALE_MIN_SIZE',
  maxSize: 'AUTOSCALE_MAX_SIZE',
  idleSeconds: 'AUTOSCALE_IDLE_SECONDS',
  periodSeconds: 'AUTOSCALE_PERIOD_SECONDS',
  dir: 'AUTOSCALE_DIR',
  tokenDir: 'AUTOSCALE_TOKEN_DIR',
  /** Tests only: the API server's origin (`http://127.0.0.1:PORT`) instead of KUBERNETES_SERVICE_HOST and PORT over TLS. */
  apiUrl: 'AUTOSCALE_API_URL',
} as const;

/** Where the projected token, CA and namespace are mounted, in the autoscaler container only. */
export const TOKEN_DIR = '/var/run/secrets/flux-autoscaler';
/** Where the program's ConfigMap is mounted. */
export const PROGRAM_DIR = '/flux-autoscaler';

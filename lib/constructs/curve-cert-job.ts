import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import type { Job, JobSpec } from 'kubernetes-types-1.30/batch/v1';
import type { Container, PodSpec, ServiceAccount } from 'kubernetes-types-1.30/core/v1';
import type { PolicyRule, Role, RoleBinding } from 'kubernetes-types-1.30/rbac/v1';
import { curveCertLabels } from '../cert/secret-manifest';
import { defaultCertificateSecretName } from '../core/certificate-contract';
import { imageReferenceError } from '../core/image-reference';
import { DEFAULT_NODE_IMAGE } from '../core/images';
import { DNS1123_LABEL, DNS1123_SUBDOMAIN, MAX_UNIX_ID, QUANTITY, labelKeyError, labelValueError } from '../core/k8s-formats';
import { hardenedSecurityContext } from './private/hardened';
import { sortKeys } from './private/labels';
import { CERTGEN_PROGRAM, sharedRuntimeProgram } from './private/runtime-programs';
import { ImagePullPolicy } from './props/container';
import {
  ENV_CERT_NAME,
  ENV_REQUEST_TIMEOUT_SECONDS,
  ENV_SECRET_LABELS,
  ENV_SECRET_NAME,
} from '../runtime/certgen/contract';

/** CPU and memory of the certificate job's container (Kubernetes quantities). */
export interface CurveCertJobResources {
  /** CPU request. @default '50m' */
  readonly cpuRequest?: string;
  /** CPU limit. @default '500m' */
  readonly cpuLimit?: string;
  /** Memory request. @default '64Mi' */
  readonly memoryRequest?: string;
  /** Memory limit. @default '128Mi' */
  readonly memoryLimit?: string;
}

/** Props of CurveCertJob. */
export interface CurveCertJobProps {
  /**
   * Name of the MiniCluster the certificate is for (a DNS-1123 label of at most 52 characters, so
   * that `<clusterName>-curve-cert` fits 63). Also the certificate's `name` metadata entry.
   */
  readonly clusterName: string;
  /**
   * Namespace of every object, and of the ServiceAccount named in the RoleBinding.
   * @default - the Chart's namespace; one of the two is required
   * @jsii suppress JSII5018 C# capitalizes members (`Namespace`): not a keyword there
   */
  readonly namespace?: string;
  /**
   * Secret that receives the certificate (key `curve.cert`).
   * @default `<clusterName>-curve` (defaultCertificateSecretName)
   */
  readonly secretName?: string;
  /**
   * Image that runs the bundled program with `node`; any Node.js >= 18 image.
   * @default DEFAULT_NODE_IMAGE
   */
  readonly image?: string;
  /** When the kubelet pulls the image. @default ImagePullPolicy.IF_NOT_PRESENT */
  readonly imagePullPolicy?: ImagePullPolicy;
  /**
   * Retries of a failed pod. A pod can start before its RoleBinding takes effect, so keep at least 1.
   * @default 3
   */
  readonly backoffLimit?: number;
  /** Upper bound of the whole Job, retries included. @default 300 */
  readonly activeDeadlineSeconds?: number;
  /**
   * Delete the finished Job after this many seconds. The Secret stays either way.
   * @default - not set: the finished Job stays until deleted
   */
  readonly ttlSecondsAfterFinished?: number;
  /** Bound of each Kubernetes API request made by the program. @default 10 */
  readonly requestTimeoutSeconds?: number;
  /**
   * User ID of the container; must not be 0 (the pod runs as non-root).
   * @default 1000 (the `node` user of the official Node.js images)
   */
  readonly runAsUser?: number;
  /** CPU and memory of the container. @default - see CurveCertJobResources */
  readonly resources?: CurveCertJobResources;
  /**
   * Extra labels on every object, the pod and the created Secret. The `app.kubernetes.io/`
   * labels this construct sets cannot be overridden.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
}

/**
 * A one-off Job that generates the MiniCluster's CURVE certificate inside the cluster and stores it
 * in a Secret, only if that Secret does not exist yet (re-running never rotates a certificate). Also
 * synthesizes its least-privilege ServiceAccount, Role and RoleBinding. The bundled program, which
 * a stock Node.js image runs, is in a ConfigMap shared by every certificate Job of the namespace in
 * the chart (`<chart>-minicluster-certgen-<hash>`).
 */
export class CurveCertJob extends Construct {
  /** The Secret the Job creates (key `curve.cert`). */
  public readonly secretName: string;
  /** Name of the Job. */
  public readonly jobName: string;
  /** Name of the ServiceAccount (also of the Role and RoleBinding). */
  public readonly serviceAccountName: string;
  /** Name of the shared ConfigMap holding the program (key `certgen.js`). */
  public readonly programConfigMapName: string;
  /**
   * The Job, as an escape hatch: `certJob.job.addJsonPatch(JsonPatch.add(...))` changes the
   * synthesized manifest (paths as in the YAML).
   */
  public readonly job: ApiObject;

  constructor(scope: Construct, id: string, props: CurveCertJobProps) {
    super(scope, id);
    const namespace = props.namespace ?? Chart.of(this).namespace;
    const p = resolveProps(props);
    const problems = validate(props, p, namespace);
    if (problems.length > 0) {
      throw new Error(`CurveCertJob '${this.node.path}': invalid props:\n${problems.map((m) => `  - ${m}`).join('\n')}`);
    }
    const base = `${props.clusterName}-curve-cert`;
    this.secretName = p.secretName;
    this.jobName = base;
    this.serviceAccountName = base;
    const labels = sortKeys({ ...props.labels, ...curveCertLabels(props.clusterName) });
    const metadata = (name: string) => ({ name, namespace, labels });

    const serviceAccount: ServiceAccount = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: metadata(base),
      automountServiceAccountToken: false,
    };
    const rules: PolicyRule[] = [
      // `create` cannot be limited by resourceNames: the name is not known before the object exists.
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      { apiGroups: [''], resources: ['secrets'], resourceNames: [p.secretName], verbs: ['get'] },
    ];
    const role: Role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: metadata(base), rules };
    const roleBinding: RoleBinding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: metadata(base),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: base },
      subjects: [{ kind: 'ServiceAccount', name: base, namespace }],
    };
    // `namespace` is checked above; the program is mounted from the pod's own namespace.
    const program = sharedRuntimeProgram(this, CERTGEN_PROGRAM, namespace!);
    this.programConfigMapName = program.name;
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: metadata(base),
      spec: jobSpec(p, base, program.name, labels, props.clusterName),
    };

    const objects = [serviceAccount, role, roleBinding].map((o) => apiObject(this, o));
    // Dependencies order the output so RBAC and the program exist before the Job's pod starts.
    this.job = apiObject(this, job);
    this.job.node.addDependency(...objects, program.configMap);
  }
}

const PROGRAM_DIR = '/program';
const PROGRAM_FILE = `${CERTGEN_PROGRAM}.js`;
const RESERVED_LABEL_PREFIX = 'app.kubernetes.io/';

interface ResolvedProps {
  readonly secretName: string;
  readonly image: string;
  readonly imagePullPolicy: string;
  readonly backoffLimit: number;
  readonly activeDeadlineSeconds: number;
  readonly ttlSecondsAfterFinished?: number;
  readonly requestTimeoutSeconds: number;
  readonly runAsUser: number;
  readonly resources: Required<CurveCertJobResources>;
}

function resolveProps(props: CurveCertJobProps): ResolvedProps {
  return {
    secretName: props.secretName ?? defaultCertificateSecretName(props.clusterName),
    image: props.image ?? DEFAULT_NODE_IMAGE,
    imagePullPolicy: props.imagePullPolicy ?? ImagePullPolicy.IF_NOT_PRESENT,
    backoffLimit: props.backoffLimit ?? 3,
    activeDeadlineSeconds: props.activeDeadlineSeconds ?? 300,
    ttlSecondsAfterFinished: props.ttlSecondsAfterFinished,
    requestTimeoutSeconds: props.requestTimeoutSeconds ?? 10,
    runAsUser: props.runAsUser ?? 1000,
    resources: {
      cpuRequest: props.resources?.cpuRequest ?? '50m',
      cpuLimit: props.resources?.cpuLimit ?? '500m',
      memoryRequest: props.resources?.memoryRequest ?? '64Mi',
      memoryLimit: props.resources?.memoryLimit ?? '128Mi',
    },
  };
}

function jobSpec(p: ResolvedProps, serviceAccountName: string, configMapName: string, labels: { [key: string]: string }, clusterName: string): JobSpec {
  const secretLabels = JSON.stringify(labels); // keys already sorted: deterministic text
  const container: Container = {
    name: 'certgen',
    image: p.image,
    imagePullPolicy: p.imagePullPolicy,
    command: ['node', `${PROGRAM_DIR}/${PROGRAM_FILE}`],
    env: [
      { name: ENV_CERT_NAME, value: clusterName },
      { name: ENV_REQUEST_TIMEOUT_SECONDS, value: String(p.requestTimeoutSeconds) },
      { name: ENV_SECRET_LABELS, value: secretLabels },
      { name: ENV_SECRET_NAME, value: p.secretName },
    ],
    resources: {
      requests: { cpu: p.resources.cpuRequest, memory: p.resources.memoryRequest },
      limits: { cpu: p.resources.cpuLimit, memory: p.resources.memoryLimit },
    },
    securityContext: hardenedSecurityContext(),
    // The program's error message becomes the pod's termination message (it never holds keys).
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'program', mountPath: PROGRAM_DIR, readOnly: true }],
  };
  const podSpec: PodSpec = {
    serviceAccountName,
    // The only pod of the MiniCluster that talks to the API server.
    automountServiceAccountToken: true,
    enableServiceLinks: false,
    restartPolicy: 'Never',
    securityContext: {
      runAsNonRoot: true,
      runAsUser: p.runAsUser,
      runAsGroup: p.runAsUser,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    containers: [container],
    volumes: [{ name: 'program', configMap: { name: configMapName, defaultMode: 0o444 } }],
  };
  return {
    backoffLimit: p.backoffLimit,
    activeDeadlineSeconds: p.activeDeadlineSeconds,
    ttlSecondsAfterFinished: p.ttlSecondsAfterFinished,
    template: { metadata: { labels }, spec: podSpec },
  };
}

function apiObject(scope: Construct, manifest: { apiVersion?: string; kind?: string; metadata?: { name?: string } }): ApiObject {
  const { apiVersion, kind, ...rest } = manifest;
  return new ApiObject(scope, `${kind}`, { apiVersion: apiVersion!, kind: kind!, ...rest });
}


function validate(props: CurveCertJobProps, p: ResolvedProps, namespace: string | undefined): string[] {
  const problems: string[] = [];
  const dnsLabel = (field: string, value: string, max: number, why = '') => {
    if (!DNS1123_LABEL.test(value) || value.length > max) {
      problems.push(`${field}: '${value}' must be a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit) of at most ${max} characters${why}`);
    }
  };
  dnsLabel('clusterName', props.clusterName, 52, " (the Job is named '<clusterName>-curve-cert', at most 63)");
  if (namespace === undefined) {
    problems.push('namespace: not set, and the Chart has no namespace; the RoleBinding must name the namespace of its ServiceAccount');
  } else {
    dnsLabel('namespace', namespace, 63);
  }
  if (!DNS1123_SUBDOMAIN.test(p.secretName) || p.secretName.length > 253) {
    problems.push(`secretName: '${p.secretName}' must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.') of at most 253 characters`);
  }
  if (p.image.trim() === '' || /\s/.test(p.image)) problems.push(`image: '${p.image}' must be a non-empty image reference without spaces`);
  else if (imageReferenceError(p.image)) problems.push(`image: '${p.image}' ${imageReferenceError(p.image)}`);
  const integer = (field: string, value: number | undefined, min: number, max?: number) => {
    if (value === undefined || (Number.isInteger(value) && value >= min && (max === undefined || value <= max))) return;
    problems.push(`${field}: ${value} must be an integer ${max === undefined ? `>= ${min}` : `from ${min} to ${max}`}`);
  };
  integer('backoffLimit', p.backoffLimit, 0);
  integer('activeDeadlineSeconds', p.activeDeadlineSeconds, 1);
  integer('ttlSecondsAfterFinished', p.ttlSecondsAfterFinished, 0);
  // Also the group ID: the API server's user and group IDs stop at 2^31 - 1.
  integer('runAsUser', p.runAsUser, 1, MAX_UNIX_ID);
  if (!(Number.isFinite(p.requestTimeoutSeconds) && p.requestTimeoutSeconds > 0)) {
    problems.push(`requestTimeoutSeconds: ${p.requestTimeoutSeconds} must be a positive number`);
  }
  for (const [field, value] of Object.entries(p.resources)) {
    if (!QUANTITY.test(value)) problems.push(`resources.${field}: '${value}' is not a Kubernetes quantity (e.g. '100m', '64Mi')`);
  }
  for (const [key, value] of Object.entries(props.labels ?? {})) {
    problems.push(...labelProblems(key, value));
  }
  return problems;
}

function labelProblems(key: string, value: string): string[] {
  const problems: string[] = [];
  const field = `labels['${key}']`;
  if (key.startsWith(RESERVED_LABEL_PREFIX)) {
    problems.push(`${field}: keys under '${RESERVED_LABEL_PREFIX}' are set by this construct`);
  }
  const keyError = labelKeyError(key);
  if (keyError) problems.push(`${field}: ${keyError}`);
  const valueError = labelValueError(value);
  if (valueError) problems.push(`${field}: value '${value}': ${valueError}`);
  return problems;
}

/**
 * The autoscaler's parts (props `autoscale`, docs/production.md "Autoscaling"): its validation
 * rules, its sidecar and volumes, and its ServiceAccount, Role and RoleBinding.
 *
 * Least privilege: the pod keeps automountServiceAccountToken false, and the ServiceAccount's token
 * comes through a projected volume that only the autoscaler container mounts; the Role may get and
 * patch this one Job (resourceNames). The Flux container, which runs the user's programs, only
 * shares an emptyDir with the autoscaler: Flux's state one way, the ranks to drain the other.
 */
import type { Container, Volume, VolumeMount } from 'kubernetes-types-1.30/core/v1';
import type { Role, RoleBinding } from 'kubernetes-types-1.30/rbac/v1';
import {
  AUTOSCALE_DIR, AUTOSCALE_PROGRAM, AUTOSCALE_VOLUME, AUTOSCALER_CONTAINER, ENV, PROGRAM_DIR, TOKEN_DIR,
} from '../../core/autoscale-contract';
import { DEFAULT_NODE_IMAGE } from '../../core/images';
import { featuresIfValid } from '../../core/kubernetes-version';
import { MiniClusterProps } from '../mini-cluster-props';
import { hardenedSecurityContext } from './hardened';
import { PropRule, brokenRules } from './prop-rules';
import { ResolvedMiniCluster } from './resolve';
import type { Violation } from './validate-mini-cluster-props';

export const AUTOSCALE_DEFAULTS = { idleSeconds: 60, periodSeconds: 2 } as const;
/** The projected token volume and the program's volume. */
export const AUTOSCALER_TOKEN_VOLUME = 'flux-autoscaler-token';
export const AUTOSCALER_PROGRAM_VOLUME = 'flux-autoscaler-program';
/** Lifetime of the projected token; the kubelet renews it before it expires. */
const TOKEN_SECONDS = 3600;
/** The user the autoscaler runs as when the pod names none (the `node` user of the Node.js images). */
const DEFAULT_USER = 1000;

/** The autoscaler's resolved settings. */
export interface ResolvedAutoscale {
  readonly idleSeconds: number;
  readonly periodSeconds: number;
  readonly image: string;
  readonly minSize: number;
  readonly maxSize: number;
}

export function resolveAutoscale(r: ResolvedMiniCluster): ResolvedAutoscale | undefined {
  const a = r.props.autoscale;
  if (!a) return undefined;
  return {
    idleSeconds: a.idleSeconds ?? AUTOSCALE_DEFAULTS.idleSeconds,
    periodSeconds: a.periodSeconds ?? AUTOSCALE_DEFAULTS.periodSeconds,
    image: a.image ?? DEFAULT_NODE_IMAGE,
    minSize: r.minSize ?? r.size,
    maxSize: r.maxSize,
  };
}

const isIntIn = (v: unknown, lo: number, hi: number) => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

const RULES: PropRule[] = [
  {
    path: 'autoscale',
    value: () => '(set)',
    broken: (p) => (p.maxSize ?? p.size ?? 1) <= (p.minSize ?? p.size ?? 1),
    rule: (p) => `the cluster is not elastic: maxSize (${p.maxSize ?? p.size ?? 1}) must be above minSize or size (${p.minSize ?? p.size ?? 1}) for the autoscaler to have sizes to choose from`,
  },
  {
    path: 'kubernetesVersion',
    value: (p) => p.kubernetesVersion,
    broken: (p) => featuresIfValid(p.kubernetesVersion)?.nativeSidecars === false,
    rule: () => 'autoscale needs Kubernetes 1.29 or newer: the autoscaler is a native sidecar (an init container with restartPolicy Always)',
  },
  {
    path: 'pod.serviceAccountName',
    value: (p) => p.pod?.serviceAccountName,
    broken: (p) => p.pod?.serviceAccountName !== undefined,
    rule: () => "autoscale gives the pods their ServiceAccount (<job>-autoscaler, which may only get and patch the Job): the pods cannot have another one",
  },
  {
    path: 'pod.automountServiceAccountToken',
    value: (p) => p.pod?.automountServiceAccountToken,
    broken: (p) => p.pod?.automountServiceAccountToken === true,
    rule: () => "with autoscale the token must reach the autoscaler container only: automountServiceAccountToken would mount it into the user's containers too",
  },
  {
    path: 'autoscale.idleSeconds',
    value: (p) => p.autoscale?.idleSeconds,
    broken: (p) => p.autoscale?.idleSeconds !== undefined && !isIntIn(p.autoscale.idleSeconds, 0, 86400),
    rule: () => 'must be an integer from 0 to 86400',
  },
  {
    path: 'autoscale.periodSeconds',
    value: (p) => p.autoscale?.periodSeconds,
    broken: (p) => p.autoscale?.periodSeconds !== undefined && !isIntIn(p.autoscale.periodSeconds, 1, 300),
    rule: () => 'must be an integer from 1 to 300',
  },
  {
    path: 'autoscale.image',
    value: (p) => p.autoscale?.image,
    broken: (p) => p.autoscale?.image !== undefined && (typeof p.autoscale.image !== 'string' || p.autoscale.image.trim() === '' || /\s/.test(p.autoscale.image)),
    rule: () => 'must be a non-empty image reference without spaces',
  },
];

/** Every autoscale problem (none without `autoscale`). */
export function autoscaleViolations(props: MiniClusterProps): Violation[] {
  if (props.autoscale === undefined) return [];
  return brokenRules(RULES, props);
}

/** Name of the ServiceAccount, Role and RoleBinding. */
export function autoscalerAccountName(jobName: string): string {
  return `${jobName}-autoscaler`;
}

/** What the pod gets: the sidecar, its volumes, and the Flux container's mount of the shared directory. */
export interface AutoscalePodParts {
  readonly container: Container;
  readonly volumes: Volume[];
  readonly runnerMount: VolumeMount;
  readonly serviceAccountName: string;
}

/**
 * The sidecar runs the program on index 0 only; on the other indexes a shell that waits, since a
 * native sidecar must not end (and its trap ends it at once when the pod stops).
 */
const COMMAND = 'if [ "$JOB_COMPLETION_INDEX" = 0 ]; then exec node "$0"; fi; trap "exit 0" TERM; while :; do sleep 3600 & wait $!; done';

export function autoscalePodParts(r: ResolvedMiniCluster, a: ResolvedAutoscale, programConfigMap: string, programKey: string): AutoscalePodParts {
  const podUser = r.props.pod?.runAsUser;
  const user = podUser !== undefined && podUser !== 0 ? podUser : DEFAULT_USER;
  const env: Container['env'] = [
    { name: ENV.dir, value: AUTOSCALE_DIR },
    { name: ENV.idleSeconds, value: String(a.idleSeconds) },
    { name: ENV.jobName, value: r.name },
    { name: ENV.maxSize, value: String(a.maxSize) },
    { name: ENV.minSize, value: String(a.minSize) },
    // The pod's own namespace: right also after a kustomize or GitOps namespace override.
    { name: ENV.namespace, valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    { name: ENV.periodSeconds, value: String(a.periodSeconds) },
    { name: ENV.tokenDir, value: TOKEN_DIR },
  ];
  const container: Container = {
    name: AUTOSCALER_CONTAINER,
    image: a.image,
    imagePullPolicy: 'IfNotPresent',
    command: ['/bin/sh', '-c', COMMAND, `${PROGRAM_DIR}/${programKey}`],
    env,
    resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '128Mi' } },
    securityContext: hardenedSecurityContext({ runAsUser: user, seccompProfile: { type: 'RuntimeDefault' } }),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: AUTOSCALE_VOLUME, mountPath: AUTOSCALE_DIR },
      { name: AUTOSCALER_PROGRAM_VOLUME, mountPath: PROGRAM_DIR, readOnly: true },
      { name: AUTOSCALER_TOKEN_VOLUME, mountPath: TOKEN_DIR, readOnly: true },
    ],
    // A native sidecar: it starts before Flux and the kubelet stops it once the Flux container ended.
    restartPolicy: 'Always',
  };
  return {
    container,
    serviceAccountName: autoscalerAccountName(r.name),
    runnerMount: { name: AUTOSCALE_VOLUME, mountPath: AUTOSCALE_DIR },
    volumes: [
      { name: AUTOSCALE_VOLUME, emptyDir: {} },
      { name: AUTOSCALER_PROGRAM_VOLUME, configMap: { name: programConfigMap, defaultMode: 0o444 } },
      {
        name: AUTOSCALER_TOKEN_VOLUME,
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: TOKEN_SECONDS } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          ],
        },
      },
    ],
  };
}

/** The autoscaler's ServiceAccount (no token automounted anywhere), Role and RoleBinding. */
export function autoscalerRbac(jobName: string, namespace: string, labels: Record<string, string>): [any, Role, RoleBinding] {
  const name = autoscalerAccountName(jobName);
  const metadata = { name, namespace, labels };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata, automountServiceAccountToken: false },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata,
      // Its own Job only: read its size and the Flux view's annotations, patch parallelism,
      // completions and the decision annotation.
      rules: [{ apiGroups: ['batch'], resources: ['jobs'], resourceNames: [jobName], verbs: ['get', 'patch'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
  ];
}

export { AUTOSCALE_PROGRAM };

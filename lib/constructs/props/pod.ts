/** Props of the MiniCluster's pods (the operator's `spec.pod`, `spec.logging`, `spec.network`). */
import { IServiceAccountReference } from './references';

/** A toleration. */
export interface Toleration {
  /** Taint key the toleration matches. @default - matches all keys */
  readonly key?: string;
  /**
   * `Equal` or `Exists`.
   * @default Equal
   * @jsii suppress JSII5018 C# capitalizes members (`Operator`): not a keyword there
   */
  readonly operator?: string;
  /** Taint value the toleration matches (with `Equal`). @default - none */
  readonly value?: string;
  /** `NoSchedule`, `PreferNoSchedule` or `NoExecute`. @default - all effects */
  readonly effect?: string;
  /** With effect `NoExecute`: how long the pod stays on a node after the taint appears. @default - for ever */
  readonly tolerationSeconds?: number;
}

/** What the pods restart. */
export enum PodRestartPolicy {
  /** Restart failed containers in place (the Flux Operator's default). */
  ON_FAILURE = 'OnFailure',
  /** Never restart in place; the Job replaces the pod. Needed for podFailurePolicy. */
  NEVER = 'Never',
}

/** Pod options. */
export interface PodOptions {
  /** Extra pod labels. @default - none */
  readonly labels?: { [key: string]: string };
  /** Pod annotations. @default - none */
  readonly annotations?: { [key: string]: string };
  /** Name of the pods' service account. @default - the namespace's default service account, with no token mounted */
  readonly serviceAccountName?: string;
  /**
   * The pods' service account, as an object (a cdk8s-plus `ServiceAccount` of any version fits); as
   * serviceAccountName. @default - the namespace's default service account, with no token mounted
   */
  readonly serviceAccount?: IServiceAccountReference;
  /** Mount the service account token. @default false */
  readonly automountServiceAccountToken?: boolean;
  /** Node labels the pods must run on. @default - none */
  readonly nodeSelector?: { [key: string]: string };
  /** Required node affinity: each label key must have one of the values. @default - none */
  readonly nodeAffinity?: { [key: string]: string[] };
  /** Taints the pods tolerate. @default - none */
  readonly tolerations?: Toleration[];
  /**
   * Seconds a pod stays bound to a node that stopped answering (taints
   * `node.kubernetes.io/unreachable` and `node.kubernetes.io/not-ready`) before Kubernetes evicts it.
   * Flux gives up on a broker it cannot reach after about 20 s, so Kubernetes' own 300 s only keeps
   * the cluster a node short for longer: once evicted, the pod is replaced as soon as it is gone
   * (the node deleted, or tainted out-of-service; docs/reliability.md). A toleration of your own for
   * either taint in `tolerations` replaces the one for it.
   * @default 30
   */
  readonly nodeLossSeconds?: number;
  /** Scheduler of the pods. @default - the default scheduler */
  readonly schedulerName?: string;
  /** RuntimeClass of the pods. @default - none */
  readonly runtimeClassName?: string;
  /** DNS policy of the pods. @default - ClusterFirst */
  readonly dnsPolicy?: string;
  /** Share the host's IPC namespace (needs PodSecurityLevel.PRIVILEGED). @default false */
  readonly hostIPC?: boolean;
  /** Share the host's PID namespace (needs PodSecurityLevel.PRIVILEGED). @default false */
  readonly hostPID?: boolean;
  /** Pod securityContext.fsGroup. @default - none; runAsGroup when runAsUser is set or at PodSecurityLevel.RESTRICTED */
  readonly fsGroup?: number;
  /**
   * Pod securityContext.runAsUser: the user every container runs as, unless its own securityContext
   * says otherwise. PodSecurityLevel.RESTRICTED needs a non-zero user for images whose user is root.
   * @default - the image's user; 1000 at PodSecurityLevel.RESTRICTED
   */
  readonly runAsUser?: number;
  /** Pod securityContext.runAsGroup. @default - the image's group; runAsUser at PodSecurityLevel.RESTRICTED */
  readonly runAsGroup?: number;
  /**
   * Restart policy. Never lets the Job use podFailurePolicy and per-index backoff.
   * @default - Never when the Kubernetes version supports the native lifecycle, else OnFailure
   */
  readonly restartPolicy?: PodRestartPolicy;
}

/** Logging modes of the entrypoint scripts and brokers. */
export interface LoggingOptions {
  /** Print only the job's output (broker log level 0, scripts silent). @default false */
  readonly quiet?: boolean;
  /** Scripts stop at the first failing command (`set -eEu -o pipefail`). @default false */
  readonly strict?: boolean;
  /** `-vvv` on the submit command. @default false */
  readonly debug?: boolean;
  /** Time `flux start` and the submit with /usr/bin/time (must be in the image). @default false */
  readonly timed?: boolean;
  /** ZeroMQ debugging (`tbon.zmqdebug=1`). @default false */
  readonly zeromq?: boolean;
}

/** Network options. */
export interface NetworkOptions {
  /** Name of the headless Service, also the pods' subdomain. @default - the MiniCluster name */
  readonly headlessName?: string;
  /**
   * Do not add the soft same-zone affinity and one-pod-per-node anti-affinity: the same as
   * `placement` with BrokersPerNode.ANY and ZonePlacement.ANY (the Flux Operator's field).
   * @default false
   */
  readonly disableAffinity?: boolean;
  /** The cluster's DNS domain. @default cluster.local */
  readonly clusterDomain?: string;
  /** Network interface rank 0 and interior ranks bind. @default eth0 */
  readonly bindInterface?: string;
  /** TCP port of the brokers. @default 8050 */
  readonly brokerPort?: number;
}

/** State archive restored at start (`-Scontent.restore`) when the path exists in the container. */
export interface ArchiveOptions {
  /** Path of the archive. */
  readonly path: string;
}

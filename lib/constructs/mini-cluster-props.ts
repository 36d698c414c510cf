import { CertificateSource } from './certificate';
import { AutoscaleOptions } from './props/autoscale';
import { MiniClusterContainer } from './props/container';
import { HandshakeOptions } from './props/handshake';
import { FluxOptions } from './props/flux';
import { GitOpsOptions } from './props/gitops';
import { ArchiveOptions, LoggingOptions, NetworkOptions, PodOptions } from './props/pod';
import { PlacementOptions } from './props/placement';
import { NetworkPolicyOptions, PodSecurityLevel } from './props/security';

/**
 * Props of a {@link MiniCluster}: the Flux Operator's MiniCluster v1alpha2 spec for one cluster,
 * with the same defaults and meanings, plus the target Kubernetes version.
 */
export interface MiniClusterProps {
  /**
   * Name of the cluster: the Job, the pods' hostname prefix (`<name>-<index>`) and the default
   * Service name. A DNS-1035 label.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Namespace of every object. It is part of each broker's connect name, so it is always written.
   * @default - the chart's namespace, else `default`
   * @jsii suppress JSII5018 C# capitalizes members (`Namespace`): not a keyword there
   */
  readonly namespace?: string;
  /** Containers of every pod; exactly one runs Flux. */
  readonly containers: MiniClusterContainer[];
  /** Number of pods (brokers). @default 1 */
  readonly size?: number;
  /** Largest size the cluster may be scaled to; hosts and R cover it. @default - size */
  readonly maxSize?: number;
  /** Brokers needed before the job starts (`broker.quorum`). @default - all of size */
  readonly minSize?: number;
  /**
   * Size an elastic cluster (maxSize above minSize or size) from Flux's own queue: grow up to
   * maxSize when jobs wait for nodes, shrink down to minSize (or size) once brokers have been idle,
   * draining them in Flux first. Adds a sidecar to the pods and a ServiceAccount, Role and
   * RoleBinding that may only get and patch this Job. With Kueue (queueName) the Job is an elastic
   * Kueue Job: growth is admitted within the queue's quota (Kueue's gate ElasticJobsViaWorkloadSlices).
   * @default - no autoscaler: the Job keeps the size it is given
   */
  readonly autoscale?: AutoscaleOptions;
  /** Tasks of the submitted job: `tasks >= size` gives `-N size -n tasks`, 0 gives `-N size`, else `-n tasks`. @default 1 */
  readonly tasks?: number;
  /** The Job's activeDeadlineSeconds. @default 31500000 */
  readonly deadlineSeconds?: number;
  /**
   * The Job's backoffLimit: pod failures no podFailurePolicy rule matched, in all pods, before the
   * Job fails (with restartPolicy OnFailure: container restarts, as the operator counts them).
   * @default - 3 with the Job's podFailurePolicy (Kubernetes 1.29+, restartPolicy Never); 100 (the operator's) otherwise
   */
  readonly backoffLimit?: number;
  /** Delete the finished Job (and its pods) after this many seconds. @default - kept */
  readonly ttlSecondsAfterFinished?: number;
  /** Start every broker with no initial program; the lead stays up for interactive use. @default false */
  readonly interactive?: boolean;
  /** Flux itself: the view image, submit command, topology, scheduler, broker config. @default - Flux defaults of the operator */
  readonly flux?: FluxOptions;
  /** Logging modes of the scripts and brokers. @default - all logging modes off */
  readonly logging?: LoggingOptions;
  /** The headless Service, DNS domain, bind interface and broker port. @default - headless Service named after the cluster, soft affinity on */
  readonly network?: NetworkOptions;
  /** A Flux state archive restored at start. @default - no archive */
  readonly archive?: ArchiveOptions;
  /** Labels of the Job object (for example Kueue's `kueue.x-k8s.io/queue-name`). @default - none */
  readonly jobLabels?: { [key: string]: string };
  /** Pod labels, annotations, scheduling, service account and security settings. @default - defaults */
  readonly pod?: PodOptions;
  /**
   * Where the pods land: how many brokers share a node, and how they are placed across zones.
   * @default - one broker per node and one zone, both preferred (the Flux Operator's soft rules)
   */
  readonly placement?: PlacementOptions;
  /** Containers of a pod share one process namespace. @default false */
  readonly shareProcessNamespace?: boolean;
  /**
   * Kubernetes minor version the output targets ('1.27' or newer). Newer versions get the native
   * Job lifecycle (successPolicy, podFailurePolicy, native sidecars, image volumes: docs/objects.md).
   * @default '1.35' (DEFAULT_KUBERNETES_VERSION)
   */
  readonly kubernetesVersion?: string;
  /**
   * The hosts handshake: every broker's TBON parent is known by IP, reachable and holds the same
   * certificate before Flux starts, bounded by a deadline (docs/handshake.md).
   * @default - on: a native sidecar from Kubernetes 1.29, an init container before
   */
  readonly handshake?: HandshakeOptions;
  /**
   * The CURVE certificate shared by all brokers.
   * @default CertificateSource.generatedInCluster() (a Job creates Secret `<name>-curve` once)
   */
  readonly certificate?: CertificateSource;
  /**
   * The Pod Security Standards level every pod must meet. Props that break it are rejected; at
   * RESTRICTED every container is also hardened (see PodSecurityLevel and docs/production.md).
   * @default PodSecurityLevel.BASELINE
   */
  readonly podSecurity?: PodSecurityLevel;
  /** A NetworkPolicy that isolates the cluster's pods. @default - none */
  readonly networkPolicy?: NetworkPolicyOptions;
  /** Job naming and Argo CD / Flux CD annotations. @default - plain names, no annotations */
  readonly gitOps?: GitOpsOptions;
  /**
   * Kueue LocalQueue of the Job (label `kueue.x-k8s.io/queue-name`). An elastic cluster (maxSize
   * above minSize or size) also gets Kueue's `kueue.x-k8s.io/elastic-job: "true"`, so that a resize
   * is admitted within quota (Kueue's gate ElasticJobsViaWorkloadSlices; ignored without it).
   * @default - none
   */
  readonly queueName?: string;
  /**
   * Create the Job suspended (`spec.suspend`); Kueue unsuspends it once admitted.
   * @default - true with queueName, else false
   */
  readonly suspend?: boolean;
}

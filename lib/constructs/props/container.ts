/** Props of the containers in every pod of a MiniCluster (the operator's `MiniClusterContainer`). */
import { IConfigMapReference, IPersistentVolumeClaimReference, ISecretReference } from './references';

/** How the kubelet pulls an image. */
export enum ImagePullPolicy {
  /** Always pull. */
  ALWAYS = 'Always',
  /** Pull only when the image is not on the node. */
  IF_NOT_PRESENT = 'IfNotPresent',
  /** Never pull. */
  NEVER = 'Never',
}

/** A key of a Secret, exposed as an environment variable. Name the Secret by `name` or `secret`. */
export interface SecretKeyReference {
  /** Name of the Secret. @default - the name of `secret`; one of the two is required */
  readonly name?: string;
  /** The Secret, as an object (a cdk8s-plus `Secret` of any version fits). @default - the Secret named by `name` */
  readonly secret?: ISecretReference;
  /** Key inside the Secret. */
  readonly key: string;
}

/** Compute resources of a container, as Kubernetes quantities (`'500m'`, `'2Gi'`, `'1'`). */
export interface ContainerResources {
  /** Requests, resource name to quantity. @default - no requests */
  readonly requests?: { [resource: string]: string };
  /** Limits, resource name to quantity. @default - no limits */
  readonly limits?: { [resource: string]: string };
}

/** Linux capabilities to add or drop. */
export interface Capabilities {
  /** Capabilities to add (for example `SYS_PTRACE`). @default - none */
  readonly add?: string[];
  /** Capabilities to drop (for example `ALL`). @default - none */
  readonly drop?: string[];
}

/** The subset of a Kubernetes container SecurityContext that a MiniCluster passes through. */
export interface ContainerSecurityContext {
  /** Run the container privileged. @default - not set */
  readonly privileged?: boolean;
  /** User ID of the container's processes. @default - not set */
  readonly runAsUser?: number;
  /** Group ID of the container's processes. @default - not set */
  readonly runAsGroup?: number;
  /** The kubelet refuses to start the container as root. @default - not set */
  readonly runAsNonRoot?: boolean;
  /** Whether a process may gain more privileges than its parent. @default - not set */
  readonly allowPrivilegeEscalation?: boolean;
  /** Mount the container's root filesystem read-only. @default - not set */
  readonly readOnlyRootFilesystem?: boolean;
  /** Linux capabilities to add or drop. @default - not set */
  readonly capabilities?: Capabilities;
}

/** Exec lifecycle hooks; each is one command run without a shell, as the operator does. */
export interface ContainerLifecycle {
  /** Command run right after the container starts (postStart exec hook). @default - none */
  readonly postStartExec?: string;
  /** Command run before the container stops (preStop exec hook). @default - none */
  readonly preStopExec?: string;
}

/** Shell snippets run at fixed points of the entrypoint scripts. */
export interface ContainerCommands {
  /** First thing the entrypoint runs, on every rank. @default - none */
  readonly init?: string;
  /** Before the lead/worker split, on every rank. @default - none */
  readonly pre?: string;
  /** On the lead broker only, before Flux starts. @default - none */
  readonly brokerPre?: string;
  /** On workers only, before their broker starts. @default - none */
  readonly workerPre?: string;
  /** After Flux exits, on every rank. @default - none */
  readonly post?: string;
  /** Prefix of the lead broker's initial program (for example `fusion`). @default - none */
  readonly prefix?: string;
  /** A script run as the job instead of `command` (mutually exclusive with it). @default - none */
  readonly script?: string;
  /** Before a non-Flux sidecar container's command. @default - none */
  readonly servicePre?: string;
}

/**
 * A volume mounted into a container. Exactly one source may be set; with none, the volume is the
 * PersistentVolumeClaim `claimName`.
 */
export interface ContainerVolume {
  /** Mount path. Required for claimName and hostPath. @default - /dev/shm for emptyDir volumes */
  readonly path?: string;
  /** Mount read-only. @default false */
  readonly readOnly?: boolean;
  /** A hostPath directory. @default - not a hostPath volume */
  readonly hostPath?: string;
  /** A ConfigMap, by name. @default - not a ConfigMap volume */
  readonly configMapName?: string;
  /** A ConfigMap, as an object (a cdk8s-plus `ConfigMap` of any version fits); as configMapName. @default - not a ConfigMap volume */
  readonly configMap?: IConfigMapReference;
  /** ConfigMap keys to project, key to path. @default - all keys */
  readonly items?: { [key: string]: string };
  /** A PersistentVolumeClaim, by name. @default - not a PVC volume */
  readonly claimName?: string;
  /**
   * A PersistentVolumeClaim, as an object (a cdk8s-plus `PersistentVolumeClaim` of any version
   * fits); as claimName. @default - not a PVC volume
   */
  readonly persistentVolumeClaim?: IPersistentVolumeClaimReference;
  /** A Secret, by name. @default - not a Secret volume */
  readonly secretName?: string;
  /** A Secret, as an object (a cdk8s-plus `Secret` of any version fits); as secretName. @default - not a Secret volume */
  readonly secret?: ISecretReference;
  /** An emptyDir. @default false */
  readonly emptyDir?: boolean;
  /** emptyDir medium: `memory` for a tmpfs. @default - node disk */
  readonly emptyDirMedium?: string;
  /** emptyDir size limit (quantity). @default - no limit */
  readonly emptyDirSizeLimit?: string;
  /** An inline CSI volume driver. @default - not a CSI volume */
  readonly csiDriver?: string;
  /** CSI volume attributes. @default - none */
  readonly csiDriverAttributes?: { [key: string]: string };
}

/** A container of every MiniCluster pod. */
export interface MiniClusterContainer {
  /** Container image. */
  readonly image: string;
  /**
   * Container name. The Flux runner is always named after the MiniCluster, as in the operator.
   * @default - the MiniCluster name for the Flux runner; required for other containers
   */
  readonly name?: string;
  /**
   * Command the lead broker submits to Flux (or runs, with `launcher`). For `batch`, one job per line.
   * @default - none: the lead broker runs an interactive instance
   */
  readonly command?: string;
  /** Working directory of the command. @default - the image's working directory */
  readonly workingDir?: string;
  /** Environment variables. @default - none */
  readonly environment?: { [name: string]: string };
  /** Environment variables read from Secrets, variable name to Secret key. @default - none */
  readonly secrets?: { [name: string]: SecretKeyReference };
  /** Compute resources of the container. @default - no requests or limits */
  readonly resources?: ContainerResources;
  /** TCP ports the container listens on. @default - none */
  readonly ports?: number[];
  /** Volumes, by volume name. @default - none */
  readonly volumes?: { [name: string]: ContainerVolume };
  /** postStart and preStop hooks. @default - none */
  readonly lifecycle?: ContainerLifecycle;
  /** Shell snippets the entrypoint runs at fixed points. @default - none */
  readonly commands?: ContainerCommands;
  /** Give the command to `flux start` directly (workflow tools that submit their own jobs). @default false */
  readonly launcher?: boolean;
  /** Submit each line of the command as its own Flux job in one `flux batch`. @default false */
  readonly batch?: boolean;
  /** With `batch`, write the lines verbatim into the batch script. @default false */
  readonly batchRaw?: boolean;
  /** Directory for batch job output (FLUX_OUTPUT_DIR). @default /tmp/fluxout */
  readonly logs?: string;
  /** Pull the image every time (wins over imagePullPolicy). @default false */
  readonly pullAlways?: boolean;
  /** When the kubelet pulls the image. @default ImagePullPolicy.IF_NOT_PRESENT */
  readonly imagePullPolicy?: ImagePullPolicy;
  /** Name of an image pull Secret added to the pod. @default - none */
  readonly imagePullSecret?: string;
  /** An image pull Secret added to the pod, as an object (a cdk8s-plus `Secret` fits); as imagePullSecret. @default - none */
  readonly imagePullSecretRef?: ISecretReference;
  /** The container's security context (a subset of Kubernetes'). @default - none */
  readonly securityContext?: ContainerSecurityContext;
  /**
   * This container runs Flux. Exactly one container must; a single container always does.
   * @default - true when it is the only container
   */
  readonly runFlux?: boolean;
  /** For a non-Flux container: keep the image's entrypoint instead of the wrapper script. @default false */
  readonly noWrapEntrypoint?: boolean;
  /**
   * For a non-Flux container that serves for as long as Flux runs (a web server, a database): run it
   * as a Kubernetes native sidecar (an init container with `restartPolicy: Always`). It starts before
   * the Flux runner and is stopped once the runner ends, so the pods complete and the Job can
   * succeed; as a plain container, a server that never exits keeps its pod, and so the Job, running
   * until activeDeadlineSeconds. Needs Kubernetes 1.29 or newer. Kubernetes restarts it whenever it
   * exits, so do not use it for a program that is meant to finish.
   * @default false
   */
  readonly sidecar?: boolean;
}

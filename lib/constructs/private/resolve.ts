/** Applies the operator's defaults to MiniCluster props: one place decides every default. */
import { DEFAULT_FLUX_VIEW_IMAGE, isFluxViewsImage } from '../../core/images';
import { viewMountPath } from '../../core/paths';
import { DEFAULT_KUBERNETES_VERSION, KubernetesFeatures, kubernetesFeatures } from '../../core/kubernetes-version';
import { DEFAULT_TOPOLOGY, childRanks } from '../../core/topology';
import { wholeQuantity } from '../../core/k8s-formats';
import { CertificateSource } from '../certificate';
import { MiniClusterProps } from '../mini-cluster-props';
import { MiniClusterContainer } from '../props/container';
import { FluxViewOptions, FluxViewSource } from '../props/flux';
import { PodRestartPolicy } from '../props/pod';
import { ResolvedPlacement, resolvePlacement } from './placement';

/** MiniCluster props with every default applied. */
export interface ResolvedMiniCluster {
  readonly props: MiniClusterProps;
  readonly name: string;
  readonly namespace: string;
  readonly serviceName: string;
  readonly clusterDomain: string;
  readonly bindInterface: string;
  readonly brokerPort: number;
  readonly size: number;
  readonly maxSize: number;
  readonly minSize?: number;
  readonly tasks: number;
  readonly deadlineSeconds: number;
  readonly backoffLimit: number;
  readonly interactive: boolean;
  readonly quiet: boolean;
  readonly strict: boolean;
  readonly debug: boolean;
  readonly timed: boolean;
  readonly zeromq: boolean;
  readonly viewImage: string;
  readonly viewName: string;
  readonly mountPath: string;
  readonly viewDisabled: boolean;
  /** The copied view and install tree live in memory-backed volumes (flux.container.inMemory). */
  readonly viewInMemory: boolean;
  /** The view image is mounted as an image volume, not copied (flux.container.source). */
  readonly viewImageVolume: boolean;
  /**
   * With the image volume, the Flux runner checks the volume itself, first: a flux-views image,
   * whose layout is known. Any other image is checked by an init container before the runner's
   * subPath mounts of it are made (an image of another layout would leave them uncreatable).
   */
  readonly viewCheckInRunner: boolean;
  /** The Flux runner runs the hosts handshake itself, with node from an image volume (handshake.inRunner). */
  readonly handshakeInRunner: boolean;
  readonly viewPullPolicy: string;
  readonly topology: string;
  readonly connectTimeout: string;
  readonly logLevel: number;
  readonly queuePolicy: string;
  readonly simpleScheduler: boolean;
  readonly submitCommand: string;
  readonly completeWorkers: boolean;
  /** Brokers per node and zones, both ANY with network.disableAffinity. */
  readonly placement: ResolvedPlacement;
  readonly kubernetesVersion: string;
  readonly features: KubernetesFeatures;
  readonly restartPolicy: PodRestartPolicy;
  /** podFailurePolicy and podReplacementPolicy are emitted (restartPolicy Never, Kubernetes 1.29+). */
  readonly nativeFailureHandling: boolean;
  readonly certificate: CertificateSource;
  readonly runnerIndex: number;
  readonly runner: MiniClusterContainer;
}

/**
 * The Job's backoffLimit under podFailurePolicy: failures no rule matched (an init container that
 * failed, a pod the PodGC failed) are retried this many times in all, then the Job fails.
 */
export const NATIVE_BACKOFF_LIMIT = 3;

/** Resolves defaults; props must already be valid. */
export function resolveMiniCluster(props: MiniClusterProps, name: string, namespace: string): ResolvedMiniCluster {
  const size = props.size ?? 1;
  const version = props.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  const features = kubernetesFeatures(version);
  // restartPolicy Never only with podReplacementPolicy: without it a replacement pod could start
  // beside its terminating predecessor, of the same hostname.
  const restartPolicy = props.pod?.restartPolicy
    ?? (features.podReplacementPolicy ? PodRestartPolicy.NEVER : PodRestartPolicy.ON_FAILURE);
  const nativeFailureHandling = restartPolicy === PodRestartPolicy.NEVER && features.podReplacementPolicy;
  const runnerIndex = props.containers.length === 1 ? 0 : props.containers.findIndex((c) => c.runFlux === true);
  const flux = props.flux ?? {};
  const view = flux.container ?? {};
  // Where the view comes from; nowhere when it is disabled.
  const source = view.disable ? undefined : viewSource(view);
  const viewImage = view.image ?? DEFAULT_FLUX_VIEW_IMAGE;
  const logging = props.logging ?? {};
  const network = props.network ?? {};
  return {
    props,
    name,
    namespace,
    serviceName: network.headlessName ?? name,
    clusterDomain: network.clusterDomain ?? 'cluster.local',
    bindInterface: network.bindInterface ?? 'eth0',
    brokerPort: network.brokerPort ?? 8050,
    size,
    maxSize: props.maxSize ?? size,
    minSize: props.minSize,
    tasks: props.tasks ?? 1,
    deadlineSeconds: props.deadlineSeconds ?? 31500000,
    backoffLimit: props.backoffLimit ?? (nativeFailureHandling ? NATIVE_BACKOFF_LIMIT : 100),
    interactive: props.interactive ?? false,
    quiet: logging.quiet ?? false,
    strict: logging.strict ?? false,
    debug: logging.debug ?? false,
    timed: logging.timed ?? false,
    zeromq: logging.zeromq ?? false,
    viewImage,
    viewName: view.name ?? 'flux-view',
    mountPath: viewMountPath(view.mountPath),
    viewDisabled: view.disable ?? false,
    viewInMemory: source === FluxViewSource.COPY_TO_MEMORY,
    viewImageVolume: source === FluxViewSource.IMAGE_VOLUME,
    viewCheckInRunner: source === FluxViewSource.IMAGE_VOLUME && isFluxViewsImage(viewImage),
    handshakeInRunner: handshakeInRunner(props),
    viewPullPolicy: view.pullAlways ? 'Always' : 'IfNotPresent',
    topology: flux.topology ?? DEFAULT_TOPOLOGY,
    connectTimeout: flux.connectTimeout ?? '5s',
    logLevel: flux.logLevel ?? 6,
    // Fluxion's fcfs refuses a job that needs nodes not up yet (flux-sched 0.54 dfu.cpp request_feasible:
    // "unsatisfiable"); the backfilling policies keep it queued until they join.
    queuePolicy: flux.scheduler?.queuePolicy ?? ((props.maxSize ?? size) > size || (props.minSize ?? size) < size ? 'easy' : 'fcfs'),
    simpleScheduler: flux.scheduler?.simple ?? false,
    submitCommand: flux.submitCommand ?? 'flux submit',
    completeWorkers: flux.completeWorkers ?? false,
    placement: resolvePlacement(props),
    kubernetesVersion: version,
    features,
    restartPolicy,
    nativeFailureHandling,
    certificate: props.certificate ?? CertificateSource.generatedInCluster(),
    runnerIndex,
    runner: props.containers[runnerIndex],
  };
}

/** The TBON children the lead needs connected to be Ready: its own among the quorum's ranks (docs/day2.md). */
export function leadReadyChildren(r: ResolvedMiniCluster): number {
  return childRanks(0, r.minSize ?? r.size, r.topology).length;
}

/** flux.container.source, with the older inMemory flag as its alias (validation rejects a disagreement). */
export function viewSource(view: FluxViewOptions): FluxViewSource {
  return view.source ?? (view.inMemory ? FluxViewSource.COPY_TO_MEMORY : FluxViewSource.COPY_TO_DISK);
}

/**
 * Whether the Flux runner runs the hosts handshake (handshake.inRunner): by default where the view
 * is an image volume. Validation asks it before resolving, for the mount paths it takes.
 */
export function handshakeInRunner(props: MiniClusterProps): boolean {
  const h = props.handshake ?? {};
  const view = props.flux?.container ?? {};
  return h.enabled !== false && (h.inRunner ?? (!view.disable && viewSource(view) === FluxViewSource.IMAGE_VOLUME));
}

/** `-N/-n` flags of the operator: tasks >= size gives -N size -n tasks, 0 gives -N size, else -n tasks. */
export function nodeTaskFlags(size: number, tasks: number): string {
  if (tasks === 0) return `-N ${size}`;
  return tasks >= size ? `-N ${size} -n${tasks}` : `-n${tasks}`;
}

/**
 * Arguments of `flux R encode` besides --hosts. Declared whole-CPU and GPU limits give an exact R
 * (hwloc in a pod sees the node's cores, not the pod's quota); otherwise the node is probed.
 */
export function resourceEncodeArgs(c: MiniClusterContainer): string[] {
  const limits = c.resources?.limits ?? {};
  const args: string[] = [];
  const cpu = wholeQuantity(limits.cpu);
  if (cpu !== undefined && cpu >= 1) args.push(`--cores=${firstIds(cpu)}`);
  if (args.length === 0) return ['--local'];
  const gpuKey = Object.keys(limits).sort().find((k) => /(^|\/)gpu$/.test(k));
  const gpus = gpuKey ? wholeQuantity(limits[gpuKey]) : undefined;
  if (gpus !== undefined && gpus >= 1) args.push(`--gpu=${firstIds(gpus)}`);
  return args;
}

/** The RFC 22 idset of ids 0 to count-1: `0` for one (flux R encode rejects the range `0-0`). */
function firstIds(count: number): string {
  return count === 1 ? '0' : `0-${count - 1}`;
}

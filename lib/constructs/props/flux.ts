/** Props of Flux itself (the operator's `spec.flux`). */
import { ContainerResources, ContainerSecurityContext } from './container';

/** Where a pod's Flux install comes from (FluxViewOptions.source). */
export enum FluxViewSource {
  /** The init container copies the view and its install tree onto the node's disk (emptyDir volumes), as the Flux Operator does. */
  COPY_TO_DISK = 'copy-to-disk',
  /** The same copy into memory (emptyDir volumes with `medium: Memory`): FluxViewOptions.inMemory. */
  COPY_TO_MEMORY = 'copy-to-memory',
  /**
   * No copy: the view image is an image volume (`volumes[].image`, Kubernetes 1.35 or newer, a
   * container runtime that supports image volumes), mounted read-only: its install tree at
   * /opt/software, where the view's symlinks and RPATHs point, and its Spack views at /opt/views.
   */
  IMAGE_VOLUME = 'image-volume',
}

/** The flux view init container, which copies a Flux install into every pod. */
export interface FluxViewOptions {
  /** Image holding the Flux install to copy. @default DEFAULT_FLUX_VIEW_IMAGE (ghcr.io/converged-computing/flux-view-ubuntu:tag-noble) */
  readonly image?: string;
  /** Init container name, also the name of its emptyDir volume. @default flux-view */
  readonly name?: string;
  /** Where the view is mounted in every container. @default /mnt/flux */
  readonly mountPath?: string;
  /** The application image already has Flux on its PATH: the view is not copied. @default false */
  readonly disable?: boolean;
  /**
   * Copy the view and the Flux install tree into memory (emptyDir volumes with `medium: Memory`)
   * instead of onto the node's disk. The copy is most of a pod's start, and in memory it is several
   * times faster (docs/benchmarks.md, bring-up); but the copy, as large as the view image's
   * /opt/software, is then memory of the pod: it counts against the pod's memory limits and the
   * node's memory. Flux's own files (config, state) stay on disk. The same as `source:
   * FluxViewSource.COPY_TO_MEMORY`; set one of the two (both only when they agree).
   * @default false
   */
  readonly inMemory?: boolean;
  /**
   * Where each pod's Flux install comes from: copied by the init container onto disk or into
   * memory, or mounted read-only from the view image as an image volume (no copy: a pod's start no
   * longer grows with the view's size; needs kubernetesVersion 1.35 or newer and a container runtime
   * with image volumes, docs/production.md). With the image volume the init container only writes
   * Flux's config, and `<mountPath>/view` is a symlink to the mounted view.
   * @default - FluxViewSource.COPY_TO_MEMORY when inMemory is true, else FluxViewSource.COPY_TO_DISK
   */
  readonly source?: FluxViewSource;
  /** Working directory of the init container. @default - the image's working directory */
  readonly workingDir?: string;
  /** PYTHONPATH for Flux's Python bindings. @default - the view's site-packages */
  readonly pythonPath?: string;
  /** Compute resources of the init container. @default - no requests or limits */
  readonly resources?: ContainerResources;
  /** Pull the image every time. @default false */
  readonly pullAlways?: boolean;
  /** The init container's security context. @default - none */
  readonly securityContext?: ContainerSecurityContext;
}

/** The Fluxion scheduler. */
export interface SchedulerOptions {
  /** Use sched-simple instead of Fluxion. @default false */
  readonly simple?: boolean;
  /**
   * Fluxion queue policy (`fcfs`, `easy`, `hybrid`, `conservative`). With `fcfs` Fluxion refuses at
   * once (`unsatisfiable`) a job that needs more nodes than are up; the backfilling policies keep it
   * queued until the nodes come, which an elastic cluster (`maxSize` above `size`, or `minSize`
   * below it) needs.
   * @default - `easy` for an elastic cluster, else `fcfs`
   */
  readonly queuePolicy?: string;
}

/** Flux options. */
export interface FluxOptions {
  /** The flux view init container. @default - the default flux view */
  readonly container?: FluxViewOptions;
  /** Replaces `flux submit` on the lead broker (for example `flux mini submit`). @default flux submit */
  readonly submitCommand?: string;
  /** `flux start --wrap` for the lead broker (for example `strace,-e,network,-tt`). @default - none */
  readonly wrap?: string;
  /** `tbon.connect_timeout` of every broker (RFC 23 duration); empty string leaves Flux's default. @default 5s */
  readonly connectTimeout?: string;
  /** Extra flags for `flux submit` / `flux batch` (for example `-ompi=openmpi@5`). @default - none */
  readonly optionFlags?: string;
  /** TBON topology (`kary:K`, K >= 2). @default kary:256 (the operator's tbon.fanout=256) */
  readonly topology?: string;
  /** Workers stop after their broker's first exit, whatever its code. @default false */
  readonly completeWorkers?: boolean;
  /** Broker `log-stderr-level` (0-7). @default 6 */
  readonly logLevel?: number;
  /** The scheduler: Fluxion and its queue policy, or sched-simple. @default - Fluxion with fcfs */
  readonly scheduler?: SchedulerOptions;
  /** Extra variables exported in the flux environment script (`flux-view.sh`). @default - none */
  readonly environment?: { [name: string]: string };
  /** Replaces the generated broker.toml entirely; checked against what Flux accepts. @default - generated */
  readonly brokerConfig?: string;
  /** Do not create the broker's local socket URI attribute. @default false */
  readonly disableSocket?: boolean;
}

/** Paths inside a MiniCluster pod. Everything Flux writes lives under the view mount path. */

/**
 * Where the entrypoint ConfigMap (broker.toml, scripts) is mounted, read-only; in the handshake
 * container, the shared ConfigMap of its program.
 */
export const ENTRYPOINT_MOUNT_DIR = '/flux_operator';

/** Where the Spack install tree of the flux view is copied in the application containers. */
export const SOFTWARE_MOUNT_DIR = '/opt/software';

/**
 * Where a flux-view image keeps its Spack views (converged-computing/flux-views: `view:
 * /opt/views/view`). `/opt/views/view` is Spack's symlink to `/opt/views/._view/<hash>`, with an
 * absolute target, so the image volume mounts this directory at the same path for it to resolve
 * (a subPath through that symlink is refused by the runtime as escaping the image).
 */
export const VIEWS_MOUNT_DIR = '/opt/views';

/** The Spack view of a flux-view image, as seen where the image volume mounts VIEWS_MOUNT_DIR. */
export const IMAGE_VIEW_DIR = `${VIEWS_MOUNT_DIR}/view`;

/**
 * Where the view check (flux.container.source image-volume: in the Flux runner, or in the flux view
 * init container for an image that is not a flux-views one) mounts the whole view image volume,
 * without subPath, to see what the Flux containers' subPath mounts find.
 */
export const VIEW_IMAGE_CHECK_DIR = '/mnt/flux-view-image';

/**
 * The flux view's mount path as the manifests carry it: trailing slashes stripped, since every Flux
 * path is built on it (`${mountPath}/config`).
 */
export function viewMountPath(mountPath: string | undefined): string {
  return (mountPath ?? '/mnt/flux').replace(/\/+$/, '');
}

/**
 * Where the view's tree (the Spack view: bin, lib, ... as symlinks into /opt/software) is copied;
 * with the image volume, a symlink to IMAGE_VIEW_DIR there.
 */
export function viewTreeDir(mountPath: string | undefined): string {
  return `${viewMountPath(mountPath)}/view`;
}

/** Paths derived from the flux view mount path (default /mnt/flux). */
export function fluxPaths(mountPath: string) {
  const root = mountPath.replace(/\/+$/, '') || '/';
  const config = `${root}/config`;
  const localSocket = `${config}/run/flux/local`;
  return {
    config,
    configDir: `${config}/etc/flux/config`,
    brokerToml: `${config}/etc/flux/config/broker.toml`,
    resourceFile: `${config}/etc/flux/system/R`,
    cronDir: `${config}/etc/flux/system/cron.d`,
    curveCert: `${config}/curve/curve.cert`,
    runDir: `${config}/run/flux`,
    /** Left on every rank by the lead's program once it ended: its workers need not wait for another lead. */
    finishedMarker: `${config}/instance-finished`,
    /**
     * Left on a worker whose index a shrink gives up (drained and idle in Flux first): stopped now,
     * it exits 0: a clean end, not a pod stopped from outside.
     */
    releasedMarker: `${config}/released`,
    /** The broker's local socket (the readiness probes look for it on the lead). */
    localSocket,
    localUri: `local://${localSocket}`,
    /** The Flux environment file the entrypoint writes (`. <mountPath>/flux-view.sh`). */
    viewScript: `${root}/flux-view.sh`,
    stateDir: `${config}/var/lib/flux`,
    archiveDb: `${config}/var/lib/flux/job-archive.sqlite`,
  };
}

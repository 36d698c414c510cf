/** The MiniCluster's pod containers and volumes, as manifest-shaped objects. */
import type { Container, EnvVar, Probe, Volume, VolumeMount } from 'kubernetes-types-1.30/core/v1';
import type { PodFailurePolicyRule } from 'kubernetes-types-1.30/batch/v1';
import { READY_SCRIPT_KEY, VIEW_CHECK_EXIT_CODE, VIEW_CHECK_SCRIPT_KEY } from '../../scripts/render';
import { CERTIFICATE_MOUNT_DIR } from '../../core/certificate-contract';
import { ENTRYPOINT_MOUNT_DIR, SOFTWARE_MOUNT_DIR, VIEW_IMAGE_CHECK_DIR, VIEWS_MOUNT_DIR, viewTreeDir } from '../../core/paths';
import { ContainerResources, ContainerSecurityContext, ContainerVolume, MiniClusterContainer } from '../props/container';
import { ResolvedMiniCluster } from './resolve';
import { sortKeys } from './labels';

/** Names of the volumes the MiniCluster adds (see RESERVED_VOLUME_NAMES). */
export const VOLUMES = {
  software: 'flux-software',
  viewTree: 'flux-view-tree',
  entrypoint: 'flux-entrypoint',
  certificate: 'flux-curve-cert',
  handshakeProgram: 'flux-handshake-program',
  viewImage: 'flux-view-image',
} as const;

/**
 * Ready means connected (docs/day2.md): a worker once its broker is connected to its TBON parent,
 * the lead once the instance is up. A tiny sh script that reads /proc/net/tcp, every 5 s; two
 * failures in a row (10 s) make a pod not Ready. Both Services publish not-ready addresses, so
 * readiness changes neither DNS nor the handshake.
 */
export const FLUX_READINESS_PROBE: Probe = {
  exec: { command: ['/bin/sh', `${ENTRYPOINT_MOUNT_DIR}/${READY_SCRIPT_KEY}`] },
  periodSeconds: 5,
  timeoutSeconds: 5,
  successThreshold: 1,
  failureThreshold: 2,
};

/**
 * A pod volume, with the image volume source (Kubernetes 1.31+, on by default from 1.35) that the
 * installed kubernetes-types (1.30) predate.
 */
export type PodVolume = Volume & { image?: { reference: string; pullPolicy?: string } };

/**
 * The image volume's mounts (flux.container.source image-volume): the install tree where the view's
 * symlinks and RPATHs point, and the Spack views where their absolute symlink points (core/paths).
 * Image volumes are always read-only; readOnly says so in the manifest too.
 */
function imageVolumeMounts(r: ResolvedMiniCluster): VolumeMount[] {
  const mounts: VolumeMount[] = [SOFTWARE_MOUNT_DIR, VIEWS_MOUNT_DIR].map((dir) => ({
    name: VOLUMES.viewImage, mountPath: dir, subPath: dir.replace(/^\//, ''), readOnly: true,
  }));
  // The whole volume too, where the runner's own check of it looks (viewCheckInRunner).
  if (r.viewCheckInRunner) mounts.push({ name: VOLUMES.viewImage, mountPath: VIEW_IMAGE_CHECK_DIR, readOnly: true });
  return mounts;
}

/** The entrypoint ConfigMap's name. */
export function entrypointConfigMapName(clusterName: string): string {
  return `${clusterName}-entrypoint`;
}

/** Mounts every Flux-side container gets: the view, the scripts and the certificate. */
function fluxMounts(r: ResolvedMiniCluster, withSoftware: boolean): VolumeMount[] {
  const mounts: VolumeMount[] = [
    { name: r.viewName, mountPath: r.mountPath },
    // In memory, the view's tree is a volume of its own inside the view volume (after it: runtimes
    // mount parents first), so that Flux's config and state stay on disk.
    ...(r.viewInMemory ? [{ name: VOLUMES.viewTree, mountPath: viewTreeDir(r.mountPath) }] : []),
    { name: VOLUMES.entrypoint, mountPath: ENTRYPOINT_MOUNT_DIR, readOnly: true },
    { name: VOLUMES.certificate, mountPath: CERTIFICATE_MOUNT_DIR, readOnly: true },
  ];
  if (withSoftware && r.viewImageVolume) mounts.push(...imageVolumeMounts(r));
  else if (withSoftware && !r.viewDisabled) mounts.push({ name: VOLUMES.software, mountPath: SOFTWARE_MOUNT_DIR });
  return mounts;
}

/**
 * The flux view init container: copies Flux into the shared volumes and writes the configs. It
 * copies the install tree straight into the volume the other containers mount at /opt/software
 * (mounted here at <mountPath>/software, where flux-init.sh writes it): one copy, not two. With the
 * image volume it copies nothing and only links <mountPath>/view to the mounted view.
 */
export function fluxViewInitContainer(r: ResolvedMiniCluster): Container {
  const view = r.props.flux?.container ?? {};
  const software = r.viewDisabled || r.viewImageVolume ? [] : [{ name: VOLUMES.software, mountPath: `${r.mountPath}/software` }];
  return clean({
    name: r.viewName,
    image: r.viewImage,
    imagePullPolicy: r.viewPullPolicy,
    command: ['/bin/bash', `${ENTRYPOINT_MOUNT_DIR}/flux-init.sh`],
    workingDir: view.workingDir,
    resources: resources(view.resources),
    securityContext: securityContext(view.securityContext),
    volumeMounts: [...fluxMounts(r, false).filter((m) => m.name !== VOLUMES.certificate), ...software],
  });
}

/**
 * With the view as an image volume of another image than a flux-views one, the flux view init
 * container copies nothing: it checks the volume (flux-view-check.sh), mounted whole, for what the
 * Flux containers mount by subPath. An image of another layout (or an empty volume) would leave
 * those mounts uncreatable and the pods waiting until the Job's deadline; the check ends the pod at
 * once instead, with the cause and the ways out in its termination message, and its exit code fails
 * the Job (viewCheckFailureRule). It runs the runner's image, which every pod pulls anyway and which
 * has /bin/sh, with its own small resources and no privileges: it only reads the volume. With a
 * flux-views image the runner runs the same check first, and a pod starts one container fewer.
 */
export function fluxViewCheckContainer(r: ResolvedMiniCluster): Container {
  const runnerPolicy = r.runner.pullAlways ? 'Always' : (r.runner.imagePullPolicy ?? 'IfNotPresent');
  return {
    name: r.viewName,
    image: r.runner.image,
    // The runner pulls again when it must; a stale copy of the image runs the check as well.
    imagePullPolicy: runnerPolicy === 'Always' ? 'IfNotPresent' : runnerPolicy,
    command: ['/bin/sh', `${ENTRYPOINT_MOUNT_DIR}/${VIEW_CHECK_SCRIPT_KEY}`],
    env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
    resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '32Mi' } },
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: VOLUMES.viewImage, mountPath: VIEW_IMAGE_CHECK_DIR, readOnly: true },
      { name: VOLUMES.entrypoint, mountPath: ENTRYPOINT_MOUNT_DIR, readOnly: true },
    ],
  };
}

/**
 * The view check's verdict fails the Job at once: a new pod on the same node would find the same
 * volume. The check runs in the runner (viewCheckInRunner) or in the flux view init container.
 */
export function viewCheckFailureRule(r: ResolvedMiniCluster): PodFailurePolicyRule {
  const containerName = r.viewCheckInRunner ? r.name : r.viewName;
  return { action: 'FailJob', onExitCodes: { containerName, operator: 'In', values: [VIEW_CHECK_EXIT_CODE] } };
}

/** The pod's main containers: the user's, in their order, except the sidecars. */
export function appContainers(r: ResolvedMiniCluster): Container[] {
  return userContainers(r).filter((_, i) => !r.props.containers[i].sidecar);
}

/**
 * The user's sidecar containers, as native sidecars: init containers with restartPolicy Always,
 * which the kubelet stops once the main containers have ended, so the pod can complete.
 */
export function sidecarContainers(r: ResolvedMiniCluster): Container[] {
  return userContainers(r).filter((_, i) => r.props.containers[i].sidecar).map((c) => ({ ...c, restartPolicy: 'Always' }));
}

function userContainers(r: ResolvedMiniCluster): Container[] {
  return r.props.containers.map((c, i) => {
    const isRunner = i === r.runnerIndex;
    const name = isRunner ? r.name : c.name!;
    const command = isRunner
      ? ['/bin/bash', `${ENTRYPOINT_MOUNT_DIR}/entrypoint.sh`]
      : c.noWrapEntrypoint ? undefined : ['/bin/bash', `${ENTRYPOINT_MOUNT_DIR}/start-${name}.sh`];
    return clean({
      name,
      image: c.image,
      imagePullPolicy: c.pullAlways ? 'Always' : (c.imagePullPolicy ?? 'IfNotPresent'),
      command,
      workingDir: c.workingDir,
      env: env(c),
      ports: c.ports?.length ? [...c.ports].sort((a, b) => a - b).map((p) => ({ containerPort: p, protocol: 'TCP' })) : undefined,
      resources: resources(c.resources),
      securityContext: securityContext(c.securityContext),
      lifecycle: lifecycle(c),
      // What `kubectl describe` and the Job's pod show when Flux fails: the lead's last lines name
      // the job's exception and the rank that went away; kept off the user's other containers.
      terminationMessagePolicy: isRunner ? 'FallbackToLogsOnError' : undefined,
      readinessProbe: isRunner ? FLUX_READINESS_PROBE : undefined,
      volumeMounts: nonEmpty([
        ...(isRunner || !c.noWrapEntrypoint ? fluxMounts(r, true) : []),
        ...userMounts(c),
      ]),
    });
  });
}

/** Pod volumes: the MiniCluster's own, then the users' (each name once, sorted). */
export function podVolumes(r: ResolvedMiniCluster, certificateSecretName: string): PodVolume[] {
  const volumes: PodVolume[] = [
    { name: r.viewName, emptyDir: {} },
    { name: VOLUMES.entrypoint, configMap: { name: entrypointConfigMapName(r.name), defaultMode: 0o555 } },
    // 0400: kubelet adds group read under fsGroup; the scripts copy it to a private 0600 file.
    {
      name: VOLUMES.certificate,
      secret: { secretName: certificateSecretName, defaultMode: 0o400, items: [{ key: 'curve.cert', path: 'curve.cert' }] },
    },
  ];
  if (r.viewImageVolume) volumes.push({ name: VOLUMES.viewImage, image: { reference: r.viewImage, pullPolicy: r.viewPullPolicy } });
  else if (!r.viewDisabled) volumes.push({ name: VOLUMES.software, emptyDir: r.viewInMemory ? { medium: 'Memory' } : {} });
  if (r.viewInMemory) volumes.push({ name: VOLUMES.viewTree, emptyDir: { medium: 'Memory' } });
  const user = new Map<string, ContainerVolume>();
  for (const c of r.props.containers) for (const [n, v] of Object.entries(c.volumes ?? {})) user.set(n, v);
  for (const n of [...user.keys()].sort()) volumes.push(userVolume(n, user.get(n)!));
  return volumes;
}

function userVolume(name: string, v: ContainerVolume): Volume {
  if (v.hostPath !== undefined) return { name, hostPath: { path: v.hostPath, type: 'Directory' } };
  if (v.configMapName !== undefined) {
    const items = v.items ? Object.keys(v.items).sort().map((key) => ({ key, path: v.items![key] })) : undefined;
    return { name, configMap: clean({ name: v.configMapName, items }) };
  }
  if (v.secretName !== undefined) return { name, secret: { secretName: v.secretName } };
  if (v.emptyDir) {
    return { name, emptyDir: clean({ medium: v.emptyDirMedium?.toLowerCase() === 'memory' ? 'Memory' : undefined, sizeLimit: v.emptyDirSizeLimit }) };
  }
  if (v.csiDriver !== undefined) {
    return { name, csi: clean({ driver: v.csiDriver, readOnly: v.readOnly, volumeAttributes: v.csiDriverAttributes ? sortKeys(v.csiDriverAttributes) : undefined }) };
  }
  return { name, persistentVolumeClaim: clean({ claimName: v.claimName!, readOnly: v.readOnly }) };
}

function userMounts(c: MiniClusterContainer): VolumeMount[] {
  return Object.keys(c.volumes ?? {}).sort().map((name) => {
    const v = c.volumes![name];
    return clean({ name, mountPath: userMountPath(v), readOnly: v.readOnly ? true : undefined });
  });
}

/** Where a user volume is mounted, exactly as the manifest says ('' when it has no path). */
export function userMountPath(v: ContainerVolume): string {
  // The operator always mounts emptyDir volumes at /dev/shm; a path, when given, wins.
  return v.path ?? (v.emptyDir ? '/dev/shm' : '');
}

function env(c: MiniClusterContainer): EnvVar[] | undefined {
  const vars: EnvVar[] = [
    ...Object.entries(c.environment ?? {}).map(([name, value]) => ({ name, value })),
    ...Object.entries(c.secrets ?? {}).map(([name, ref]) => ({ name, valueFrom: { secretKeyRef: { name: ref.name, key: ref.key } } })),
  ];
  vars.sort((a, b) => (a.name < b.name ? -1 : 1));
  return vars.length ? vars : undefined;
}

function resources(r?: ContainerResources) {
  if (!r || (!r.limits && !r.requests)) return undefined;
  return clean({ limits: r.limits ? sortKeys(r.limits) : undefined, requests: r.requests ? sortKeys(r.requests) : undefined });
}

function securityContext(s?: ContainerSecurityContext) {
  if (!s) return undefined;
  return clean({
    privileged: s.privileged,
    runAsUser: s.runAsUser,
    runAsGroup: s.runAsGroup,
    runAsNonRoot: s.runAsNonRoot,
    allowPrivilegeEscalation: s.allowPrivilegeEscalation,
    readOnlyRootFilesystem: s.readOnlyRootFilesystem,
    capabilities: s.capabilities ? clean({ add: s.capabilities.add, drop: s.capabilities.drop }) : undefined,
  });
}

function lifecycle(c: MiniClusterContainer) {
  const l = c.lifecycle;
  if (!l || (l.postStartExec === undefined && l.preStopExec === undefined)) return undefined;
  return clean({
    postStart: l.postStartExec !== undefined ? { exec: { command: [l.postStartExec] } } : undefined,
    preStop: l.preStopExec !== undefined ? { exec: { command: [l.preStopExec] } } : undefined,
  });
}

function nonEmpty<T>(list: T[]): T[] | undefined {
  return list.length ? list : undefined;
}

/** Drops undefined fields so the manifest holds only what is set. */
export function clean<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

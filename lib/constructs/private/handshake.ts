/** Wires the hosts-handshake program into the pod: native sidecar or init container, volume, Service. */
import type { Container, ContainerPort, EnvVar, Probe, Service, VolumeMount } from 'kubernetes-types-1.30/core/v1';
import type { PodFailurePolicyRule } from 'kubernetes-types-1.30/batch/v1';
import { CERTIFICATE_MOUNT_DIR } from '../../core/certificate-contract';
import {
  HandshakeLifecycle, HandshakeMode, HandshakeWiring, HANDSHAKE_CONTAINER, HANDSHAKE_NODE_ROOT, HANDSHAKE_PROGRAM, HANDSHAKE_PROGRAM_DIR_IN_RUNNER,
  handshakeWiring, READY_PATH, RUNNER_EXITED_FILE, RUNNER_STATE_SUBDIR,
} from '../../core/handshake-contract';
import { DEFAULT_NODE_IMAGE } from '../../core/images';
import { ENTRYPOINT_MOUNT_DIR, fluxPaths } from '../../core/paths';
import { FLUX_READINESS_PROBE, PodVolume, VOLUMES } from './containers';
import { ResolvedMiniCluster, leadReadyChildren } from './resolve';

export { HANDSHAKE_CONTAINER };
/** The emptyDir the handshake writes its results into, shared with the Flux runner. */
export const HANDSHAKE_VOLUME = 'flux-handshake';
/** The handshake image as an image volume, whose node the runner runs it with (inRunner). */
export const HANDSHAKE_NODE_VOLUME = 'flux-handshake-node';
/** File name of the bundled program: the key of its shared ConfigMap (runtime-programs.ts). */
const HANDSHAKE_PROGRAM_FILE = `${HANDSHAKE_PROGRAM}.js`;
const DEFAULT_DEADLINE_SECONDS = 300;
const REQUESTS = { cpu: '10m', memory: '48Mi' };

/** Everything the pod and the chart need for the handshake, or undefined when it is off. */
export interface HandshakeParts {
  readonly wiring: HandshakeWiring;
  /** Native sidecar or plain init container; none when the runner runs the handshake (inRunner). */
  readonly container?: Container;
  /** Native sidecar (restartPolicy Always, or in the runner) or plain init container. */
  readonly lifecycle: HandshakeLifecycle;
  /**
   * The handshake's output directory (emptyDir) and its program (the shared ConfigMap); in the
   * runner also the handshake image, as an image volume, for its node.
   */
  readonly volumes: PodVolume[];
  /**
   * The runner's mounts: the handshake's results, read-only, and with a sidecar the one
   * subdirectory of that volume it writes, for its exit file. In the runner: that volume
   * read-write, the program and the handshake image.
   */
  readonly runnerMounts: VolumeMount[];
  /** In the runner: what the runner runs it with, its port and its environment. */
  readonly inRunner?: { readonly nodeRoot: string; readonly image: string; readonly args: string[] };
  /**
   * In the runner: the sidecar's requests, for a runner that has none, so that the pod keeps the
   * requests (and the Burstable QoS class) it had with the sidecar. A runner with requests of its
   * own was sized by its user: the handshake (about 10 MiB) runs within them.
   */
  readonly runnerRequests?: { [key: string]: string };
  readonly runnerPorts: ContainerPort[];
  readonly runnerEnv: EnvVar[];
  /** The runner's exit file, as the runner sees it (sidecar lifecycle or in the runner). */
  readonly runnerExitFile?: string;
  /** How long the entrypoint waits for `ready` (the handshake's deadline plus slack). */
  readonly scriptWaitSeconds: number;
  readonly failureRule: PodFailurePolicyRule;
  /** The Flux runner's readiness probe: an httpGet the sidecar answers, or the exec one (init lifecycle). */
  readonly runnerReadinessProbe: Probe;
}

/**
 * Rank 0 holds one session per pod: measured peak RSS 51 MiB at 1024 pods, 63 MiB at 4096 and
 * 83 MiB at 8192 (about 4.3 KiB per session, docs/handshake.md). The limit leaves 6 KiB per pod
 * above 64 MiB, and never less than 128 MiB; only the limit grows, not the request.
 */
export function handshakeMemoryLimit(maxSize: number): string {
  return `${Math.max(128, 64 + Math.ceil((maxSize * 6) / 1024))}Mi`;
}

/** Whether the cluster runs the handshake. */
export function handshakeEnabled(r: ResolvedMiniCluster): boolean {
  return r.props.handshake?.enabled !== false;
}

/**
 * The handshake's pod parts, or undefined when it is off. `programConfigMap` holds the program
 * under HANDSHAKE_PROGRAM_FILE: mounted where the entrypoint ConfigMap used to be, so the program
 * path in the container, `/flux_operator/handshake.js`, is unchanged.
 */
export function handshakeParts(r: ResolvedMiniCluster, programConfigMap: string): HandshakeParts | undefined {
  const h = r.props.handshake ?? {};
  if (!handshakeEnabled(r)) return undefined;
  const inRunner = r.handshakeInRunner;
  // In the runner it lives as long as the runner, as a native sidecar does.
  const lifecycle = r.features.nativeSidecars || inRunner ? HandshakeLifecycle.SIDECAR : HandshakeLifecycle.INIT;
  const image = h.image ?? DEFAULT_NODE_IMAGE;
  const programDir = inRunner ? HANDSHAKE_PROGRAM_DIR_IN_RUNNER : ENTRYPOINT_MOUNT_DIR;
  const deadline = h.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS;
  const wiring = handshakeWiring({
    clusterName: r.name,
    serviceName: r.serviceName,
    // Every pod the Job may ever run (an elastic cluster is scaled by patching the Job, which does
    // not change this command); the brokers that must be up are the quorum.
    size: r.maxSize,
    maxSize: r.maxSize,
    quorum: r.minSize ?? r.size,
    topology: r.topology,
    mode: h.mode ?? defaultMode(r),
    lifecycle,
    port: h.port,
    fluxPort: r.brokerPort,
    bindInterface: r.bindInterface,
    deadlineSeconds: deadline,
    clusterDomain: r.clusterDomain,
    programPath: `${programDir}/${HANDSHAKE_PROGRAM_FILE}`,
    // The runner's readiness rule (flux-ready.sh's): the lead's children at the smallest size.
    readiness: {
      port: h.readyPort,
      leadChildren: leadReadyChildren(r),
      localSocket: fluxPaths(r.mountPath).localSocket,
    },
  });
  const env: EnvVar[] = wiring.env.map((e) => (e.fieldPath !== undefined
    ? { name: e.name, valueFrom: { fieldRef: { fieldPath: e.fieldPath } } }
    : { name: e.name, value: e.value })).sort((a, b) => (a.name < b.name ? -1 : 1));
  const port: ContainerPort = { name: 'handshake', containerPort: wiring.containerPort, protocol: 'TCP' };
  const shared = {
    wiring,
    lifecycle,
    scriptWaitSeconds: deadline + 30,
    // A handshake failure (peer never came, certificate mismatch, hostname or bind problem) cannot
    // be fixed by retrying the pod: fail the Job with the code that says why.
    failureRule: { action: 'FailJob', onExitCodes: { containerName: r.name, operator: 'In', values: wiring.failureExitCodes } },
    // The kubelet runs an httpGet itself: no runc exec, shell and runtime bookkeeping every period
    // in every pod (half of a 64-pod cluster's CPU on a busy node, docs/scale.md). Same timing.
    runnerReadinessProbe: wiring.readyPort !== undefined
      ? { ...probeTiming, httpGet: { path: READY_PATH, port: wiring.readyPort } }
      : FLUX_READINESS_PROBE,
  };
  const outDir: PodVolume = { name: HANDSHAKE_VOLUME, emptyDir: {} };
  const program: PodVolume = { name: VOLUMES.handshakeProgram, configMap: { name: programConfigMap, defaultMode: 0o444 } };
  if (inRunner) {
    return {
      ...shared,
      volumes: [outDir, program, { name: HANDSHAKE_NODE_VOLUME, image: { reference: image, pullPolicy: 'IfNotPresent' } }],
      runnerMounts: [
        { name: HANDSHAKE_VOLUME, mountPath: wiring.outDir },
        { name: VOLUMES.handshakeProgram, mountPath: HANDSHAKE_PROGRAM_DIR_IN_RUNNER, readOnly: true },
        { name: HANDSHAKE_NODE_VOLUME, mountPath: HANDSHAKE_NODE_ROOT, readOnly: true },
      ],
      // The sidecar's command without its first word, `node`: the entrypoint finds node in the image.
      inRunner: { nodeRoot: HANDSHAKE_NODE_ROOT, image, args: wiring.command.slice(1) },
      runnerRequests: { ...REQUESTS },
      runnerPorts: [port],
      runnerEnv: env,
      runnerExitFile: wiring.runnerExitFile,
    };
  }
  const container: Container = {
    name: HANDSHAKE_CONTAINER,
    image,
    imagePullPolicy: 'IfNotPresent',
    command: wiring.command,
    env,
    // The readiness port is not declared: only the kubelet reaches it (from the node, which a
    // NetworkPolicy never blocks), and the policy opens every declared port to the cluster's pods.
    ports: [port],
    resources: { requests: { ...REQUESTS }, limits: { memory: handshakeMemoryLimit(r.maxSize) } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [
      { name: HANDSHAKE_VOLUME, mountPath: wiring.outDir },
      // Only the program: the handshake reads nothing else of the entrypoint ConfigMap.
      { name: VOLUMES.handshakeProgram, mountPath: ENTRYPOINT_MOUNT_DIR, readOnly: true },
      { name: VOLUMES.certificate, mountPath: CERTIFICATE_MOUNT_DIR, readOnly: true },
      // Rank 0's readiness looks for the broker's local socket there.
      ...(wiring.readyPort !== undefined ? [{ name: r.viewName, mountPath: r.mountPath, readOnly: true }] : []),
    ],
  };
  if (lifecycle === HandshakeLifecycle.SIDECAR) {
    // Keeps answering late or restarted peers. No startup probe: the pod's other containers start
    // at once, so the handshake overlaps the view copy, and the entrypoint waits for its result
    // (ready or failed) instead of a probe period (a probe runs at most once a second).
    container.restartPolicy = 'Always';
  }
  return {
    ...shared,
    container,
    volumes: [outDir, program],
    runnerMounts: [
      { name: HANDSHAKE_VOLUME, mountPath: wiring.outDir, readOnly: true },
      ...(wiring.runnerStateDir !== undefined ? [{ name: HANDSHAKE_VOLUME, mountPath: wiring.runnerStateDir, subPath: RUNNER_STATE_SUBDIR }] : []),
    ],
    runnerPorts: [],
    runnerEnv: [],
    runnerExitFile: wiring.runnerStateDir && `${wiring.runnerStateDir}/${RUNNER_EXITED_FILE}`,
  };
}

const { exec: _execProbe, ...probeTiming } = FLUX_READINESS_PROBE;

/** The ClusterIP Service RENDEZVOUS mode needs, or undefined. */
export function rendezvousService(parts: HandshakeParts, metadata: Service['metadata']): Service | undefined {
  const s = parts.wiring.rendezvousService;
  if (!s) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      type: 'ClusterIP',
      publishNotReadyAddresses: s.publishNotReadyAddresses,
      selector: s.selector,
      ports: [
        { name: 'handshake', port: s.port, targetPort: s.port, protocol: 'TCP' },
        // Init lifecycle: how a pod that comes after the cluster is up sees that rank 0's broker runs.
        ...(s.fluxPort !== undefined ? [{ name: 'flux', port: s.fluxPort, targetPort: s.fluxPort, protocol: 'TCP' }] : []),
      ],
    },
  };
}

function defaultMode(r: ResolvedMiniCluster): HandshakeMode {
  return r.features.completionIndexLabel ? HandshakeMode.RENDEZVOUS : HandshakeMode.DNS;
}

/**
 * Pod Security Standards for the MiniCluster's pods: which props a level rejects, and the hardening
 * RESTRICTED applies to the finished pod spec. The hardening is a post-processing step over every
 * init container, sidecar and container present, so containers added by any builder are covered.
 */
import type { JobSpec } from 'kubernetes-types-1.30/batch/v1';
import type { Container, PodSecurityContext, PodSpec, SecurityContext, Volume } from 'kubernetes-types-1.30/core/v1';
import { UNIX_ID_RULE, isUnixId } from '../../core/k8s-formats';
import { MiniClusterProps } from '../mini-cluster-props';
import { ContainerSecurityContext } from '../props/container';
import { PodSecurityLevel } from '../props/security';
import { clean } from './containers';
import type { Violation } from './validate-mini-cluster-props';

/** The user RESTRICTED runs the pods as when pod.runAsUser is not set (`ubuntu` and `node` in their images). */
export const DEFAULT_RESTRICTED_USER = 1000;
/** The writable emptyDir every container with a read-only root filesystem gets at /tmp. */
export const TMP_VOLUME = 'flux-tmp';

/** Capabilities the baseline level lets a container add (the container runtimes' default set). */
export const BASELINE_CAPABILITIES = [
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE',
  'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
];
export const RESTRICTED_CAPABILITIES = ['NET_BIND_SERVICE'];
const APPARMOR_ANNOTATION = 'container.apparmor.security.beta.kubernetes.io/';

/** The level in force. */
export function podSecurityLevel(props: MiniClusterProps): PodSecurityLevel {
  return props.podSecurity ?? PodSecurityLevel.BASELINE;
}

/** A prop that a Pod Security level does not allow. */
export interface PodSecurityFinding {
  readonly path: string;
  readonly value: unknown;
  /** The Pod Security Standards control, e.g. `Host Namespaces`. */
  readonly control: string;
  /** What is not allowed, e.g. `a hostPath volume is not allowed`. */
  readonly what: string;
}

/** Every prop the chosen level does not allow, each naming the Pod Security Standards control. */
export function podSecurityViolations(props: MiniClusterProps): Violation[] {
  const level = podSecurityLevel(props);
  if (!Object.values(PodSecurityLevel).includes(level)) {
    return [{ path: 'podSecurity', value: level, rule: `must be one of ${Object.values(PodSecurityLevel).join(', ')}` }];
  }
  const out: Violation[] = [];
  const p = props.pod ?? {};
  for (const f of ['runAsUser', 'runAsGroup'] as const) {
    if (p[f] !== undefined && !isUnixId(p[f])) out.push({ path: `pod.${f}`, value: p[f], rule: UNIX_ID_RULE });
  }
  const restricted = level === PodSecurityLevel.RESTRICTED;
  for (const f of podSecurityFindings(props, level)) {
    out.push({
      path: f.path,
      value: f.value,
      rule: `${f.what} at podSecurity ${level} (Pod Security Standards: ${f.control}); ${restricted ? 'use PodSecurityLevel.BASELINE or PRIVILEGED' : 'use PodSecurityLevel.PRIVILEGED'} if the pods need it`,
    });
  }
  return out;
}

/** The props that `level` does not allow (none at PRIVILEGED). */
export function podSecurityFindings(props: MiniClusterProps, level: PodSecurityLevel): PodSecurityFinding[] {
  if (level === PodSecurityLevel.PRIVILEGED) return [];
  const out: PodSecurityFinding[] = [];
  const restricted = level === PodSecurityLevel.RESTRICTED;
  const add = (path: string, value: unknown, control: string, what: string) => out.push({ path, value, control, what });
  const p = props.pod ?? {};
  if (p.hostPID) add('pod.hostPID', p.hostPID, 'Host Namespaces', 'sharing the host PID namespace is not allowed');
  if (p.hostIPC) add('pod.hostIPC', p.hostIPC, 'Host Namespaces', 'sharing the host IPC namespace is not allowed');
  for (const [key, value] of Object.entries(p.annotations ?? {})) {
    if (key.startsWith(APPARMOR_ANNOTATION) && value !== 'runtime/default' && !String(value).startsWith('localhost/')) {
      add(`pod.annotations.${key}`, value, 'AppArmor', "an AppArmor profile other than 'runtime/default' or 'localhost/*' is not allowed");
    }
  }
  if (restricted && p.runAsUser === 0) add('pod.runAsUser', 0, 'Running as Non-root user', 'user 0 (root) is not allowed');

  const contexts: [string, ContainerSecurityContext | undefined][] = [
    ['flux.container.securityContext', props.flux?.container?.securityContext],
    ...(Array.isArray(props.containers) ? props.containers : []).map((c, i): [string, ContainerSecurityContext | undefined] => [`containers[${i}].securityContext`, c?.securityContext]),
  ];
  for (const [path, sc] of contexts) {
    if (!sc) continue;
    if (sc.privileged) add(`${path}.privileged`, sc.privileged, 'Privileged Containers', 'a privileged container is not allowed');
    const allowed = restricted ? RESTRICTED_CAPABILITIES : BASELINE_CAPABILITIES;
    const extra = (sc.capabilities?.add ?? []).filter((c) => !allowed.includes(c));
    if (extra.length > 0) add(`${path}.capabilities.add`, extra, 'Capabilities', `adding capabilities other than ${allowed.join(', ')} is not allowed`);
    if (!restricted) continue;
    if (sc.allowPrivilegeEscalation === true) add(`${path}.allowPrivilegeEscalation`, true, 'Privilege Escalation', 'privilege escalation is not allowed');
    if (sc.runAsNonRoot === false) add(`${path}.runAsNonRoot`, false, 'Running as Non-root', 'running as root is not allowed');
    if (sc.runAsUser === 0) add(`${path}.runAsUser`, 0, 'Running as Non-root user', 'user 0 (root) is not allowed');
  }
  (Array.isArray(props.containers) ? props.containers : []).forEach((c, i) => {
    for (const [name, v] of Object.entries(c?.volumes ?? {})) {
      if (v?.hostPath !== undefined) add(`containers[${i}].volumes.${name}.hostPath`, v.hostPath, 'HostPath Volumes', 'a hostPath volume is not allowed');
    }
  });
  return out;
}

/** Pod-level settings that decide the pod securityContext. */
export interface PodSecuritySettings {
  readonly level: PodSecurityLevel;
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly fsGroup?: number;
}

/** The settings of a MiniCluster's props. */
export function podSecuritySettings(props: MiniClusterProps): PodSecuritySettings {
  const p = props.pod ?? {};
  return { level: podSecurityLevel(props), runAsUser: p.runAsUser, runAsGroup: p.runAsGroup, fsGroup: p.fsGroup };
}

/** The Job spec with its pod template secured for the level (a new object; the input is not changed). */
export function securePodTemplate(spec: JobSpec, settings: PodSecuritySettings): JobSpec {
  return { ...spec, template: { ...spec.template, spec: securePodSpec(spec.template.spec!, settings) } };
}

/** The pod spec with the level's settings on the pod and on every init container and container. */
export function securePodSpec(pod: PodSpec, s: PodSecuritySettings): PodSpec {
  const restricted = s.level === PodSecurityLevel.RESTRICTED;
  const runAsUser = s.runAsUser ?? (restricted ? DEFAULT_RESTRICTED_USER : undefined);
  const runAsGroup = s.runAsGroup ?? (restricted ? runAsUser : undefined);
  // The certificate Secret is mounted 0400 (root-owned): a non-root user reads it through the
  // group read bit the kubelet adds for fsGroup, so a non-root pod always gets one.
  const defaultFsGroup = runAsUser !== undefined && runAsUser !== 0 && (pod.securityContext?.fsGroup ?? s.fsGroup) === undefined;
  const fsGroup = pod.securityContext?.fsGroup ?? s.fsGroup ?? (defaultFsGroup ? runAsGroup ?? runAsUser : undefined);
  const podContext: PodSecurityContext = clean({
    ...pod.securityContext,
    runAsUser,
    runAsGroup,
    runAsNonRoot: restricted ? true : pod.securityContext?.runAsNonRoot,
    fsGroup,
    // Only chown a volume whose root does not match yet (large PVCs are not walked on every start).
    fsGroupChangePolicy: defaultFsGroup ? 'OnRootMismatch' : pod.securityContext?.fsGroupChangePolicy,
    seccompProfile: restricted ? { type: 'RuntimeDefault' } : pod.securityContext?.seccompProfile,
  });
  if (!restricted) return clean({ ...pod, securityContext: Object.keys(podContext).length ? podContext : undefined });

  const initContainers = pod.initContainers?.map(restrictContainer);
  const containers = pod.containers.map(restrictContainer);
  const needsTmp = [...(initContainers ?? []), ...containers].some((c) => c.volumeMounts?.some((m) => m.name === TMP_VOLUME));
  const volumes: Volume[] = [...(pod.volumes ?? [])];
  if (needsTmp && !volumes.some((v) => v.name === TMP_VOLUME)) volumes.push({ name: TMP_VOLUME, emptyDir: {} });
  return clean({ ...pod, securityContext: podContext, initContainers, containers, volumes: volumes.length ? volumes : undefined });
}

/**
 * A container hardened for RESTRICTED. Settings the user chose that the level allows are kept (an
 * explicit readOnlyRootFilesystem: false, extra dropped capabilities, NET_BIND_SERVICE).
 */
function restrictContainer(c: Container): Container {
  const sc: SecurityContext = c.securityContext ?? {};
  const drop = ['ALL', ...(sc.capabilities?.drop ?? []).filter((d) => d !== 'ALL')];
  const readOnlyRoot = sc.readOnlyRootFilesystem ?? true;
  const securityContext: SecurityContext = clean({
    ...sc,
    allowPrivilegeEscalation: false,
    capabilities: clean({ add: sc.capabilities?.add?.length ? sc.capabilities.add : undefined, drop }),
    readOnlyRootFilesystem: readOnlyRoot,
  });
  const mounts = c.volumeMounts ?? [];
  // Bash here-documents, Flux and most programs write under /tmp: a read-only root gets a writable one.
  const tmp = readOnlyRoot && !mounts.some((m) => m.mountPath === '/tmp' || m.mountPath === '/tmp/')
    ? [{ name: TMP_VOLUME, mountPath: '/tmp' }] : [];
  return clean({ ...c, securityContext, volumeMounts: mounts.length || tmp.length ? [...mounts, ...tmp] : undefined });
}

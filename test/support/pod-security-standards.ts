/**
 * An independent checker of the Kubernetes Pod Security Standards
 * (https://kubernetes.io/docs/concepts/security/pod-security-standards/, policy version 1.34), for
 * tests: it reads only manifests, never the library's code, so it can disagree with the library.
 *
 * Baseline controls: HostProcess, Host Namespaces, Privileged Containers, Capabilities, HostPath
 * Volumes, Host Ports, Host Probes / Lifecycle Hooks, AppArmor, SELinux, /proc Mount Type, Seccomp,
 * Sysctls. Restricted adds: Volume Types, Privilege Escalation, Running as Non-root, Running as
 * Non-root user, Seccomp (required), Capabilities (drop ALL, add only NET_BIND_SERVICE).
 * Not modelled: the exemptions of Windows pods (`spec.os.name: windows`), which no test emits.
 */

export type PssLevel = 'privileged' | 'baseline' | 'restricted';

/** One failed control: which, where (a JSON path from the pod template), and the value found. */
export interface PssViolation {
  readonly control: string;
  readonly path: string;
  readonly value: unknown;
}

/** A pod template found in a manifest. */
export interface PodTemplateOf {
  /** `<kind>/<name>` of the object that holds it. */
  readonly owner: string;
  readonly template: { metadata?: any; spec: any };
}

const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE',
  'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
const RESTRICTED_VOLUME_SOURCES = new Set([
  'configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret',
]);
const APPARMOR_ANNOTATION = 'container.apparmor.security.beta.kubernetes.io/';

/** Every pod template of the documents (Pods, and the templates of workload objects). */
export function podTemplates(docs: any[]): PodTemplateOf[] {
  const out: PodTemplateOf[] = [];
  for (const d of docs) {
    const owner = `${d?.kind}/${d?.metadata?.name}`;
    if (d?.kind === 'Pod') out.push({ owner, template: { metadata: d.metadata, spec: d.spec } });
    else if (d?.kind === 'CronJob') out.push({ owner, template: d.spec.jobTemplate.spec.template });
    else if (d?.spec?.template?.spec?.containers) out.push({ owner, template: d.spec.template });
  }
  return out;
}

/** Every control of `level` the pod template fails (empty when it meets the level). */
export function checkPodSecurity(template: { metadata?: any; spec: any }, level: PssLevel): PssViolation[] {
  if (level === 'privileged') return [];
  const out: PssViolation[] = [];
  const spec = template.spec ?? {};
  const fail = (control: string, path: string, value: unknown) => out.push({ control, path, value });
  const containers = allContainers(spec);
  const podSc = spec.securityContext ?? {};

  // --- Baseline
  if (podSc.windowsOptions?.hostProcess === true) fail('HostProcess', 'spec.securityContext.windowsOptions.hostProcess', true);
  for (const f of ['hostNetwork', 'hostPID', 'hostIPC']) {
    if (spec[f] !== undefined && spec[f] !== false) fail('Host Namespaces', `spec.${f}`, spec[f]);
  }
  for (const [path, c] of containers) {
    const sc = c.securityContext ?? {};
    if (sc.windowsOptions?.hostProcess === true) fail('HostProcess', `${path}.securityContext.windowsOptions.hostProcess`, true);
    if (sc.privileged !== undefined && sc.privileged !== false) fail('Privileged Containers', `${path}.securityContext.privileged`, sc.privileged);
    for (const cap of sc.capabilities?.add ?? []) {
      if (!BASELINE_CAPABILITIES.has(cap)) fail('Capabilities', `${path}.securityContext.capabilities.add`, cap);
    }
    (c.ports ?? []).forEach((p: any, i: number) => {
      if (p.hostPort !== undefined && p.hostPort !== 0) fail('Host Ports', `${path}.ports[${i}].hostPort`, p.hostPort);
    });
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      for (const handler of ['httpGet', 'tcpSocket']) {
        const host = c[probe]?.[handler]?.host;
        if (host !== undefined && host !== '') fail('Host Probes / Lifecycle Hooks', `${path}.${probe}.${handler}.host`, host);
      }
    }
    for (const hook of ['postStart', 'preStop']) {
      for (const handler of ['httpGet', 'tcpSocket']) {
        const host = c.lifecycle?.[hook]?.[handler]?.host;
        if (host !== undefined && host !== '') fail('Host Probes / Lifecycle Hooks', `${path}.lifecycle.${hook}.${handler}.host`, host);
      }
    }
    checkAppArmorProfile(sc.appArmorProfile, `${path}.securityContext.appArmorProfile.type`, fail);
    checkSeLinux(sc.seLinuxOptions, `${path}.securityContext.seLinuxOptions`, fail);
    if (sc.procMount !== undefined && sc.procMount !== 'Default') fail('/proc Mount Type', `${path}.securityContext.procMount`, sc.procMount);
    if (sc.seccompProfile?.type === 'Unconfined') fail('Seccomp', `${path}.securityContext.seccompProfile.type`, 'Unconfined');
  }
  (spec.volumes ?? []).forEach((v: any, i: number) => {
    if (v.hostPath !== undefined) fail('HostPath Volumes', `spec.volumes[${i}].hostPath`, v.hostPath);
  });
  checkAppArmorProfile(podSc.appArmorProfile, 'spec.securityContext.appArmorProfile.type', fail);
  for (const [key, value] of Object.entries<string>(template.metadata?.annotations ?? {})) {
    if (key.startsWith(APPARMOR_ANNOTATION) && value !== 'runtime/default' && !value.startsWith('localhost/')) {
      fail('AppArmor', `metadata.annotations['${key}']`, value);
    }
  }
  checkSeLinux(podSc.seLinuxOptions, 'spec.securityContext.seLinuxOptions', fail);
  if (podSc.seccompProfile?.type === 'Unconfined') fail('Seccomp', 'spec.securityContext.seccompProfile.type', 'Unconfined');
  for (const s of podSc.sysctls ?? []) {
    if (!SAFE_SYSCTLS.has(s.name)) fail('Sysctls', 'spec.securityContext.sysctls[*].name', s.name);
  }
  if (level === 'baseline') return out;

  // --- Restricted
  (spec.volumes ?? []).forEach((v: any, i: number) => {
    for (const source of Object.keys(v).filter((k) => k !== 'name')) {
      if (!RESTRICTED_VOLUME_SOURCES.has(source)) fail('Volume Types', `spec.volumes[${i}].${source}`, v[source]);
    }
  });
  const podSeccompOk = ['RuntimeDefault', 'Localhost'].includes(podSc.seccompProfile?.type);
  if (podSc.runAsNonRoot !== undefined && podSc.runAsNonRoot !== true) fail('Running as Non-root', 'spec.securityContext.runAsNonRoot', podSc.runAsNonRoot);
  if (podSc.runAsUser === 0) fail('Running as Non-root user', 'spec.securityContext.runAsUser', 0);
  if (podSc.seccompProfile !== undefined && !podSeccompOk) fail('Seccomp', 'spec.securityContext.seccompProfile.type', podSc.seccompProfile.type);
  for (const [path, c] of containers) {
    const sc = c.securityContext ?? {};
    if (sc.allowPrivilegeEscalation !== false) fail('Privilege Escalation', `${path}.securityContext.allowPrivilegeEscalation`, sc.allowPrivilegeEscalation);
    // The pod's runAsNonRoot: true covers containers that leave it unset.
    if (sc.runAsNonRoot === undefined ? podSc.runAsNonRoot !== true : sc.runAsNonRoot !== true) {
      fail('Running as Non-root', `${path}.securityContext.runAsNonRoot`, sc.runAsNonRoot);
    }
    if (sc.runAsUser === 0) fail('Running as Non-root user', `${path}.securityContext.runAsUser`, 0);
    const type = sc.seccompProfile?.type;
    if (type === undefined ? !podSeccompOk : !['RuntimeDefault', 'Localhost'].includes(type)) {
      fail('Seccomp', `${path}.securityContext.seccompProfile.type`, type);
    }
    if (!(sc.capabilities?.drop ?? []).includes('ALL')) fail('Capabilities', `${path}.securityContext.capabilities.drop`, sc.capabilities?.drop);
    for (const cap of sc.capabilities?.add ?? []) {
      if (cap !== 'NET_BIND_SERVICE') fail('Capabilities', `${path}.securityContext.capabilities.add`, cap);
    }
  }
  return out;
}

/** A readable report of every template of the documents that fails `level` (empty when all pass). */
export function podSecurityReport(docs: any[], level: PssLevel): string[] {
  return podTemplates(docs).flatMap(({ owner, template }) =>
    checkPodSecurity(template, level).map((v) => `${owner}: ${v.control}: ${v.path} = ${JSON.stringify(v.value)}`));
}

function allContainers(spec: any): [string, any][] {
  const out: [string, any][] = [];
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    (spec[list] ?? []).forEach((c: any, i: number) => out.push([`spec.${list}[${i}]`, c]));
  }
  return out;
}

type Fail = (control: string, path: string, value: unknown) => void;

function checkAppArmorProfile(profile: any, path: string, fail: Fail) {
  if (profile?.type !== undefined && !['RuntimeDefault', 'Localhost'].includes(profile.type)) fail('AppArmor', path, profile.type);
}

function checkSeLinux(options: any, path: string, fail: Fail) {
  if (!options) return;
  if (options.type !== undefined && !SELINUX_TYPES.has(options.type)) fail('SELinux', `${path}.type`, options.type);
  for (const f of ['user', 'role']) {
    if (options[f] !== undefined && options[f] !== '') fail('SELinux', `${path}.${f}`, options[f]);
  }
}

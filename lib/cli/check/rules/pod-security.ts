/**
 * The namespace's Pod Security level (label pod-security.kubernetes.io/enforce) against the pods of
 * the output: the controls of the Pod Security Standards that a MiniCluster's pods can meet or
 * break. Admission refuses each pod that breaks one, so the Job never gets its pods.
 */
import { BASELINE_CAPABILITIES, RESTRICTED_CAPABILITIES } from '../../../constructs/private/pod-security';
import type { Finding } from '../findings';
import type { Obj, PodTemplate } from '../manifest';
import { cannotTell, CheckContext, Rule } from './context';

export const ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';
type Level = 'baseline' | 'restricted';

/** Volume sources the restricted level allows (image: since the 1.33 admission plugin, kubernetes#130394). */
const RESTRICTED_VOLUMES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret', 'image']);

/** Every container of a pod spec with its path. */
function containers(spec: Obj): Array<[string, Obj]> {
  return (['initContainers', 'containers', 'ephemeralContainers'] as const)
    .flatMap((k) => (spec[k] ?? []).map((c: Obj, i: number): [string, Obj] => [`${k}[${i}] (${c.name})`, c]));
}

interface Control {
  readonly name: string;
  readonly level: Level;
  /** The paths in the pod spec that break it. */
  readonly breaks: (spec: Obj) => string[];
}

const perContainer = (test: (sc: Obj, spec: Obj) => string | undefined) => (spec: Obj): string[] =>
  containers(spec).flatMap(([path, c]) => {
    const bad = test(c.securityContext ?? {}, spec);
    return bad ? [`${path}.securityContext${bad}`] : [];
  });

/** The controls, baseline first (restricted includes them). */
export const CONTROLS: readonly Control[] = [
  { name: 'Host Namespaces', level: 'baseline', breaks: (s) => ['hostNetwork', 'hostPID', 'hostIPC'].filter((f) => s[f] === true) },
  { name: 'Privileged Containers', level: 'baseline', breaks: perContainer((sc) => (sc.privileged === true ? '.privileged' : undefined)) },
  { name: 'Capabilities', level: 'baseline', breaks: perContainer((sc) => ((sc.capabilities?.add ?? []).some((c: string) => !BASELINE_CAPABILITIES.includes(c)) ? `.capabilities.add ${JSON.stringify(sc.capabilities.add)}` : undefined)) },
  { name: 'HostPath Volumes', level: 'baseline', breaks: (s) => (s.volumes ?? []).filter((v: Obj) => v.hostPath).map((v: Obj) => `volumes (${v.name}).hostPath`) },
  { name: 'Host Ports', level: 'baseline', breaks: (s) => containers(s).flatMap(([p, c]) => (c.ports ?? []).filter((x: Obj) => x.hostPort).map((x: Obj) => `${p}.ports.hostPort ${x.hostPort}`)) },
  {
    name: 'Seccomp', level: 'baseline',
    breaks: (s) => [...(s.securityContext?.seccompProfile?.type === 'Unconfined' ? ['securityContext.seccompProfile Unconfined'] : []),
      ...perContainer((sc) => (sc.seccompProfile?.type === 'Unconfined' ? '.seccompProfile Unconfined' : undefined))(s)],
  },
  {
    name: 'Volume Types', level: 'restricted',
    breaks: (s) => (s.volumes ?? []).flatMap((v: Obj) => Object.keys(v).filter((k) => k !== 'name' && !RESTRICTED_VOLUMES.has(k)).map((k) => `volumes (${v.name}).${k}`)),
  },
  { name: 'Privilege Escalation', level: 'restricted', breaks: perContainer((sc) => (sc.allowPrivilegeEscalation !== false ? '.allowPrivilegeEscalation (must be false)' : undefined)) },
  {
    name: 'Running as Non-root', level: 'restricted',
    breaks: perContainer((sc, spec) => ((sc.runAsNonRoot ?? spec.securityContext?.runAsNonRoot) !== true ? '.runAsNonRoot (must be true, here or for the pod)' : undefined)),
  },
  {
    name: 'Running as Non-root user', level: 'restricted',
    breaks: (s) => [...(s.securityContext?.runAsUser === 0 ? ['securityContext.runAsUser 0'] : []), ...perContainer((sc) => (sc.runAsUser === 0 ? '.runAsUser 0' : undefined))(s)],
  },
  {
    name: 'Seccomp', level: 'restricted',
    breaks: perContainer((sc, spec) => (['RuntimeDefault', 'Localhost'].includes((sc.seccompProfile ?? spec.securityContext?.seccompProfile)?.type) ? undefined : '.seccompProfile (RuntimeDefault or Localhost, here or for the pod)')),
  },
  {
    name: 'Capabilities', level: 'restricted',
    breaks: perContainer((sc) => (!(sc.capabilities?.drop ?? []).includes('ALL') ? '.capabilities.drop (must hold ALL)'
      : (sc.capabilities?.add ?? []).some((c: string) => !RESTRICTED_CAPABILITIES.includes(c)) ? `.capabilities.add ${JSON.stringify(sc.capabilities.add)}` : undefined)),
  },
];

/** Every control of `level` that the pod spec breaks, with the paths. */
export function podSecurityBreaks(spec: Obj, level: Level): Array<{ control: string; paths: string[] }> {
  return CONTROLS.filter((c) => c.level === 'baseline' || level === 'restricted')
    .map((c) => ({ control: c.name, paths: c.breaks(spec) })).filter((b) => b.paths.length > 0);
}

/** The namespace's enforced level: from the output's Namespace when it creates one, else the cluster's. */
function levelOf(ctx: CheckContext, namespace: string): { level: string | undefined } | { why: string } {
  const own = ctx.manifest.objects.find((o) => o.kind === 'Namespace' && o.metadata.name === namespace);
  if (own) return { level: own.metadata.labels?.[ENFORCE_LABEL] };
  const live = ctx.facts.namespaces.get(namespace);
  if (!live || !live.ok) return { why: live && !live.ok ? live.why : 'not read' };
  return { level: live.value?.metadata?.labels?.[ENFORCE_LABEL] };
}

function fixFor(t: PodTemplate, level: Level, spec: Obj): string {
  const lower = level === 'restricted' && podSecurityBreaks(spec, 'baseline').length === 0 ? 'baseline' : 'privileged';
  const props = t.owner.startsWith('Job/') ? `synthesize with podSecurity: PodSecurityLevel.${level.toUpperCase()} (it hardens the pods for the level, or names the prop the level refuses), or ` : '';
  return `${props}label namespace ${t.namespace} ${ENFORCE_LABEL}=${lower}`;
}

export const POD_SECURITY: Rule = {
  id: 'pod-security',
  checks: `the pods meet the Pod Security level their namespace enforces (label ${ENFORCE_LABEL}: baseline or restricted): ${[...new Set(CONTROLS.map((c) => `${c.name} (${c.level})`))].join(', ')}`,
  run: (ctx) => {
    const out: Finding[] = [];
    const namespaces = [...new Set(ctx.manifest.podTemplates.map((t) => t.namespace))];
    for (const ns of namespaces) {
      const found = levelOf(ctx, ns);
      if ('why' in found) {
        out.push(cannotTell('pod-security', `the Pod Security level of namespace ${ns} (get namespaces)`, found.why, `Namespace/${ns}`));
        continue;
      }
      const level = found.level;
      if (level !== 'baseline' && level !== 'restricted') continue;
      for (const t of ctx.manifest.podTemplates.filter((x) => x.namespace === ns)) {
        for (const b of podSecurityBreaks(t.spec, level)) {
          out.push({
            rule: 'pod-security', severity: 'error', object: t.owner, namespace: ns,
            message: `its pods break the Pod Security level ${level} that namespace ${ns} enforces (${b.control}): ${b.paths.join(', ')}; admission refuses them`,
            fix: fixFor(t, level, t.spec),
          });
        }
      }
    }
    return out;
  },
};

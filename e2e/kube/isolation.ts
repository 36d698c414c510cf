/**
 * Holds a MiniCluster's NetworkPolicy against a real policy engine: every TCP port its pods listen
 * on (read from each pod's /proc/net/tcp, so nothing is missed that a spec does not declare) is
 * tried from the lead (inside the policy: must connect, which proves the probe can see an open
 * port) and from two outsiders, a pod in another namespace and an unlabelled pod in the cluster's
 * namespace (must be refused or time out).
 */
import type * as k8s from '@kubernetes/client-node';
import { KubeTarget, execIn } from './target';
import { createNamespace, deleteNamespaceTimed } from './namespace';

const PROBE_IMAGE = 'rockylinux:9';
const CONNECT_SECONDS = 3;

/**
 * The ports of the TCP sockets in LISTEN (state 0A) of /proc/net/tcp and tcp6, printed by the pod
 * itself, in bash alone (the image's awk may be mawk, without strtonum). Sockets bound to loopback
 * are left out: no other pod can reach them.
 */
const LISTENING = [
  'for f in /proc/net/tcp /proc/net/tcp6; do [ -r "$f" ] && tail -n +2 "$f"; done | while read -r _ local _ st _; do',
  '  case $local in 0100007F:*|00000000000000000000000001000000:*) continue;; esac',
  '  [ "$st" = 0A ] && echo $((16#${local##*:}))',
  'done | sort -un',
].join('\n');

/** A bash loop that tries each `ip:port` and prints `ip:port open|refused|timeout`. */
export function probeScript(targets: string[]): string {
  return [
    `for t in ${targets.join(' ')}; do`,
    `  timeout ${CONNECT_SECONDS} bash -c "exec 3<>/dev/tcp/\${t%:*}/\${t##*:}" 2>/dev/null; rc=$?`,
    '  case $rc in 0) r=open;; 124) r=timeout;; *) r=refused;; esac',
    '  echo "$t $r"',
    'done',
  ].join('\n');
}

/** The verdict lines of a probe's output, by target. */
export function parseProbe(stdout: string): Map<string, string> {
  return new Map([...stdout.matchAll(/^(\S+:\d+) (open|refused|timeout)$/gm)].map((m) => [m[1], m[2]]));
}

/** A pod that sleeps, fit for the restricted Pod Security level, without the cluster's labels. */
function outsider(name: string, namespace: string): k8s.V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { app: 'e2e-outsider' } },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 1,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{
        name: 'probe', image: PROBE_IMAGE, imagePullPolicy: 'IfNotPresent', command: ['sleep', '600'],
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      }],
    },
  };
}

async function running(target: KubeTarget, namespace: string, name: string, seconds: number): Promise<boolean> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const pod = await target.core.readNamespacedPod({ name, namespace });
    if (pod.status?.phase === 'Running') return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

export interface IsolationResult {
  readonly problems: string[];
  /** What was tried and what came back, for the case's log. */
  readonly lines: string[];
}

/** Probes the running pods of Job `job` in `namespace` (their Flux container `runner`). */
export async function probeIsolation(target: KubeTarget, namespace: string, job: string, runner: string): Promise<IsolationResult> {
  const pods = (await target.core.listNamespacedPod({ namespace, labelSelector: `batch.kubernetes.io/job-name=${job}` })).items
    .filter((p) => p.status?.phase === 'Running' && p.status.podIP && !p.metadata?.deletionTimestamp);
  const lead = pods.find((p) => p.metadata?.labels?.['batch.kubernetes.io/job-completion-index'] === '0');
  if (!lead) return { problems: ['isolation: no running lead pod to probe from'], lines: [] };
  const targets: string[] = [];
  for (const pod of pods) {
    const r = await execIn(target, { namespace, pod: pod.metadata!.name!, container: runner }, ['/bin/bash', '-c', LISTENING], 30);
    for (const port of r.stdout.split('\n').filter((l) => /^\d+$/.test(l))) targets.push(`${pod.status!.podIP}:${port}`);
  }
  if (targets.length === 0) return { problems: ['isolation: no pod listens on any TCP port: nothing to probe'], lines: [] };
  const lines = [`listening: ${targets.join(' ')}`];
  const problems: string[] = [];
  // Inside the policy: the lead reaches every port (its own through its pod IP).
  const inside = parseProbe((await execIn(target, { namespace, pod: lead.metadata!.name!, container: runner }, ['/bin/bash', '-c', probeScript(targets)], 120)).stdout);
  lines.push(`from the lead: ${[...inside].map(([t, r]) => `${t} ${r}`).join(', ')}`);
  const closed = targets.filter((t) => inside.get(t) !== 'open');
  if (closed.length) problems.push(`isolation: the lead, inside the policy, could not connect to ${closed.map((t) => `${t} (${inside.get(t) ?? 'no answer'})`).join(', ')}`);
  const otherNamespace = `${namespace}-outside`.slice(0, 63);
  await createNamespace(target, otherNamespace, { 'pod-security.kubernetes.io/enforce': 'restricted' });
  try {
    for (const [ns, name, who] of [[otherNamespace, 'outsider', 'a pod of another namespace'], [namespace, 'e2e-outsider', 'an unlabelled pod of the same namespace']]) {
      await target.core.createNamespacedPod({ namespace: ns, body: outsider(name, ns) });
      if (!await running(target, ns, name, 120)) {
        problems.push(`isolation: the probe pod ${ns}/${name} never ran`);
        continue;
      }
      const seen = parseProbe((await execIn(target, { namespace: ns, pod: name, container: 'probe' }, ['/bin/bash', '-c', probeScript(targets)], 120)).stdout);
      lines.push(`from ${who}: ${[...seen].map(([t, r]) => `${t} ${r}`).join(', ')}`);
      const open = targets.filter((t) => seen.get(t) === 'open');
      const unanswered = targets.filter((t) => !seen.has(t));
      if (open.length) problems.push(`isolation: ${who} connected to ${open.join(', ')}`);
      if (unanswered.length) problems.push(`isolation: the probe from ${who} did not report ${unanswered.join(', ')}`);
      await target.core.deleteNamespacedPod({ namespace: ns, name, gracePeriodSeconds: 0 });
    }
  } finally {
    await deleteNamespaceTimed(target, otherNamespace).catch(() => undefined);
  }
  return { problems, lines };
}

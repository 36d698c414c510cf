/** Nodes' container runtimes against image volumes: the kubelet asks the runtime to mount the image. */
import type * as k8s from '@kubernetes/client-node';
import type { Finding } from '../findings';
import { nodeRefuses } from '../scheduling';
import { cannotTell, Rule } from './context';
import { JOB_FEATURES } from './job-features';

/** The oldest runtime version that mounts image volumes, by the runtime's name in containerRuntimeVersion. */
export const IMAGE_VOLUME_RUNTIMES: Record<string, [number, number]> = { containerd: [2, 1], 'cri-o': [1, 33] };

const imageVolumes = JOB_FEATURES.find((f) => f.name === 'image volumes')!;

/** Whether the node's runtime mounts image volumes: true, false, or undefined for a runtime not in the table. */
export function mountsImageVolumes(node: k8s.V1Node): { ok: boolean | undefined; runtime: string } {
  const runtime = node.status?.nodeInfo?.containerRuntimeVersion ?? '';
  const m = /^([a-z-]+):\/\/v?(\d+)\.(\d+)/.exec(runtime);
  const needs = m ? IMAGE_VOLUME_RUNTIMES[m[1]] : undefined;
  if (!m || !needs) return { ok: undefined, runtime: runtime || '(none reported)' };
  const [major, minor] = [Number(m[2]), Number(m[3])];
  return { ok: major > needs[0] || (major === needs[0] && minor >= needs[1]), runtime };
}

export const IMAGE_VOLUME_RUNTIME: Rule = {
  id: 'image-volume-runtime',
  checks: `every node a broker pod may be placed on runs a container runtime that mounts image volumes (status.nodeInfo.containerRuntimeVersion: ${Object.entries(IMAGE_VOLUME_RUNTIMES).map(([r, [a, b]]) => `${r} >= ${a}.${b}`).join(', ')}), when the output uses them`,
  run: (ctx) => {
    const jobs = ctx.manifest.brokerJobs.filter((j) => imageVolumes.uses(j.job).length > 0);
    if (jobs.length === 0) return [];
    const nodes = ctx.facts.nodes;
    if (!nodes.ok) return [cannotTell('image-volume-runtime', "whether the nodes' container runtimes mount image volumes (list nodes)", nodes.why)];
    const out: Finding[] = [];
    for (const node of nodes.value ?? []) {
      const users = jobs.filter((j) => nodeRefuses(node, j.pod.spec) === undefined);
      if (users.length === 0) continue;
      const { ok, runtime } = mountsImageVolumes(node);
      const object = `Node/${node.metadata?.name}`;
      const names = users.map((j) => `Job/${j.name}`).join(', ');
      if (ok === false) {
        out.push({
          rule: 'image-volume-runtime', severity: 'error', object, namespace: null,
          message: `runs ${runtime}, which cannot mount image volumes (needs ${Object.entries(IMAGE_VOLUME_RUNTIMES).map(([r, [a, b]]) => `${r} ${a}.${b}+`).join(' or ')}): a broker pod of ${names} placed there never starts its containers`,
          fix: 'upgrade its container runtime, keep the broker pods off it (pod.nodeSelector), or synthesize with flux.container.source FluxViewSource.COPY_TO_DISK or COPY_TO_MEMORY',
        });
      } else if (ok === undefined) {
        out.push({ rule: 'image-volume-runtime', severity: 'unknown', object, namespace: null, message: `cannot tell whether its runtime, ${runtime}, mounts image volumes (the check knows containerd and CRI-O), which ${names} use`, fix: "check the runtime's documentation for image volumes (KEP-4639)" });
      }
    }
    return out;
  },
};

/** What the report says of the cluster a run used: versions the API shows, and what the user adds. */
import { KubeTarget, client } from './target';

export interface ClusterInfo {
  readonly server: string;
  readonly nodes: Array<{ name: string; kubelet: string; runtime: string; kernel: string; os: string; cpu: string; memory: string }>;
  /** What the API cannot show (runc, CoreDNS run outside the cluster), from --cluster-note. */
  readonly notes: string[];
}

export async function clusterInfo(target: KubeTarget, notes: string[]): Promise<ClusterInfo> {
  const version = await target.config.makeApiClient(client().VersionApi).getCode().catch(() => undefined);
  const nodes = (await target.core.listNode()).items.map((n) => ({
    name: n.metadata?.name ?? '?',
    kubelet: n.status?.nodeInfo?.kubeletVersion ?? '?',
    runtime: n.status?.nodeInfo?.containerRuntimeVersion ?? '?',
    kernel: n.status?.nodeInfo?.kernelVersion ?? '?',
    os: n.status?.nodeInfo?.osImage ?? '?',
    cpu: n.status?.allocatable?.cpu ?? '?',
    memory: n.status?.allocatable?.memory ?? '?',
  }));
  return { server: version?.gitVersion ?? '?', nodes, notes };
}

/** One line for the report. */
export function describeCluster(info: ClusterInfo): string {
  const nodes = info.nodes.map((n) => `node ${n.name}: kubelet ${n.kubelet}, ${n.runtime}, ${n.os}, kernel ${n.kernel}, ${n.cpu} CPUs, ${n.memory} memory`);
  return [`API server ${info.server}`, ...nodes, ...info.notes].join('; ');
}

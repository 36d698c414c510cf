/** What the report says of the cluster a run used: versions the API shows, and what the user adds. */
import { KubeTarget, client } from './target';

export interface ClusterInfo {
  readonly server: string;
  readonly nodes: Array<{ name: string; kubelet: string; runtime: string; kernel: string; os: string; cpu: string; memory: string; unschedulable?: boolean }>;
  /** What the API cannot show (runc, CoreDNS run outside the cluster), from --cluster-note. */
  readonly notes: string[];
}

/**
 * The versions a kube run's record keeps as fields, so that runs on several Kubernetes versions
 * can be stored and compared by minor (the rest of ClusterInfo stays in the record's text only).
 */
export interface ClusterVersions {
  /** The API server's gitVersion, e.g. v1.34.4. */
  readonly server: string;
  /** Its minor, e.g. 1.34: which record the run goes to, and its column in the version matrix. */
  readonly minor: string;
  readonly nodes: ReadonlyArray<{ readonly name: string; readonly kubelet: string; readonly runtime: string }>;
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
    unschedulable: n.spec?.unschedulable === true,
  }));
  return { server: version?.gitVersion ?? '?', nodes, notes };
}

/** One line for the report. */
export function describeCluster(info: ClusterInfo): string {
  const nodes = info.nodes.map((n) => `node ${n.name}: kubelet ${n.kubelet}, ${n.runtime}, ${n.os}, kernel ${n.kernel}, ${n.cpu} CPUs, ${n.memory} memory`);
  return [`API server ${info.server}`, ...nodes, ...info.notes].join('; ');
}

/** 'MAJOR.MINOR' of a gitVersion (v1.34.4, and a provider's v1.34.4-gke.100 too); undefined if it is not one. */
export function kubeMinor(gitVersion: string): string | undefined {
  const m = /^v?(\d+)\.(\d+)(?:[.+-]|$)/.exec(gitVersion);
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}

/** The versions of a cluster; undefined when the API server's version could not be read. */
export function clusterVersions(info: ClusterInfo): ClusterVersions | undefined {
  const minor = kubeMinor(info.server);
  return minor ? { server: info.server, minor, nodes: info.nodes.map(({ name, kubelet, runtime }) => ({ name, kubelet, runtime })) } : undefined;
}

/**
 * The versions read back from describeCluster's line: records written before the versions were
 * fields have only that text (docs/e2e-runs/kube.json of 1.36.3).
 */
export function versionsFromDescription(text: string): ClusterVersions | undefined {
  const server = /^API server (\S+?);?(?:\s|$)/.exec(text)?.[1];
  const minor = server ? kubeMinor(server) : undefined;
  if (!server || !minor) return undefined;
  const nodes = [...text.matchAll(/(?:^|; )node (\S+): kubelet (\S+), ([^,;]+)/g)].map((m) => ({ name: m[1], kubelet: m[2], runtime: m[3] }));
  return { server, minor, nodes };
}

/**
 * What one container of every pod costs on a real cluster, from the kubelets' own accounting (the
 * stats summary each node serves, `/api/v1/nodes/NODE/proxy/stats/summary`): its peak working set
 * and the CPU it used, per pod, sampled while the cluster runs.
 */
import { KubeTarget } from '../../e2e/kube/target';
import { median } from '../stats';

/** Medians over the pods of each pod's peak working set (MiB) and CPU used (seconds); null before any sample. */
export interface ContainerUsage {
  readonly pods: number;
  readonly peakMiB: number | null;
  /** The largest pod's peak: whether one pod (the lead) costs more. */
  readonly maxPeakMiB: number | null;
  readonly cpuSeconds: number | null;
}

interface StatsSummary {
  pods?: Array<{
    podRef?: { name?: string; namespace?: string };
    containers?: Array<{ name?: string; memory?: { workingSetBytes?: number }; cpu?: { usageCoreNanoSeconds?: number } }>;
  }>;
}

/** Samples `container` in the pods of `namespace` on `nodes` every `periodMs` until stop() is called. */
export class ContainerUsageSampler {
  private readonly peak = new Map<string, number>();
  private readonly cpu = new Map<string, number>();
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(private readonly target: KubeTarget, private readonly nodes: string[], private readonly namespace: string,
    private readonly container: string, private readonly periodMs = 3000) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      for (const node of this.nodes) {
        let summary: StatsSummary | undefined;
        try {
          const got: unknown = await this.target.core.connectGetNodeProxyWithPath({ name: node, path: 'stats/summary' });
          summary = (typeof got === 'string' ? JSON.parse(got) : got) as StatsSummary | undefined;
        } catch {
          continue; // a node busy or away this round: the next one counts
        }
        for (const pod of summary?.pods ?? []) {
          if (pod.podRef?.namespace !== this.namespace || !pod.podRef.name) continue;
          const c = pod.containers?.find((x) => x.name === this.container);
          if (!c) continue;
          const ws = c.memory?.workingSetBytes;
          if (ws !== undefined) this.peak.set(pod.podRef.name, Math.max(ws, this.peak.get(pod.podRef.name) ?? 0));
          const ns = c.cpu?.usageCoreNanoSeconds;
          if (ns !== undefined) this.cpu.set(pod.podRef.name, Math.max(ns, this.cpu.get(pod.podRef.name) ?? 0));
        }
      }
      await new Promise((r) => setTimeout(r, this.periodMs));
    }
  }

  /** Stops sampling (again: no-op) and returns the usage seen. */
  async stop(): Promise<ContainerUsage> {
    this.stopped = true;
    await this.loop;
    const mib = [...this.peak.values()].map((b) => b / 2 ** 20);
    const cpu = [...this.cpu.values()].map((n) => n / 1e9);
    return {
      pods: this.peak.size,
      peakMiB: mib.length ? median(mib) : null,
      maxPeakMiB: mib.length ? Math.max(...mib) : null,
      cpuSeconds: cpu.length ? median(cpu) : null,
    };
  }
}

/**
 * A Job's pods as the runner reads them at each poll: one LIST, then a watch keeps the copy current.
 * A LIST at every poll cost the API server and this process CPU in proportion to the pods and their
 * size, on the node being measured: 128 MiniCluster pods are 1.5 MB of JSON, twice a second.
 */
import type * as k8s from '@kubernetes/client-node';
import { KubeTarget, client } from './target';

export class PodWatch {
  private readonly pods = new Map<string, k8s.V1Pod>();
  /** false: the next read lists again (the first one, or the watch ended). */
  private current = false;
  private request: AbortController | undefined;
  /** Which watch is the current one: a watch aborted by a relist may still call back after it. */
  private generation = 0;
  private stopped = false;

  constructor(private readonly target: KubeTarget, private readonly namespace: string, private readonly labelSelector: string) {}

  /**
   * The pods now. Objects from the watch are the API's JSON, not the client's models: times are
   * strings there, Dates in a LIST's items (record.ts reads both).
   */
  async list(): Promise<k8s.V1Pod[]> {
    if (!this.current && !this.stopped) await this.relist();
    return [...this.pods.values()];
  }

  stop(): void {
    this.stopped = true;
    this.request?.abort();
  }

  private async relist(): Promise<void> {
    this.request?.abort();
    const generation = ++this.generation;
    const listed = await this.target.core.listNamespacedPod({ namespace: this.namespace, labelSelector: this.labelSelector });
    this.pods.clear();
    for (const p of listed.items) this.pods.set(p.metadata!.name!, p);
    this.current = true;
    const k8s = client();
    const ended = (): void => {
      if (generation === this.generation) this.current = false;
    };
    try {
      this.request = await new k8s.Watch(this.target.config).watch(`/api/v1/namespaces/${this.namespace}/pods`,
        { labelSelector: this.labelSelector, resourceVersion: listed.metadata?.resourceVersion, allowWatchBookmarks: true },
        (type: string, obj: k8s.V1Pod) => {
          if (generation !== this.generation) return;
          const name = obj?.metadata?.name;
          if (type === 'ERROR' || (type !== 'BOOKMARK' && !name)) ended(); // 410 Gone and the like: list again
          else if (type === 'DELETED') this.pods.delete(name!);
          else if (type === 'ADDED' || type === 'MODIFIED') this.pods.set(name!, obj);
        },
        ended);
    } catch {
      ended(); // no watch: this poll has the LIST, the next lists again
    }
  }
}

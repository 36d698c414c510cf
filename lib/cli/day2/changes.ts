/**
 * Re-evaluates something about a cluster each time its Job or pods change (two watches), until
 * it says it is done or the time runs out. Each change re-reads the Job and pods, so a missed or
 * coalesced event costs nothing but a moment; a slow poll covers a watch that is quietly gone.
 */
import { CLUSTER_LABEL } from '../../constructs/private/labels';
import { EXIT } from './errors';
import { apiError, Kube } from './kube';

const DEBOUNCE_MS = 200;
const POLL_MS = 10000;
const REWATCH_MS = 1000;

/** Calls `evaluate` now and after each change; resolves 'done' when it returns true, or 'timeout'. */
export function untilDone(kube: Kube, jobName: string, evaluate: () => Promise<boolean>, timeoutMs?: number): Promise<'done' | 'timeout'> {
  return new Promise((resolve, reject) => {
    let finished = false;
    let running = false;
    let again = false;
    let debounce: NodeJS.Timeout | undefined;
    const controllers: AbortController[] = [];
    const timers: NodeJS.Timeout[] = [];
    const finish = (f: () => void): void => {
      if (finished) return;
      finished = true;
      clearTimeout(debounce);
      for (const t of timers) clearTimeout(t);
      for (const c of controllers) c.abort();
      f();
    };
    const run = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          if (await evaluate()) return finish(() => resolve('done'));
        } while (again && !finished);
      } catch (e) {
        finish(() => reject(e));
      } finally {
        running = false;
      }
    };
    const soon = (): void => {
      clearTimeout(debounce);
      debounce = setTimeout(() => void run(), DEBOUNCE_MS);
    };
    const watch = (path: string, query: Record<string, string>, resource: string): void => {
      if (finished) return;
      new kube.lib.Watch(kube.config).watch(path, query, () => soon(), (err: unknown) => {
        if (finished) return;
        const e = err ? apiError(kube, { verb: 'watch', resource }, err) : undefined;
        // A forbidden or unreachable watch will not get better; an ended one is restarted.
        if (e && (e.exitCode === EXIT.UNREACHABLE || e.exitCode === EXIT.FORBIDDEN)) return finish(() => reject(e));
        timers.push(setTimeout(() => watch(path, query, resource), REWATCH_MS));
        soon();
      }).then((c) => (finished ? c.abort() : controllers.push(c)), (err) => finish(() => reject(apiError(kube, { verb: 'watch', resource }, err))));
    };
    const ns = encodeURIComponent(kube.namespace);
    watch(`/api/v1/namespaces/${ns}/pods`, { labelSelector: `${CLUSTER_LABEL}=${jobName}` }, 'pods');
    watch(`/apis/batch/v1/namespaces/${ns}/jobs`, { fieldSelector: `metadata.name=${jobName}` }, 'jobs');
    const poll = (): void => {
      timers.push(setTimeout(() => {
        void run();
        poll();
      }, POLL_MS));
    };
    poll();
    if (timeoutMs !== undefined) timers.push(setTimeout(() => finish(() => resolve('timeout')), timeoutMs));
    void run();
  });
}

/** The real-cluster scale benchmark's per-pod cost of a container, from the kubelets' stats summaries. */
import { ContainerUsageSampler } from '../bench/scale/container-usage';
import { KubeTarget } from '../e2e/kube/target';

const MiB = 2 ** 20;

/** A cluster whose nodes answer stats summaries from `rounds`, one per call per node, the last one repeated. */
function fakeTarget(rounds: Record<string, any[]>): { target: KubeTarget; calls: string[] } {
  const calls: string[] = [];
  const seen: Record<string, number> = {};
  const core = {
    connectGetNodeProxyWithPath: async ({ name, path }: { name: string; path: string }) => {
      calls.push(`${name} ${path}`);
      const list = rounds[name];
      if (!list) throw new Error('node away');
      const i = Math.min(seen[name] ?? 0, list.length - 1);
      seen[name] = (seen[name] ?? 0) + 1;
      return list[i];
    },
  };
  return { target: { core } as unknown as KubeTarget, calls };
}

const pod = (name: string, namespace: string, sidecarMiB: number, cpuS: number) => ({
  podRef: { name, namespace },
  containers: [
    { name: 'flux-handshake', memory: { workingSetBytes: sidecarMiB * MiB }, cpu: { usageCoreNanoSeconds: cpuS * 1e9 } },
    { name: 'flux-scale', memory: { workingSetBytes: 500 * MiB }, cpu: { usageCoreNanoSeconds: 99e9 } },
  ],
});

test('GIVEN two nodes sampled twice WHEN stopped THEN each pod counts with its peak and its last CPU, only in the namespace, medians over the pods', async () => {
  // GIVEN pod a whose sidecar peaks at 40 MiB then falls, b at 42 MiB, c at 60 MiB (the lead), and a pod of another namespace
  const { target, calls } = fakeTarget({
    kn0: [{ pods: [pod('a', 'ns', 40, 0.1), pod('x', 'other', 900, 50)] }, { pods: [pod('a', 'ns', 30, 0.3)] }],
    kn1: [JSON.stringify({ pods: [pod('b', 'ns', 42, 0.2), pod('c', 'ns', 60, 0.5)] })],
    kn2: [],
  });
  const sampler = new ContainerUsageSampler(target, ['kn0', 'kn1', 'kn2', 'gone'], 'ns', 'flux-handshake', 5);
  await new Promise((r) => setTimeout(r, 40));
  // WHEN the run ends
  const usage = await sampler.stop();
  // THEN
  expect(usage.pods).toBe(3);
  expect(usage.peakMiB).toBeCloseTo(42);
  expect(usage.maxPeakMiB).toBeCloseTo(60);
  expect(usage.cpuSeconds).toBeCloseTo(0.3);
  expect(calls).toContain('kn0 stats/summary');
  // AND a second stop returns the same without sampling again
  const n = calls.length;
  expect(await sampler.stop()).toEqual(usage);
  expect(calls.length).toBe(n);
});

test('GIVEN no node answers WHEN stopped THEN nothing is claimed', async () => {
  const { target } = fakeTarget({});
  const sampler = new ContainerUsageSampler(target, ['kn0'], 'ns', 'flux-handshake', 5);
  await new Promise((r) => setTimeout(r, 20));
  expect(await sampler.stop()).toEqual({ pods: 0, peakMiB: null, maxPeakMiB: null, cpuSeconds: null });
});

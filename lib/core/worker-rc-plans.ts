/**
 * What a worker broker's (rank > 0) `flux modprobe rc1` does, for the Flux installs it was read from
 * and then run on real brokers: which modules it loads and in what precedence (rc3 removes them in
 * the reverse one), besides running the rc1.d and rc3.d scripts. worker-rc.sh runs such a plan
 * without Python when the install's modprobe files (everything flux-modprobe reads to make its plan)
 * have the fingerprint recorded here; on any other install the workers run flux-modprobe as usual.
 */
export interface WorkerRcPlan {
  /** A shell identifier. */
  readonly name: string;
  /** `cksum` of the modprobe files' names and contents, as worker-rc.sh computes it ("<crc>-<bytes>"). */
  readonly fingerprint: string;
  /**
   * Every module a worker's rc1 loads, with the modules it is loaded after: flux-modprobe's
   * precedence graph for a worker (`flux modprobe rc1 --show-deps` on rank 1, less its run-all-rc1
   * task, which comes after all of them).
   */
  readonly after: Readonly<Record<string, readonly string[]>>;
}

export const WORKER_RC_PLANS: readonly WorkerRcPlan[] = [
  {
    // flux-core 0.88.0 with Fluxion 0.54.0 installed in the same prefix (modprobe.d/fluxion.toml,
    // rc1.d/fluxion.py), as the flux-view images and ../shared/reference/flux-build-facts.md build
    // them. `flux modprobe rc1 --show-deps` on rank 1: heartbeat, content, job-info and job-ingest
    // first, kvs after content, kvs-watch after kvs, resource after kvs-watch; run-all-rc1 last.
    name: 'flux_core_0_88_0_fluxion_0_54_0',
    fingerprint: '3981401533-16007',
    after: {
      'heartbeat': [],
      'content': [],
      'kvs': ['content'],
      'kvs-watch': ['kvs'],
      'resource': ['kvs-watch'],
      'job-info': [],
      'job-ingest': [],
    },
  },
];

/**
 * rc1 as steps, each step's modules loaded together: a module's step follows those of all the
 * modules it is loaded after. undefined when the graph names a module it does not hold, or loops.
 */
export function loadSteps(plan: WorkerRcPlan): string[][] | undefined {
  return layers(plan.after);
}

/**
 * rc3 as steps, each step's modules removed together: a module goes once every module loaded after
 * it is gone, as flux-modprobe's rc3 removes them. undefined as for loadSteps.
 */
export function removeSteps(plan: WorkerRcPlan): string[][] | undefined {
  // The graph reversed: it loops where the plan's does; a predecessor outside the plan has no entry.
  const loadedAfter = new Map<string, string[]>(Object.keys(plan.after).map((m) => [m, []]));
  for (const [module, predecessors] of Object.entries(plan.after)) {
    for (const p of predecessors) {
      const after = loadedAfter.get(p);
      if (!after) return undefined;
      after.push(module);
    }
  }
  return layers(Object.fromEntries(loadedAfter));
}

/** Steps of a precedence graph (each node with the nodes it waits for), names sorted within a step. */
function layers(waitsFor: Readonly<Record<string, readonly string[]>>): string[][] | undefined {
  const step = new Map<string, number>();
  const visiting = new Set<string>();
  const depth = (node: string): number | undefined => {
    const known = step.get(node);
    if (known !== undefined) return known;
    const before = waitsFor[node];
    if (!Object.prototype.hasOwnProperty.call(waitsFor, node) || visiting.has(node)) return undefined;
    visiting.add(node);
    let d = 0;
    for (const p of before) {
      const pd = depth(p);
      if (pd === undefined) return undefined;
      d = Math.max(d, pd + 1);
    }
    visiting.delete(node);
    step.set(node, d);
    return d;
  };
  const steps: string[][] = [];
  for (const node of Object.keys(waitsFor)) {
    const d = depth(node);
    if (d === undefined) return undefined;
    (steps[d] ??= []).push(node);
  }
  return steps.map((s) => s.sort());
}

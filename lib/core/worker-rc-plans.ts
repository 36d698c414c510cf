/**
 * What a worker broker's (rank > 0) `flux modprobe rc1` does, for the Flux installs it was read from
 * and then run on real brokers: which modules it loads (rc3 removes them in reverse order), besides
 * running the rc1.d and rc3.d scripts. worker-rc.sh runs such a plan without Python when the
 * install's modprobe files (everything flux-modprobe reads to make its plan) have the fingerprint
 * recorded here; on any other install the workers run flux-modprobe as usual.
 */
export interface WorkerRcPlan {
  /** A shell identifier. */
  readonly name: string;
  /** `cksum` of the modprobe files' names and contents, as worker-rc.sh computes it ("<crc>-<bytes>"). */
  readonly fingerprint: string;
  /** The modules a worker's rc1 loads, in an order that respects their `after` lists. */
  readonly modules: readonly string[];
}

export const WORKER_RC_PLANS: readonly WorkerRcPlan[] = [
  {
    // flux-core 0.88.0 with Fluxion 0.54.0 installed in the same prefix (modprobe.d/fluxion.toml,
    // rc1.d/fluxion.py), as the flux-view images and ../shared/reference/flux-build-facts.md build
    // them. `flux modprobe rc1 --dry-run` on rank 1: load heartbeat, content, kvs, kvs-watch,
    // resource, job-info, job-ingest; run run-all-rc1.
    name: 'flux_core_0_88_0_fluxion_0_54_0',
    fingerprint: '3981401533-16007',
    modules: ['heartbeat', 'content', 'kvs', 'kvs-watch', 'resource', 'job-info', 'job-ingest'],
  },
];

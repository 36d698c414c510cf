/**
 * The Flux TBON (tree-based overlay network) shape, computed in one place so that the broker
 * config, the scripts and the hosts-handshake sidecar always agree on who connects to whom.
 *
 * Supported shape: `kary:K` with K >= 2, which flux-core accepts as `tbon.topo` (`kary:1` crashes
 * brokers, flux-core#6463). Other shapes are rejected rather than guessed, because the handshake
 * must know each rank's parent exactly. The default matches the Flux Operator's
 * `-Stbon.fanout=256`, an alias of `kary:256`.
 */

/** The default TBON topology (the Flux Operator's `tbon.fanout=256`). */
export const DEFAULT_TOPOLOGY = 'kary:256';

/** Returns the fanout of a `kary:K` topology, or an error message naming the rule it breaks. */
export function parseTopology(spec: string): number | string {
  const m = /^kary:(\d+)$/.exec(spec);
  if (!m) return `must be 'kary:K' with K >= 2 (other tbon.topo shapes are not supported)`;
  const k = Number(m[1]);
  if (k < 2) return `kary:${k} is not supported (kary:1 crashes flux-core brokers, flux-core#6463); use kary:2 or more`;
  return k;
}

function fanoutOf(spec: string): number {
  const k = parseTopology(spec);
  if (typeof k === 'string') throw new Error(`invalid topology '${spec}': ${k}`);
  return k;
}

/** The TBON parent rank of `rank`, or undefined for rank 0. */
export function parentRank(rank: number, topology: string = DEFAULT_TOPOLOGY): number | undefined {
  if (rank <= 0) return undefined;
  return Math.floor((rank - 1) / fanoutOf(topology));
}

/** The TBON children of `rank` in a cluster of `size` brokers, in rank order. */
export function childRanks(rank: number, size: number, topology: string = DEFAULT_TOPOLOGY): number[] {
  const k = fanoutOf(topology);
  const out: number[] = [];
  const first = rank * k + 1;
  for (let c = first; c < Math.min(size, first + k); c++) out.push(c);
  return out;
}

/** True when `rank` has TBON children and so must bind its port. */
export function isInteriorRank(rank: number, size: number, topology: string = DEFAULT_TOPOLOGY): boolean {
  return childRanks(rank, size, topology).length > 0;
}

/** Where a run's brokers ran (a real cluster): for the case's report line. */
import { PodRecord } from './podemu';

/**
 * `nodes (3): kn0 (rank 0), kn1 (ranks 1, 3), kn2 (rank 2)`: each node and the ranks of the pods
 * bound to it, replacements included (a rank replaced on another node is under both). Undefined
 * when no pod was bound to a node (podemu).
 */
export function brokerNodes(pods: ReadonlyArray<Pick<PodRecord, 'index' | 'node'>>): string | undefined {
  const ranks = new Map<string, Set<number>>();
  for (const p of pods) if (p.node) ranks.set(p.node, (ranks.get(p.node) ?? new Set()).add(p.index));
  if (!ranks.size) return undefined;
  const each = [...ranks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([node, r]) => {
    const sorted = [...r].sort((a, b) => a - b);
    return `${node} (rank${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')})`;
  });
  return `nodes (${ranks.size}): ${each.join(', ')}`;
}

/** `name-[1-3,7]`: compact hostlist of ranks for messages (keeps termination messages short). */
export function ranksHostlist(name: string, ranks: number[]): string {
  const sorted = [...new Set(ranks)].sort((a, b) => a - b);
  if (sorted.length === 0) return '(none)';
  if (sorted.length === 1) return `${name}-${sorted[0]}`;
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return `${name}-[${parts.join(',')}]`;
}

/** Exponential backoff with jitter, capped: short first retries, bounded load when a peer is away. */
export class Backoff {
  private attempt = 0;
  constructor(private readonly firstMs: number, private readonly capMs: number) {}

  next(): number {
    const base = Math.min(this.capMs, this.firstMs * 2 ** this.attempt++);
    return Math.round(base * (0.5 + Math.random() / 2));
  }

  reset(): void {
    this.attempt = 0;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

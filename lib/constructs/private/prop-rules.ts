/** Validation rules written as a table: each names its property, the value it shows, when it is broken and why. */
import { MiniClusterProps } from '../mini-cluster-props';
import type { Violation } from './validate-mini-cluster-props';

/** One rule: when it is broken, and what the message says. */
export interface PropRule {
  readonly path: string;
  readonly value: (p: MiniClusterProps) => unknown;
  readonly broken: (p: MiniClusterProps) => boolean;
  readonly rule: (p: MiniClusterProps) => string;
}

/** The violations of every rule of `rules` that `props` break, in table order. */
export function brokenRules(rules: readonly PropRule[], props: MiniClusterProps): Violation[] {
  return rules.filter((r) => r.broken(props)).map((r) => ({ path: r.path, value: r.value(props), rule: r.rule(props) }));
}

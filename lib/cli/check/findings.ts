/** What `check` reports: findings, their severities, the JSON document and the exit codes (docs/day2.md, "check"). */

/** The JSON document's version: fields are only added within one version. */
export const CHECK_API_VERSION = 'cdk8s-minicluster/v1';

/** `check`'s exit codes: its own, simpler than the other day-2 commands', for CI. */
export const CHECK_EXIT = {
  /** Nothing found that stops the output from running. */
  RUNS: 0,
  /** At least one finding of severity error. */
  WOULD_NOT_RUN: 1,
  /** Bad options or files, a kubeconfig that cannot be used, or no answer from the API server. */
  USAGE: 2,
} as const;

/**
 * error: the output would not run (or not as synthesized); warning: it runs, but something it may
 * need later will not work (scaling up); unknown: the check could not tell (a 403, a runtime it
 * does not know); info: worth knowing, not a problem.
 */
export type Severity = 'error' | 'warning' | 'unknown' | 'info';

export interface Finding {
  /** The rule's id (RULES in rules/index.ts). */
  readonly rule: string;
  readonly severity: Severity;
  /** `Kind/name` of the object of the output concerned (a Node for runtime findings), or null. */
  readonly object: string | null;
  readonly namespace: string | null;
  readonly message: string;
  /** What to change, or null where there is nothing to change (info). */
  readonly fix: string | null;
}

export interface CheckReport {
  readonly apiVersion: string;
  readonly kind: 'MiniClusterCheck';
  readonly server: { readonly url: string; readonly version: string | null };
  readonly files: string[];
  readonly clusters: Array<{ job: string; namespace: string; kubernetesVersion: string | null; size: number; maxSize: number }>;
  /** Runs: no finding of severity error. */
  readonly result: 'Runs' | 'WouldNotRun';
  readonly findings: Finding[];
}

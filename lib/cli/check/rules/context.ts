/** What every rule gets, and how a rule is declared. */
import type { ClusterFacts } from '../facts';
import type { Finding, Severity } from '../findings';
import type { BrokerJob, Manifest } from '../manifest';

export interface CheckContext {
  readonly manifest: Manifest;
  readonly facts: ClusterFacts;
}

export interface Rule {
  readonly id: string;
  /** What it checks, for docs/day2.md and `check --help`. */
  readonly checks: string;
  readonly run: (ctx: CheckContext) => Finding[];
}

/** A finding about a broker Job. */
export function jobFinding(rule: string, severity: Severity, job: BrokerJob, message: string, fix: string | null): Finding {
  return { rule, severity, object: `Job/${job.name}`, namespace: job.namespace, message, fix };
}

/** "cannot tell" about something the account may not read. */
export function cannotTell(rule: string, what: string, why: string, object: string | null = null, namespace: string | null = null): Finding {
  return { rule, severity: 'unknown', object, namespace, message: `cannot tell ${what}: ${why}`, fix: 'grant the account the read the check needs (docs/day2.md, check: permissions), or check by hand' };
}

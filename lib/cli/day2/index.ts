/**
 * The day-2 commands, for a running MiniCluster: in the `cdk8s-minicluster` command line and, under
 * the same names, in the kubectl plugin `kubectl-minicluster` (docs/day2.md).
 */
import { Command } from 'commander';
import { fluxCommand } from './flux';
import { logsCommand } from './logs';
import { scaleCommand } from './scale';
import { statusCommand } from './status';
import { waitCommand } from './wait';

/** Every day-2 command; `program` names the command line in error messages. */
export function day2Commands(program: string): Command[] {
  return [statusCommand, waitCommand, logsCommand, scaleCommand, fluxCommand].map((c) => c(program));
}

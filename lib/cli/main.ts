#!/usr/bin/env node
/**
 * The cdk8s-minicluster command line. Each command lives in its own file (lib/cli/<command>.ts)
 * and is registered here.
 */
import { Command } from 'commander';
import { certCommand } from './cert';
import { checkCommand } from './check/command';
import { day2Commands } from './day2';
import { packageVersion } from './version';
import { synthCommand } from './synth';
import { validateCommand } from './validate';

/** Every command, in the order `--help` lists them. */
const COMMANDS: Array<() => Command> = [certCommand, synthCommand, validateCommand];

export function cliProgram(): Command {
  const program = new Command('cdk8s-minicluster')
    .description('tools for cdk8s-minicluster, the Flux Framework MiniCluster construct library')
    .version(packageVersion(), '-V, --version', 'print the cdk8s-minicluster package version')
    .showHelpAfterError();
  for (const command of COMMANDS) program.addCommand(command());
  // The day-2 commands, for a running cluster (also the kubectl plugin kubectl-minicluster).
  for (const command of day2Commands('cdk8s-minicluster')) program.addCommand(command);
  // Before apply: whether the output would run on the cluster.
  program.addCommand(checkCommand('cdk8s-minicluster'));
  return program;
}

if (require.main === module) {
  cliProgram().parseAsync(process.argv).catch((e: Error) => {
    process.stderr.write(`cdk8s-minicluster: ${e.message}\n`);
    process.exitCode = 1;
  });
}

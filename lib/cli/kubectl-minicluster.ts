#!/usr/bin/env node
/**
 * The kubectl plugin: installed as `kubectl-minicluster` on PATH, `kubectl minicluster status ...`
 * runs it. The same day-2 commands as `cdk8s-minicluster status|wait|logs|scale|flux|check`.
 */
import { Command } from 'commander';
import { checkCommand } from './check/command';
import { day2Commands } from './day2';
import { packageVersion } from './version';

export function kubectlPluginProgram(): Command {
  const program = new Command('kubectl-minicluster')
    .usage('<command> [options]  (as a kubectl plugin: kubectl minicluster <command>)')
    .description('check before apply, then see, wait for, scale and reach running cdk8s-minicluster MiniClusters')
    .version(packageVersion(), '-V, --version', 'print the cdk8s-minicluster package version')
    .showHelpAfterError();
  for (const command of day2Commands('kubectl-minicluster')) program.addCommand(command);
  // Before apply: whether the output would run on the cluster.
  program.addCommand(checkCommand('kubectl-minicluster'));
  return program;
}

if (require.main === module) {
  kubectlPluginProgram().parseAsync(process.argv).catch((e: Error) => {
    process.stderr.write(`kubectl-minicluster: ${e.message}\n`);
    process.exitCode = 1;
  });
}

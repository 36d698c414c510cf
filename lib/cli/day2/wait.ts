/** `wait NAME --for up|complete`: blocks until the cluster is up or its Job completed. */
import { Command, Option } from 'commander';
import { findClusterJob } from './cluster';
import { untilDone } from './changes';
import { Day2Error, EXIT } from './errors';
import { connect, KubeOptions } from './kube';
import { ClusterStatus } from './model';
import { connectionOptions, day2Action, parseDuration, withConnectionOptions } from './options';
import { readStatus } from './read';

const HELP = `
up: the lead's pod is Ready, i.e. the instance is up (minSize brokers connected, docs/day2.md).
complete: the Job completed (condition Complete or SuccessCriteriaMet).
Exits 0 when reached, ${EXIT.JOB_FAILED} when the Job failed (or ended before it came up), ${EXIT.TIMEOUT} on timeout.

Examples:
  $ kubectl minicluster wait flux-sample --for up --timeout 5m && kubectl minicluster flux flux-sample -- resource list
  $ kubectl minicluster wait flux-batch --for complete --timeout 2h
`;

interface WaitOptions extends KubeOptions {
  readonly for: 'up' | 'complete';
  readonly timeout: string;
}

/** Whether `s` reached `target`; throws JOB_FAILED when it never will. */
export function reached(s: ClusterStatus, target: 'up' | 'complete'): boolean {
  if (s.state === 'Failed' || s.state === 'Failing') {
    throw new Day2Error(EXIT.JOB_FAILED, `MiniCluster ${s.job} ${s.state === 'Failed' ? 'failed' : 'is failing'}: ${s.problems.join('; ') || 'no reason given'}`);
  }
  if (target === 'complete') return s.state === 'Complete';
  if (s.state === 'Complete') throw new Day2Error(EXIT.JOB_FAILED, `MiniCluster ${s.job} completed before it was seen up`);
  return s.state === 'Up';
}

export function waitCommand(program: string): Command {
  return withConnectionOptions(new Command('wait'))
    .description('wait until a MiniCluster is up or its Job completed')
    .argument('<name>', 'MiniCluster (Job or cluster name)')
    .addOption(new Option('--for <condition>', 'what to wait for').choices(['up', 'complete']).makeOptionMandatory())
    .option('--timeout <duration>', 'give up after this long (e.g. 90s, 5m, 1h)', '5m')
    .addHelpText('after', HELP)
    .action(day2Action(program, async (clusterName: string, options: WaitOptions) => {
      const timeout = parseDuration(options.timeout);
      const kube = connect(connectionOptions(options));
      const job = await findClusterJob(kube, clusterName);
      let last: ClusterStatus | undefined;
      const result = await untilDone(kube, job.metadata!.name!, async () => {
        last = await readStatus(kube, job, true);
        return reached(last, options.for);
      }, timeout);
      if (result === 'timeout') {
        const where = last ? `${last.state}, ${last.brokers.up}/${last.brokers.expected} brokers up${last.problems.length ? `; ${last.problems.join('; ')}` : ''}` : 'never read';
        throw new Day2Error(EXIT.TIMEOUT, `timed out after ${options.timeout} waiting for MiniCluster ${job.metadata!.name} to be ${options.for} (now: ${where})`);
      }
      process.stdout.write(`MiniCluster ${job.metadata!.name} is ${options.for === 'up' ? 'up' : 'complete'}\n`);
    }));
}

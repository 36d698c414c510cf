/** `logs NAME [--rank N] [-f]`: the Flux container's log of one rank, the lead by default. */
import { PassThrough } from 'stream';
import { Command } from 'commander';
import { findClusterJob, podOfRank } from './cluster';
import { connect, KubeOptions, request } from './kube';
import { fluxContainerName } from './model';
import { connectionOptions, day2Action, parseCount, withConnectionOptions } from './options';

const HELP = `
Examples:
  $ kubectl minicluster logs flux-sample             # the lead broker (rank 0)
  $ kubectl minicluster logs flux-sample --rank 3 -f
  $ kubectl minicluster logs flux-sample --rank 1 --previous
`;

interface LogsOptions extends KubeOptions {
  readonly rank: string;
  readonly follow?: boolean;
  readonly previous?: boolean;
  readonly tail?: string;
}

export function logsCommand(program: string): Command {
  return withConnectionOptions(new Command('logs'))
    .description("print the log of a rank's Flux container (the lead's by default)")
    .argument('<name>', 'MiniCluster (Job or cluster name)')
    .option('-r, --rank <n>', 'broker rank (the pod of that completion index)', '0')
    .option('-f, --follow', 'keep printing as the log grows')
    .option('-p, --previous', "the previous, ended instance of the container")
    .option('--tail <lines>', 'only the last lines')
    .addHelpText('after', HELP)
    .action(day2Action(program, async (clusterName: string, options: LogsOptions) => {
      const rank = parseCount('--rank', options.rank);
      const tailLines = options.tail !== undefined ? parseCount('--tail', options.tail) : undefined;
      const kube = connect(connectionOptions(options));
      const job = await findClusterJob(kube, clusterName);
      const pod = (await podOfRank(kube, job, rank)).metadata!.name!;
      const container = fluxContainerName(job);
      const out = new PassThrough();
      out.pipe(process.stdout, { end: false });
      const ended = new Promise<void>((resolve, reject) => {
        out.on('end', resolve);
        out.on('error', reject);
      });
      await request(kube, { verb: 'get', resource: 'pods/log', name: pod },
        () => new kube.lib.Log(kube.config).log(kube.namespace, pod, container, out, { follow: options.follow ?? false, previous: options.previous ?? false, tailLines }));
      await ended;
    }));
}

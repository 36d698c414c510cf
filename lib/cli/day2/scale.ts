/**
 * `scale NAME --size N`: grows or shrinks an elastic cluster's Job in place, as docs/production.md
 * says (parallelism and completions together, within minSize..maxSize), then waits for the brokers.
 */
import { Command } from 'commander';
import { findClusterJob } from './cluster';
import { untilDone } from './changes';
import { Day2Error, EXIT } from './errors';
import { connect, KubeOptions, request } from './kube';
import { ClusterStatus, sizeLimits } from './model';
import { connectionOptions, day2Action, parseCount, parseDuration, withConnectionOptions } from './options';
import { readStatus } from './read';
import { releaseRanks, undrainRanks } from './release';

const HELP = `
Only an elastic cluster scales: one synthesized with maxSize above minSize (the Job's annotations
flux-framework.org/min-size and max-size record them). It then waits until ranks 0..N-1 are Ready
(connected) and no pod of a higher rank runs; Fluxion sees new nodes once they are up.

Shrinking first drains the ranks given up in Flux (no new job goes there), waits up to --timeout
until they run no job, and marks them released, so that their pods end without failing the Job;
growing undrains the ranks it brings back.

Examples:
  $ kubectl minicluster scale flux-elastic --size 4
  $ kubectl minicluster scale flux-elastic --size 2 --no-wait
`;

interface ScaleOptions extends KubeOptions {
  readonly size: string;
  readonly wait: boolean;
  readonly timeout: string;
}

/** Whether the cluster runs exactly `size` brokers, all connected. */
export function scaledTo(s: ClusterStatus, size: number): boolean {
  if (s.state === 'Failed' || s.state === 'Failing') throw new Day2Error(EXIT.JOB_FAILED, `MiniCluster ${s.job} failed while scaling: ${s.problems.join('; ')}`);
  const ready = s.ranks.filter((r) => r.rank < size && r.ready).length;
  const extra = s.ranks.filter((r) => r.rank >= size && r.phase !== 'Succeeded' && r.phase !== 'Failed').length;
  return ready === size && extra === 0;
}

export function scaleCommand(program: string): Command {
  return withConnectionOptions(new Command('scale'))
    .description('change the number of brokers of an elastic MiniCluster')
    .argument('<name>', 'MiniCluster (Job or cluster name)')
    .requiredOption('--size <n>', 'brokers to run, from minSize to maxSize')
    .option('--no-wait', 'return once the Job is changed')
    .option('--timeout <duration>', 'how long to wait for the brokers', '5m')
    .addHelpText('after', HELP)
    .action(day2Action(program, async (clusterName: string, options: ScaleOptions) => {
      const size = parseCount('--size', options.size);
      const timeout = parseDuration(options.timeout);
      const kube = connect(connectionOptions(options));
      const job = await findClusterJob(kube, clusterName);
      const jobName = job.metadata!.name!;
      const { min, max } = sizeLimits(job);
      if (min === null || max === null) {
        throw new Day2Error(EXIT.NOT_ELASTIC, `MiniCluster ${jobName} is not elastic: its Job does not record minSize and maxSize (synthesized by an older cdk8s-minicluster)`);
      }
      if (max <= min) {
        throw new Day2Error(EXIT.NOT_ELASTIC, `MiniCluster ${jobName} is not elastic: its maxSize (${max}) is not above its minSize (${min}); synthesize it with maxSize above size to scale it`);
      }
      if (size < min || size > max) {
        throw new Day2Error(EXIT.OUT_OF_RANGE, `cannot scale MiniCluster ${jobName} to ${size}: ${size < min ? `below its minSize, ${min} (the brokers the instance needs to be up)` : `above its maxSize, ${max} (the hosts in its Flux hosts list)`}`);
      }
      const ended = (job.status?.conditions ?? []).find((c) => ['Complete', 'Failed', 'SuccessCriteriaMet'].includes(c.type) && c.status === 'True');
      if (ended) throw new Day2Error(EXIT.JOB_FAILED, `cannot scale MiniCluster ${jobName}: its Job has ended (${ended.type})`);
      const from = job.spec?.parallelism ?? 1;
      // The ranks a shrink gives up leave Flux first; the ranks growth brings back rejoin it.
      if (size < from) await releaseRanks(kube, job, size, from, Math.ceil(timeout / 1000), program);
      if (size > from) {
        const problem = await undrainRanks(kube, job, from, size, program);
        if (problem) process.stderr.write(`${program}: warning: ${problem}; new ranks that an earlier shrink drained stay drained\n`);
      }
      const { setHeaderOptions, PatchStrategy } = kube.lib;
      await request(kube, { verb: 'patch', resource: 'jobs', name: jobName }, () => kube.batch.patchNamespacedJob(
        { name: jobName, namespace: kube.namespace, body: { spec: { parallelism: size, completions: size } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));
      process.stdout.write(`MiniCluster ${jobName}: parallelism and completions ${from} -> ${size}\n`);
      if (!options.wait) return;
      let last: ClusterStatus | undefined;
      const result = await untilDone(kube, jobName, async () => {
        last = await readStatus(kube, job, true);
        return scaledTo(last, size);
      }, timeout);
      if (result === 'timeout') {
        throw new Day2Error(EXIT.TIMEOUT, `timed out after ${options.timeout} waiting for ${size} brokers of ${jobName} (now ${last?.brokers.up ?? 0} up${last?.problems.length ? `; ${last.problems.join('; ')}` : ''})`);
      }
      process.stdout.write(`MiniCluster ${jobName}: ${size} brokers up\n`);
    }));
}

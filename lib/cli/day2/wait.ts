/** `wait NAME --for up|complete`: blocks until the cluster is up or its Job completed. */
import { Command, Option } from 'commander';
import type * as k8s from '@kubernetes/client-node';
import { eventTime, findClusterJob, listPodEvents } from './cluster';
import { untilDone } from './changes';
import { Day2Error, EXIT } from './errors';
import { connect, Kube, KubeOptions } from './kube';
import { ClusterStatus } from './model';
import { connectionOptions, day2Action, parseDuration, withConnectionOptions } from './options';
import { readCluster } from './read';
import { SCALE_UP_EVENTS, ScaleUpEvents, StuckPods, unschedulableSince } from './stuck';

const HELP = `
up: the lead's pod is Ready, i.e. the instance is up (minSize brokers connected, docs/day2.md).
complete: the Job completed (condition Complete or SuccessCriteriaMet).
Exits 0 when reached, ${EXIT.JOB_FAILED} when the Job failed (or ended before it came up), ${EXIT.TIMEOUT} on timeout,
${EXIT.STUCK} when a pod is stuck in a state that does not resolve by itself, without waiting for the
timeout: ImagePullBackOff, InvalidImageName, ErrImageNeverPull at once; ErrImagePull,
CreateContainerError, CreateContainerConfigError once they lasted --stuck-grace; a pod no node takes
(PodScheduled=False, Unschedulable) once it was so for --unschedulable-grace, unless the cluster
autoscaler is adding a node for it (event TriggeredScaleUp), at once if it says it will not
(NotTriggerScaleUp); a pod on a node that stopped answering (Ready Unknown or False) once that lasted
--unschedulable-grace, naming the node and the command that frees the rank; a cluster Kueue cannot
admit (Inadmissible: no such LocalQueue, a stopped queue) or for which it made no Workload (Kueue
not running) once that lasted --unschedulable-grace. --no-fail-fast waits for the timeout instead.
A cluster Kueue holds (queued for quota, preempted, evicted) is waited for; if the timeout passes
first, wait exits ${EXIT.QUEUED} with Kueue's reason instead of ${EXIT.TIMEOUT}.

Examples:
  $ kubectl minicluster wait flux-sample --for up --timeout 5m && kubectl minicluster flux flux-sample -- resource list
  $ kubectl minicluster wait flux-batch --for complete --timeout 2h
`;

interface WaitOptions extends KubeOptions {
  readonly for: 'up' | 'complete';
  readonly timeout: string;
  readonly failFast: boolean;
  readonly stuckGrace: string;
  readonly unschedulableGrace: string;
}

/** The latest cluster autoscaler event of each unschedulable pod (events are read only for them). */
async function scaleUpEvents(kube: Kube, pods: k8s.V1Pod[]): Promise<ScaleUpEvents> {
  const out: ScaleUpEvents = new Map();
  for (const pod of pods.filter((p) => unschedulableSince(p) !== undefined).slice(0, 16)) {
    const events = (await listPodEvents(kube, pod.metadata!.name!))
      .filter((e) => e.reason === SCALE_UP_EVENTS.triggered || e.reason === SCALE_UP_EVENTS.notTriggered)
      .sort((a, b) => eventTime(a) - eventTime(b));
    const last = events.at(-1);
    if (last) out.set(pod.metadata!.name!, { reason: last.reason!, message: last.message ?? '' });
  }
  return out;
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
    .option('--no-fail-fast', 'wait for the timeout even when a pod is stuck')
    .option('--stuck-grace <duration>', 'how long ErrImagePull, CreateContainerError or CreateContainerConfigError may last', '30s')
    .option('--unschedulable-grace <duration>', 'how long a pod may be unschedulable without a cluster autoscaler scale-up, or bound to a node that stopped answering', '2m')
    .addHelpText('after', HELP)
    .action(day2Action(program, async (clusterName: string, options: WaitOptions) => {
      const timeout = parseDuration(options.timeout);
      const stuck = new StuckPods({ graceMs: parseDuration(options.stuckGrace), unschedulableGraceMs: parseDuration(options.unschedulableGrace) });
      const kube = connect(connectionOptions(options));
      const job = await findClusterJob(kube, clusterName);
      let last: ClusterStatus | undefined;
      const result = await untilDone(kube, job.metadata!.name!, async () => {
        const read = await readCluster(kube, job, true);
        last = read.status;
        if (reached(last, options.for)) return true;
        if (!options.failFast) return false;
        const problems = stuck.problems(read.pods, await scaleUpEvents(kube, read.pods), Date.now(), read.nodes, last.queue, last.state === 'Suspended');
        if (problems.length) {
          throw new Day2Error(EXIT.STUCK, `MiniCluster ${last.job} cannot be ${options.for === 'up' ? 'up' : 'complete'}: ${problems.join('; ')} (--no-fail-fast waits for the timeout instead)`);
        }
        return false;
      }, timeout);
      if (result === 'timeout') {
        const held = last?.queue && !['Admitted', 'Finished'].includes(last.queue.state) && last.state === 'Suspended';
        if (held && last) {
          throw new Day2Error(EXIT.QUEUED, `timed out after ${options.timeout} waiting for MiniCluster ${job.metadata!.name} to be ${options.for}: Kueue holds it (${last.queue!.state}): ${last.problems.join('; ')}`);
        }
        const where = last ? `${last.state}, ${last.brokers.up}/${last.brokers.expected} brokers up${last.problems.length ? `; ${last.problems.join('; ')}` : ''}` : 'never read';
        throw new Day2Error(EXIT.TIMEOUT, `timed out after ${options.timeout} waiting for MiniCluster ${job.metadata!.name} to be ${options.for} (now: ${where})`);
      }
      process.stdout.write(`MiniCluster ${job.metadata!.name} is ${options.for === 'up' ? 'up' : 'complete'}\n`);
    }));
}

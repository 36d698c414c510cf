/**
 * MiniClusters queued by a real Kueue (v0.17, its elastic-Job gate on): admitted by Kueue, two on a
 * quota for one, preempted again and again at different moments of their run (batch and
 * interactive) and back every time, a real failure still failing the Job at once, and an elastic
 * cluster resized within its quota. Each case has its own ClusterQueue (e2e/kube/kueue.ts).
 */
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { MiniCluster, MiniClusterProps } from '../../lib';
import { Day2Step, E2eCase } from '../case';
import { AUTOSCALE_PROPS } from '../../examples/autoscale';
import { autoscaleCases } from './autoscale';
import { statusShows } from './day2';
import { waitForNodes } from './flux-steps';
import { synthCluster } from './synth';
import { NO_KUEUE } from '../kube/kueue';

const QUEUE = 'team-a-queue';
const REQUESTS = { requests: { cpu: '100m', memory: '64Mi' } };
/** Preemptions at these seconds after each admission: pods being created, containers starting, brokers connecting, a job running (twice). */
const PREEMPT_AT = [1, 5, 9, 14, 20];

function queued(props: Partial<MiniClusterProps> & { command?: string; interactive?: boolean }): MiniClusterProps {
  const { command, ...rest } = props;
  return { size: 2, queueName: QUEUE, logging: { quiet: true }, containers: [{ image: 'ubuntu:noble', command, resources: REQUESTS }], ...rest } as MiniClusterProps;
}

/** Two clusters in one chart, both on the queue. */
function twoClusters(dir: string): string[] {
  const app = new App({ outdir: dir });
  const chart = new Chart(app, 'two', { namespace: 'team-a' });
  new MiniCluster(chart, 'flux-first', queued({ command: 'bash -c "sleep 8; echo first"' }));
  new MiniCluster(chart, 'flux-second', queued({ command: 'echo second' }));
  app.synth();
  return [path.join(dir, 'two.k8s.yaml')];
}

function step(what: string, args: string[], more: Partial<Day2Step> = {}): Day2Step {
  return { what, args, ...more };
}

export function kueueCases(): E2eCase[] {
  const autoscale = autoscaleCases()[0];
  return [
    {
      id: 'kueue: two clusters on a quota for one run one after the other, and status says why the second waits',
      note: 'a ClusterQueue whose pods quota (2) fits one cluster of 2: Kueue admits the first; the second waits, its status naming Kueue\'s reason, and is admitted once the first ends',
      synth: twoClusters,
      kueue: { podsQuota: 2 },
      podemu: { skip: NO_KUEUE },
      expect: { result: 'Succeeded', leadOutputExactly: 'first' },
      day2: {
        afterApply: [
          step('status of the second cluster: queued by Kueue, with Kueue\'s reason', ['status', 'flux-second'],
            { stdout: [/: Suspended$/m, /^Kueue: Queued \(Pending\), LocalQueue team-a-queue/m, /queued by Kueue in LocalQueue 'team-a-queue', not admitted yet: .*insufficient unused quota for pods/], retry: true, timeoutSeconds: 60 }),
          step('wait for the first to complete', ['wait', 'flux-first', '--for', 'complete', '--timeout', '5m'], { timeoutSeconds: 320 }),
          step('wait for the second to complete once Kueue admitted it', ['wait', 'flux-second', '--for', 'complete', '--timeout', '5m'], { timeoutSeconds: 320 }),
        ],
      },
    },
    {
      id: 'kueue: a batch cluster preempted 5 times comes back each time and succeeds',
      note: `\`sleep 20; echo done\` on 2 brokers; a higher-priority Job takes the whole quota ${PREEMPT_AT.join(', ')} s after each admission (pods being created, starting, connecting, the job running): `
        + 'Kueue suspends the Job, its pods exit 75, which the Job ignores; readmitted, a new instance runs the program from the start',
      synth: synthCluster('preempt-batch', 'team-a', 'flux-preempted', queued({ command: 'bash -c "sleep 20; echo done"' })),
      kueue: { podsQuota: 2, preemptAfterAdmission: PREEMPT_AT },
      podemu: { timeout: 900, skip: NO_KUEUE },
      expect: { result: 'Succeeded', leadOutputExactly: 'done' },
    },
    {
      id: 'kueue: an interactive cluster preempted 5 times comes back each time',
      note: `an interactive cluster of 2 brokers preempted ${PREEMPT_AT.join(', ')} s after each admission; after the last readmission every broker is up and a job runs on both`,
      synth: synthCluster('preempt-interactive', 'team-a', 'flux-preempted-i', queued({ interactive: true })),
      kueue: { podsQuota: 2, preemptAfterAdmission: PREEMPT_AT },
      podemu: { timeout: 900, skip: NO_KUEUE },
      expect: { result: 'Interrupted', exec: [waitForNodes(2, 'flux-preempted-i')] },
    },
    {
      id: 'kueue: a queued program that fails on its own still fails its Job at once',
      note: 'a queued batch cluster whose program exits 3: the Job fails by its FailJob rule with exit code 3, as without Kueue',
      synth: synthCluster('queued-fails', 'team-a', 'flux-fails', queued({ command: 'bash -c "exit 3"' })),
      kueue: { podsQuota: 2 },
      podemu: { skip: NO_KUEUE },
      expect: { result: 'Failed', reason: /exit code 3 matching FailJob/, leadExit: 3 },
    },
    {
      id: 'kueue: an elastic queued cluster grows within its quota, waits beyond it, and shrinks',
      note: 'interactive, size 2, maxSize 4, pods quota 3 (Kueue\'s elastic Jobs, kueue.x-k8s.io/elastic-job): scale to 3 is admitted as a new Workload slice; scale to 4 waits, the 3 brokers running and status saying why; scale back to 2 gives the quota back',
      synth: synthCluster('queued-elastic', 'team-a', 'flux-qelastic', queued({ size: 2, maxSize: 4, interactive: true })),
      kueue: { podsQuota: 3 },
      podemu: { skip: NO_KUEUE },
      expect: { result: 'Interrupted' },
      day2: {
        largestSize: 4,
        afterApply: [
          step('wait up', ['wait', 'flux-qelastic', '--for', 'up', '--timeout', '4m'], { timeoutSeconds: 260 }),
          step('scale to 3, within the quota', ['scale', 'flux-qelastic', '--size', '3', '--timeout', '4m'], { timeoutSeconds: 260 }),
          step('status: 3 brokers up', ['status', 'flux-qelastic', '-o', 'json'], { json: statusShows(3, { min: 2, max: 4 }), retry: true, timeoutSeconds: 60 }),
          step('scale to 4, beyond the quota', ['scale', 'flux-qelastic', '--size', '4', '--no-wait']),
          step('status: the resize waits for Kueue, the brokers run', ['status', 'flux-qelastic'],
            { stdout: [/Kueue has not admitted the resize yet in LocalQueue 'team-a-queue'.*insufficient unused quota for pods/, /^Brokers up: 3\/4/m], retry: true, timeoutSeconds: 90 }),
          step('scale back to 2', ['scale', 'flux-qelastic', '--size', '2', '--timeout', '4m'], { timeoutSeconds: 260 }),
          step('status: 2 brokers up, no problem', ['status', 'flux-qelastic', '-o', 'json'], { json: statusShows(2, { min: 2, max: 4 }), retry: true, timeoutSeconds: 90 }),
        ],
      },
    },
    {
      ...autoscale,
      id: 'kueue: the autoscaler grows a queued cluster within its quota and shrinks it back',
      note: `the autoscale example with queueName (an elastic Kueue Job), pods quota 4: ${autoscale.note}`,
      synth: synthCluster('autoscale-queued', 'team-a', 'flux-autoscale', { ...AUTOSCALE_PROPS, queueName: QUEUE }),
      kueue: { podsQuota: 4 },
      podemu: { skip: NO_KUEUE },
    },
  ];
}

/**
 * Node faults (a real cluster of several nodes): the node of a pod drained as `kubectl drain` does,
 * or lost as in a power loss, and what the platform then does (a cloud deletes the Node, an admin
 * taints it out-of-service, the node comes back, or nobody acts), each with what
 * docs/reliability.md promises and the check that no rank ever has two live brokers.
 */
import { MiniClusterProps } from '../../lib';
import { E2eCase, ExecStep, FaultPlan, NodeFault } from '../case';
import { inLeadInstance, waitForNodes } from './flux-steps';
import { synthCluster } from './synth';

/** Faults come this many seconds after the first pod was created: every broker is up by then on a cluster whose images are loaded. */
const AFTER_BRING_UP = 30;
const SIZE = 4;
/** A lost node's pods are freed only after the platform's action (up to 100 s after the loss) and the Job's replacement. */
const LOST_EXTRA_SECONDS = 300;

function cluster(name: string, props: Partial<MiniClusterProps>): (dir: string) => string[] {
  return synthCluster(name, 'default', name, { size: SIZE, containers: [{ image: 'rockylinux:9' }], ...props });
}

/**
 * Flux's own view once recovery is over: every rank once in the overlay, each `full` (none lost,
 * offline or partial). flux-core 0.88 prints `RANK HOST: STATE` per rank with --no-pretty; the
 * step first waits until the root subtree is full.
 */
export function overlayFull(name: string, size = SIZE): ExecStep {
  const ranks = Array.from({ length: size }, (_, i) => `${i} ${name}-${i}: full`).join('\\n');
  return {
    what: `flux overlay status: ranks 0..${size - 1} once each, all full`,
    script: inLeadInstance('until [ "$(flux overlay status --summary -L never)" = full ]; do sleep 1; done; flux overlay status --no-pretty -L never'),
    output: [new RegExp(`^${ranks}\\n?$`)],
    timeoutSeconds: 120,
  };
}

/** Every broker back, a job across all of them, and Flux's overlay whole, in the lead's (possibly new) instance. */
function allBack(name: string): ExecStep[] {
  return [
    waitForNodes(SIZE, name),
    { what: 'flux resource list', script: inLeadInstance('flux resource list'), output: [new RegExp(`^\\s+free\\s+${SIZE}\\s+\\d+\\s+0 ${name}-\\[0-${SIZE - 1}\\]$`, 'm')] },
    overlayFull(name),
  ];
}

function plan(nodes: NodeFault[], outcome: FaultPlan['outcome'], boundSeconds: number, runs = 1): FaultPlan {
  return { nodes, outcome, boundSeconds, runs };
}

/** The lost-node cases run three times: their timing depends on the node controller's grace periods. */
const LOST_RUNS = 3;

export function nodeFaultCases(): E2eCase[] {
  const interactive = { interactive: true };
  const batch = (seconds: number) => ({ containers: [{ image: 'rockylinux:9', command: `sleep ${seconds}` }], tasks: SIZE });
  return [
    {
      id: 'node fault interactive, a worker\'s node drained',
      note: 'the node of index 2 cordoned and every pod of the namespace on it evicted (kubectl drain): the replacement runs on another node and rejoins rank 0',
      synth: cluster('nf-dw', interactive),
      faults: plan([{ index: 2, atSeconds: AFTER_BRING_UP, kind: 'drain' }], 'recovers', 60),
      expect: { result: 'Interrupted', exec: allBack('nf-dw') },
      kube: { extraSeconds: 120 },
    },
    {
      id: 'node fault interactive, the lead\'s node drained',
      note: 'the node of index 0 drained: a new lead on another node starts a new instance and every worker reconnects to it',
      synth: cluster('nf-dl', interactive),
      faults: plan([{ index: 0, atSeconds: AFTER_BRING_UP, kind: 'drain' }], 'recovers', 90),
      expect: { result: 'Interrupted', exec: allBack('nf-dl') },
      kube: { extraSeconds: 120 },
    },
    {
      id: 'node fault batch job, a worker\'s node drained',
      note: '`sleep 60` as one job of 4 tasks on 4 nodes, the node of index 2 drained while it runs: Flux fails the job whose rank went away, and the lead\'s exit fails the Job (as an eviction of that worker does)',
      synth: cluster('nf-bw', batch(60)),
      faults: plan([{ index: 2, atSeconds: AFTER_BRING_UP, kind: 'drain' }], 'ends', 60),
      expect: { result: 'Failed' },
      kube: { extraSeconds: 120 },
    },
    {
      id: 'node fault interactive, a worker\'s node lost, then deleted',
      note: 'the node of index 2 lost (power loss) and its Node deleted 60 s later, as a cloud\'s node controller does: the pod garbage collector removes the pod and the Job replaces it on another node',
      synth: cluster('nf-ld', interactive),
      faults: plan([{ index: 2, atSeconds: AFTER_BRING_UP, kind: 'lose', then: 'delete', thenAfterSeconds: 60 }], 'recovers', 90, LOST_RUNS),
      expect: { result: 'Interrupted', exec: allBack('nf-ld') },
      kube: { extraSeconds: LOST_EXTRA_SECONDS },
    },
    {
      id: 'node fault interactive, a worker\'s node lost, then out-of-service',
      note: 'the node of index 2 lost and tainted out-of-service 60 s later, as an admin does on bare metal: Kubernetes deletes its pod and the Job replaces it on another node',
      synth: cluster('nf-lo', interactive),
      faults: plan([{ index: 2, atSeconds: AFTER_BRING_UP, kind: 'lose', then: 'out-of-service', thenAfterSeconds: 60 }], 'recovers', 90, LOST_RUNS),
      expect: { result: 'Interrupted', exec: allBack('nf-lo') },
      kube: { extraSeconds: LOST_EXTRA_SECONDS },
    },
    {
      id: 'node fault interactive, a worker\'s node lost, then returns after its pod was replaced',
      note: 'the node of index 2 lost, tainted out-of-service 40 s later and back 100 s after the loss, once its pod was replaced elsewhere: every broker up, the old pod gone from the API, no rank with two brokers',
      synth: cluster('nf-lr', interactive),
      faults: plan([{ index: 2, atSeconds: AFTER_BRING_UP, kind: 'lose', then: 'out-of-service', thenAfterSeconds: 40, later: [{ action: 'return', afterSeconds: 100 }] }], 'recovers', 90, LOST_RUNS),
      expect: { result: 'Interrupted', exec: allBack('nf-lr') },
      kube: { extraSeconds: LOST_EXTRA_SECONDS },
    },
    {
      id: 'node fault interactive, a worker\'s node lost and nobody acts',
      note: 'the node of index 2 lost and left so: kubectl minicluster status names the rank whose node stopped answering and the commands that free it, and wait fails fast (exit 11) naming the node',
      synth: cluster('nf-ln', interactive),
      faults: plan([{ index: 2, atSeconds: AFTER_BRING_UP, kind: 'lose' }], 'acted', 0, LOST_RUNS),
      podemu: { skip: 'podemu has no API server for the day-2 commands, nor nodes to lose' },
      day2: {
        afterApply: [
          { what: 'status names the rank whose node stopped answering', args: ['status', 'nf-ln'], stdout: [/rank \d+: node \S+ stopped answering .*out-of-service.*kubectl delete node/], retry: true, timeoutSeconds: 150 },
          { what: 'wait --for complete exits 11, naming the node', args: ['wait', 'nf-ln', '--for', 'complete', '--timeout', '10m', '--unschedulable-grace', '30s'], exit: 11, stderr: [/node \S+/] },
        ],
      },
      expect: { result: 'Interrupted' },
      kube: { extraSeconds: LOST_EXTRA_SECONDS },
    },
    {
      id: 'node fault batch job, a worker\'s node lost and nobody acts',
      note: '`sleep 120` as one job of 4 tasks on 4 nodes, the node of index 2 lost while it runs: Flux fails the job whose rank was lost, and the lead\'s exit fails the Job; the lost pod stays Terminating until the node is back',
      synth: cluster('nf-bl', batch(120)),
      faults: plan([{ index: 2, atSeconds: AFTER_BRING_UP, kind: 'lose' }], 'ends', 120, LOST_RUNS),
      expect: { result: 'Failed' },
      kube: { extraSeconds: LOST_EXTRA_SECONDS },
    },
    {
      id: 'node fault interactive, the lead\'s node lost, then deleted',
      note: 'the node of index 0 lost and its Node deleted 60 s later: a new lead on another node starts a new instance and every worker reconnects to it',
      synth: cluster('nf-ll', interactive),
      faults: plan([{ index: 0, atSeconds: AFTER_BRING_UP, kind: 'lose', then: 'delete', thenAfterSeconds: 60 }], 'recovers', 90, LOST_RUNS),
      expect: { result: 'Interrupted', exec: allBack('nf-ll') },
      kube: { extraSeconds: LOST_EXTRA_SECONDS },
    },
  ];
}

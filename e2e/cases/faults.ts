/**
 * Fault cases: a MiniCluster on real brokers while the cluster does to it what clusters do (a node
 * drained, a pod preempted, a container OOM-killed), each with what docs/reliability.md promises.
 */
import { FluxViewSource, MiniClusterProps } from '../../lib';
import { IMAGE_VOLUMES_MINOR } from '../../lib/core/kubernetes-version';
import { E2eCase, KubeVariant } from '../case';
import { indexedJob } from '../manifests';
import { inLeadInstance, waitForNodes } from './flux-steps';
import { synthCluster } from './synth';

/** The view as an image volume of a view image for the runner's OS: the handshake runs in the runner. */
const IMAGE_VOLUME: Partial<MiniClusterProps> = {
  kubernetesVersion: '1.35',
  flux: { container: { source: FluxViewSource.IMAGE_VOLUME, image: 'ghcr.io/converged-computing/flux-view-rocky:tag-9' } },
};

/**
 * Where the image volume cases mean something: an older API server drops the image volume, and the
 * view check's fail-fast that follows is the image-volume examples' to show (e2e/cases/image-volume.ts).
 */
const IMAGE_VOLUME_CLUSTERS: KubeVariant = {
  fromMinor: { minor: IMAGE_VOLUMES_MINOR, why: 'the handshake runs in the runner only with the view as an image volume, which an older API server drops; the image-volume examples show the fail-fast there' },
};

/** Faults come at this many seconds after the first pod started: every broker is up by then. */
const AFTER_BRING_UP = 15;
const SIZE = 4;

function cluster(name: string, props: Partial<MiniClusterProps>): (dir: string) => string[] {
  return synthCluster(name, 'default', name, { size: SIZE, containers: [{ image: 'rockylinux:9' }], ...props });
}

/**
 * The Job's reason when a FailJob rule matched a pod of `podPrefix` (`<name>-<index>-`), as podemu
 * words it (`... (FailJob) ... pod <name>-0-xxxxx`) and as the Job controller does (`Container C for
 * pod NS/<name>-0-xxxxx failed with exit code N matching FailJob rule at index I`).
 */
function failJobOn(podPrefix: string): RegExp {
  return new RegExp(`FailJob.* ${podPrefix}|/${podPrefix}\\S+ failed with exit code \\d+ matching FailJob`);
}

/** Every node up again, and a job across all of them, in the lead's (possibly new) instance. */
function allNodesBack(name: string) {
  return [
    waitForNodes(SIZE, name),
    { what: 'flux resource list', script: inLeadInstance('flux resource list'), output: [new RegExp(`^\\s+free\\s+${SIZE}\\s+\\d+\\s+0 ${name}-\\[0-${SIZE - 1}\\]$`, 'm')] },
  ];
}

export function faultCases(): E2eCase[] {
  return [
    {
      id: 'fault interactive, a worker evicted',
      note: 'index 2 evicted once all brokers are up: its replacement (new IP) rejoins rank 0',
      synth: cluster('fault-iw', { interactive: true }),
      faults: { evict: [`2@${AFTER_BRING_UP}`], outcome: 'recovers', boundSeconds: 30, runs: 3 },
      expect: { result: 'Interrupted', exec: allNodesBack('fault-iw') },
    },
    {
      id: 'fault interactive, the lead evicted',
      note: 'index 0 evicted once all brokers are up: a new lead (new IP) starts a new instance and every worker reconnects to it',
      synth: cluster('fault-il', { interactive: true }),
      faults: { evict: [`0@${AFTER_BRING_UP}`], outcome: 'recovers', boundSeconds: 60, runs: 3 },
      expect: { result: 'Interrupted', exec: allNodesBack('fault-il') },
    },
    {
      id: 'fault interactive, a worker evicted, the handshake in the runner',
      note: 'the view as an image volume, so the Flux runner runs the handshake itself (no sidecar): index 2 evicted once all brokers are up; its replacement\'s runner handshakes again and rejoins rank 0',
      synth: cluster('fault-iwr', { interactive: true, ...IMAGE_VOLUME }),
      faults: { evict: [`2@${AFTER_BRING_UP}`], outcome: 'recovers', boundSeconds: 30, runs: 3 },
      expect: { result: 'Interrupted', exec: allNodesBack('fault-iwr') },
      kube: IMAGE_VOLUME_CLUSTERS,
    },
    {
      id: 'fault interactive, the lead evicted, the handshake in the runner',
      note: 'as above, index 0 evicted: the new lead\'s runner starts a new directory and instance, and every worker\'s handshake reconnects to it',
      synth: cluster('fault-ilr', { interactive: true, ...IMAGE_VOLUME }),
      faults: { evict: [`0@${AFTER_BRING_UP}`], outcome: 'recovers', boundSeconds: 60, runs: 3 },
      expect: { result: 'Interrupted', exec: allNodesBack('fault-ilr') },
      kube: IMAGE_VOLUME_CLUSTERS,
    },
    {
      id: 'fault interactive, the lead evicted, Kubernetes 1.30',
      note: 'no successPolicy before 1.31, so a worker\'s clean exit completes its index: the workers end with the old instance, and the new lead\'s handshake fails at its deadline (30 s here, 300 s by default), naming the ranks that never came',
      synth: cluster('fault-ol', { interactive: true, kubernetesVersion: '1.30', handshake: { deadlineSeconds: 30 } }),
      faults: { evict: [`0@${AFTER_BRING_UP}`], outcome: 'ends', boundSeconds: 45, runs: 3 },
      expect: { result: 'Failed', reason: failJobOn('fault-ol-0-'), exits: [{ index: 0, container: 'flux-handshake', code: 81 }] },
    },
    {
      id: 'fault batch job, a worker evicted',
      note: '`sleep 60` as one job of 4 tasks on 4 nodes, index 2 evicted while it runs: rank 0 logs the rank as dead at once, Flux fails the job about 25 s later (exit 143), and the lead\'s exit fails the Job',
      synth: cluster('fault-bw', { containers: [{ image: 'rockylinux:9', command: 'sleep 60' }], tasks: SIZE }),
      faults: { evict: [`2@${AFTER_BRING_UP}`], outcome: 'ends', boundSeconds: 45, runs: 3 },
      expect: { result: 'Failed', reason: failJobOn('fault-bw-0-'), leadOutput: [/dead to Flux: fault-bw-2 \(rank 2\)/] },
    },
    {
      id: 'fault batch job, the lead evicted',
      note: 'the program (`started`, 20 s, `finished`) runs again from the start on the new lead, and the Job succeeds',
      synth: cluster('fault-bl', { containers: [{ image: 'rockylinux:9', command: "sh -c 'echo started; sleep 20; echo finished'" }] }),
      faults: { evict: [`0@${AFTER_BRING_UP}`], outcome: 'ends', boundSeconds: 90, runs: 3 },
      expect: { result: 'Succeeded', leadOutput: [/^started\nfinished$/m] },
    },
    {
      id: 'fault batch job, a worker\'s Flux container crashes',
      note: 'index 2\'s Flux container SIGKILLed (exit 137, as an OOM kill) while `sleep 60` runs on 4 nodes: the Job fails at once by the FailJob rule on that pod (exit 137); the lead\'s log names the rank that went away',
      synth: cluster('fault-bc', { containers: [{ image: 'rockylinux:9', command: 'sleep 60' }], tasks: SIZE }),
      faults: { crash: [`2@${AFTER_BRING_UP}`], outcome: 'ends', boundSeconds: 30 },
      expect: {
        result: 'Failed',
        reason: failJobOn('fault-bc-2-'),
        exits: [{ index: 2, container: 'fault-bc', code: 137 }],
        leadOutput: [/fault-bc-2 \(rank 2\)/],
      },
      // On a cluster the crash is a SIGKILL of the broker through exec: a container's PID 1 (the
      // entrypoint) cannot be SIGKILLed from inside. As after an OOM kill of the broker alone
      // (cgroup v1, or v2 without the kubelet's group kill), the worker's entrypoint starts its
      // broker again, the job that had tasks there fails, and the lead's exit fails the Job.
      kube: {
        expect: {
          reason: failJobOn('fault-bc-0-'),
          exits: [],
          leadOutput: [/fault-bc-2 \(rank 2\)/],
        },
      },
    },
    {
      id: 'fault the handshake sidecar crashes',
      note: 'index 1\'s handshake sidecar SIGKILLed while `sleep 25` runs on 4 nodes: the kubelet restarts it, the job and the brokers go on',
      synth: cluster('fault-hs', { containers: [{ image: 'rockylinux:9', command: "sh -c 'sleep 25; echo done'" }] }),
      faults: { crash: [`1@${AFTER_BRING_UP}:flux-handshake`], outcome: 'ends', boundSeconds: 40 },
      expect: { result: 'Succeeded', leadOutput: [/^done$/m], restarted: [{ index: 1, container: 'flux-handshake' }] },
    },
    {
      id: 'fault elastic, a worker evicted while the cluster grows',
      note: 'the elastic cluster grown from 2 to 4 pods (pods 4 s apart) and index 1 evicted at +6 s, before the new pods are up: every node up at the end',
      synth: cluster('fault-el', { size: 2, maxSize: SIZE, interactive: true }),
      patch: {
        why: 'grown from 2 to 4 pods (kubectl patch job: parallelism and completions 4)',
        apply: (docs) => {
          const job = indexedJob(docs);
          job.spec.parallelism = SIZE;
          job.spec.completions = SIZE;
        },
      },
      podemu: { stagger: 4, timeout: 240 },
      faults: { evict: ['1@6'], outcome: 'recovers', boundSeconds: 60, afterBringUp: false, runs: 3 },
      expect: { result: 'Interrupted', execAfterBrokers: 1, exec: allNodesBack('fault-el') },
    },
  ];
}

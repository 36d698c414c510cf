/**
 * Fields of the Job and its pods by the Kubernetes minor whose API server takes them with default
 * feature gates (beta or GA, on by default). An older server drops an unknown or disabled field, or
 * refuses the object; either way the output does not run as synthesized. Where the output uses a
 * feature of kubernetesFeatures, its minor is taken from there; the others are fields a user's
 * patch may add.
 */
import { HANDSHAKE_OPT_MODE, HandshakeMode } from '../../../core/handshake-contract';
import { featureSince } from '../../../core/kubernetes-version';
import type { Obj } from '../manifest';

export interface JobFeature {
  readonly name: string;
  readonly since: number;
  readonly gate: string;
  /** What happens on an older server. */
  readonly effect: string;
  /** What to change, where re-synthesizing for the server's minor is not the whole answer. */
  readonly fix?: string;
  /** The paths in the Job where the output uses it (empty: not used). */
  readonly uses: (job: Obj) => string[];
}

const podSpec = (job: Obj): Obj => job.spec?.template?.spec ?? {};
/** The pod's containers and init containers, with their paths. */
const containers = (job: Obj): Array<{ c: Obj; path: string }> => ['initContainers', 'containers']
  .flatMap((k) => (podSpec(job)[k] ?? []).map((c: Obj, i: number) => ({ c, path: `spec.template.spec.${k}[${i}]` })));
const RENDEZVOUS_FLAG = `${HANDSHAKE_OPT_MODE.flag}=${HandshakeMode.RENDEZVOUS}`;
const field = (name: string) => (job: Obj): string[] => (job.spec?.[name] !== undefined ? [`spec.${name}`] : []);

export const JOB_FEATURES: readonly JobFeature[] = [
  {
    name: 'image volumes', since: featureSince('imageVolumes'), gate: 'ImageVolume: beta 1.33 off by default, on by default 1.35',
    effect: 'the API server accepts the Job and silently drops the image volumes and their mounts: every pod then fails at once naming what is missing (the flux view check, exit 78; the handshake run by the runner, exit 64)',
    fix: 'synthesize with flux.container.source FluxViewSource.COPY_TO_DISK or COPY_TO_MEMORY and handshake.inRunner unset or false (or kubernetesVersion below 1.35), or run it on Kubernetes 1.35 or newer',
    uses: (job) => (podSpec(job).volumes ?? []).flatMap((v: Obj, i: number) => (v.image ? [`spec.template.spec.volumes[${i}].image (${v.name})`] : [])),
  },
  {
    name: 'native sidecars', since: featureSince('nativeSidecars'), gate: 'SidecarContainers: beta, on by default 1.29',
    effect: 'the sidecar becomes a plain init container that never ends: no pod gets past Init',
    uses: (job) => (podSpec(job).initContainers ?? []).flatMap((c: Obj, i: number) => (c.restartPolicy === 'Always' ? [`spec.template.spec.initContainers[${i}].restartPolicy (${c.name})`] : [])),
  },
  { name: 'backoffLimitPerIndex', since: 29, gate: 'JobBackoffLimitPerIndex: beta, on by default 1.29', effect: 'the server drops it: one failed pod no longer fails its index as synthesized', uses: field('backoffLimitPerIndex') },
  { name: 'maxFailedIndexes', since: 29, gate: 'JobBackoffLimitPerIndex: beta, on by default 1.29', effect: 'the server refuses it without backoffLimitPerIndex', uses: field('maxFailedIndexes') },
  {
    name: 'podFailurePolicy action FailIndex', since: 29, gate: 'JobBackoffLimitPerIndex: beta, on by default 1.29', effect: 'the server refuses the rule',
    uses: (job) => (job.spec?.podFailurePolicy?.rules ?? []).flatMap((r: Obj, i: number) => (r.action === 'FailIndex' ? [`spec.podFailurePolicy.rules[${i}].action`] : [])),
  },
  { name: 'podReplacementPolicy', since: featureSince('podReplacementPolicy'), gate: 'JobPodReplacementPolicy: beta, on by default 1.29', effect: 'the server drops it: a replacement pod may start while its predecessor, of the same hostname, still terminates', uses: field('podReplacementPolicy') },
  { name: 'successPolicy', since: featureSince('successPolicy'), gate: 'JobSuccessPolicy: beta, on by default 1.31', effect: "the server drops it: the lead's exit no longer completes the Job, and the workers run on until the deadline", uses: field('successPolicy') },
  {
    // Not a field: the Job controller labels each pod with its index, and the rendezvous Service selects index 0 by it.
    name: 'the job-completion-index pod label', since: featureSince('completionIndexLabel'), gate: 'PodIndexLabel: beta, on by default 1.28',
    effect: "the Job controller does not label the pods with their index: the handshake's rendezvous Service selects no pod, and the handshake fails the Job at its deadline (exit 81)",
    fix: 'synthesize with handshake.mode HandshakeMode.DNS (the default below 1.28), or run it on Kubernetes 1.28 or newer',
    uses: (job) => containers(job).flatMap(({ c, path }) => ['command', 'args']
      .filter((k) => (c[k] ?? []).includes(RENDEZVOUS_FLAG)).map((k) => `${path}.${k} ${RENDEZVOUS_FLAG} (${c.name})`)),
  },
  { name: 'managedBy', since: 32, gate: 'JobManagedBy: beta, on by default 1.32', effect: 'the server drops it: the built-in Job controller runs the Job as well', uses: field('managedBy') },
];

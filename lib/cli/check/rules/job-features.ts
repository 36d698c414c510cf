/**
 * Fields of the Job and its pods by the Kubernetes minor whose API server takes them with default
 * feature gates (beta or GA, on by default). An older server drops an unknown or disabled field, or
 * refuses the object; either way the output does not run as synthesized.
 */
import type { Obj } from '../manifest';

export interface JobFeature {
  readonly name: string;
  readonly since: number;
  readonly gate: string;
  /** What happens on an older server. */
  readonly effect: string;
  /** The paths in the Job where the output uses it (empty: not used). */
  readonly uses: (job: Obj) => string[];
}

const podSpec = (job: Obj): Obj => job.spec?.template?.spec ?? {};
const field = (name: string) => (job: Obj): string[] => (job.spec?.[name] !== undefined ? [`spec.${name}`] : []);

export const JOB_FEATURES: readonly JobFeature[] = [
  {
    name: 'image volumes', since: 35, gate: 'ImageVolume: beta 1.33 off by default, on by default 1.35',
    effect: 'the API server accepts the Job and silently drops the image volumes and their mounts: the flux view check then fails every pod (exit 78) naming the dropped volume',
    uses: (job) => (podSpec(job).volumes ?? []).flatMap((v: Obj, i: number) => (v.image ? [`spec.template.spec.volumes[${i}].image (${v.name})`] : [])),
  },
  {
    name: 'native sidecars', since: 29, gate: 'SidecarContainers: beta, on by default 1.29',
    effect: 'the sidecar becomes a plain init container that never ends: no pod gets past Init',
    uses: (job) => (podSpec(job).initContainers ?? []).flatMap((c: Obj, i: number) => (c.restartPolicy === 'Always' ? [`spec.template.spec.initContainers[${i}].restartPolicy (${c.name})`] : [])),
  },
  { name: 'backoffLimitPerIndex', since: 29, gate: 'JobBackoffLimitPerIndex: beta, on by default 1.29', effect: 'the server drops it: one failed pod no longer fails its index as synthesized', uses: field('backoffLimitPerIndex') },
  { name: 'maxFailedIndexes', since: 29, gate: 'JobBackoffLimitPerIndex: beta, on by default 1.29', effect: 'the server refuses it without backoffLimitPerIndex', uses: field('maxFailedIndexes') },
  {
    name: 'podFailurePolicy action FailIndex', since: 29, gate: 'JobBackoffLimitPerIndex: beta, on by default 1.29', effect: 'the server refuses the rule',
    uses: (job) => (job.spec?.podFailurePolicy?.rules ?? []).flatMap((r: Obj, i: number) => (r.action === 'FailIndex' ? [`spec.podFailurePolicy.rules[${i}].action`] : [])),
  },
  { name: 'podReplacementPolicy', since: 29, gate: 'JobPodReplacementPolicy: beta, on by default 1.29', effect: 'the server drops it: a replacement pod may start while its predecessor, of the same hostname, still terminates', uses: field('podReplacementPolicy') },
  { name: 'successPolicy', since: 31, gate: 'JobSuccessPolicy: beta, on by default 1.31', effect: "the server drops it: the lead's exit no longer completes the Job, and the workers run on until the deadline", uses: field('successPolicy') },
  { name: 'managedBy', since: 32, gate: 'JobManagedBy: beta, on by default 1.32', effect: 'the server drops it: the built-in Job controller runs the Job as well', uses: field('managedBy') },
];

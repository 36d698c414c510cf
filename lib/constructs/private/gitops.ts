/**
 * GitOps support: run-suffixed Job names, Argo CD / Flux CD annotations and Kueue fields.
 *
 * What a run suffix renames, and why: the Job's pod template is immutable, so a changed spec needs a
 * new Job. The pods' hostnames are `<job>-<index>` and Flux finds its rank by hostname in the
 * hosts list, so the entrypoint ConfigMap (broker.toml, scripts) changes with the Job name and is
 * renamed with it: each run keeps its own config, and pruning the old Job prunes its ConfigMap.
 * What stays: the certificate Secret (a new name would be a new certificate, and running brokers
 * would lose theirs), the certificate Job and its RBAC (they only create that Secret once), and the
 * headless Service (the pods' subdomain: runs never collide in DNS because their hostnames differ,
 * and the Service selects the newest run's pods).
 */
import { KUEUE_QUEUE_LABEL } from '../../core/kueue-contract';
import { createHash } from 'crypto';
import { ApiObject } from 'cdk8s';
import type { JobSpec } from 'kubernetes-types-1.30/batch/v1';
import { DNS1035_LABEL, DNS1123_LABEL, labelValueError } from '../../core/k8s-formats';
import { MiniClusterProps } from '../mini-cluster-props';
import { GitOpsOptions } from '../props/gitops';
import type { Violation } from './validate-mini-cluster-props';
import { isRuntimeProgramConfigMap } from './runtime-programs';

/** Hex digits of the content hash in a Job name. */
export const JOB_HASH_LENGTH = 8;
/** Kueue's label that names the LocalQueue of a Job. */

export const ARGOCD_SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
export const ARGOCD_HOOK = 'argocd.argoproj.io/hook';
export const ARGOCD_HOOK_DELETE_POLICY = 'argocd.argoproj.io/hook-delete-policy';
export const ARGOCD_SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
export const FLUXCD_FORCE = 'kustomize.toolkit.fluxcd.io/force';
export const FLUXCD_SSA = 'kustomize.toolkit.fluxcd.io/ssa';

/** Job fields Kubernetes lets you change in place: a change to them alone keeps the Job's name. */
const MUTABLE_JOB_FIELDS = ['suspend', 'parallelism', 'completions', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished'];

/** Length of the `-<suffix>` a run adds to the Job name (0 without one). */
export function runSuffixLength(g: GitOpsOptions | undefined): number {
  if (g?.runId !== undefined) return g.runId.length + 1;
  return g?.hashJobName ? JOB_HASH_LENGTH + 1 : 0;
}

/** Every GitOps and Kueue prop problem. */
export function gitOpsViolations(props: MiniClusterProps, name: string): Violation[] {
  const out: Violation[] = [];
  const g = props.gitOps ?? {};
  if (g.runId !== undefined && (typeof g.runId !== 'string' || !DNS1123_LABEL.test(g.runId))) {
    out.push({ path: 'gitOps.runId', value: g.runId, rule: "must be lower-case letters, digits and '-', starting and ending with a letter or digit" });
  }
  if (g.runId !== undefined && g.hashJobName) {
    out.push({ path: 'gitOps.runId', value: g.runId, rule: 'hashJobName and runId are mutually exclusive (both name the Job)' });
  }
  const extra = runSuffixLength(g);
  const maxSize = props.maxSize ?? props.size ?? 1;
  const lastIndex = Number.isInteger(maxSize) && maxSize >= 1 ? maxSize - 1 : 0;
  const plainHostname = `${name}-${lastIndex}`;
  // Only when the name alone fits: otherwise `name` is already reported.
  if (extra > 0 && DNS1035_LABEL.test(name) && plainHostname.length <= 63 && plainHostname.length + extra > 63) {
    const suffix = g.runId !== undefined ? g.runId : 'x'.repeat(JOB_HASH_LENGTH);
    out.push({
      path: g.runId !== undefined ? 'gitOps.runId' : 'gitOps.hashJobName',
      value: g.runId ?? true,
      rule: `pod hostname '${name}-${suffix}-${lastIndex}' would have ${plainHostname.length + extra} characters, over 63; shorten the name to at most ${name.length - (plainHostname.length + extra - 63)} characters or lower maxSize`,
    });
  }
  if (props.queueName !== undefined) {
    const e = typeof props.queueName === 'string' && props.queueName !== '' ? labelValueError(props.queueName) : 'must be a LocalQueue name';
    if (e) out.push({ path: 'queueName', value: props.queueName, rule: e });
    const labelled = props.jobLabels?.[KUEUE_QUEUE_LABEL];
    if (labelled !== undefined && labelled !== props.queueName) {
      out.push({ path: `jobLabels.${KUEUE_QUEUE_LABEL}`, value: labelled, rule: `conflicts with queueName '${props.queueName}'` });
    }
  }
  if (props.suspend !== undefined && typeof props.suspend !== 'boolean') out.push({ path: 'suspend', value: props.suspend, rule: 'must be true or false' });
  return out;
}

/**
 * The Job name of this run: `name`, `<name>-<runId>`, or `<name>-<hash>` where the hash covers the
 * documents `fingerprint` returns (the cluster synthesized under its plain name).
 */
export function runJobName(name: string, g: GitOpsOptions | undefined, fingerprint: () => any[]): string {
  if (g?.runId !== undefined) return `${name}-${g.runId}`;
  if (g?.hashJobName) return `${name}-${contentHash(fingerprint())}`;
  return name;
}

/**
 * A short hash of a run's Jobs and ConfigMaps, without what can change in place (labels and
 * annotations of the objects, the Job's mutable fields) and without the certificate's objects,
 * which outlive runs. The shared runtime programs are left out too: the Job names the one it mounts,
 * whose name holds the program's own hash.
 */
export function contentHash(docs: any[]): string {
  const run = docs
    .filter((d) => (d.kind === 'Job' || d.kind === 'ConfigMap') && d.metadata?.labels?.['app.kubernetes.io/component'] !== 'curve-cert')
    .filter((d) => !isRuntimeProgramConfigMap(d))
    .map((d) => {
      const { labels: _labels, annotations: _annotations, ...metadata } = d.metadata ?? {};
      const out = { ...d, metadata };
      if (d.kind === 'Job') out.spec = Object.fromEntries(Object.entries(d.spec ?? {}).filter(([k]) => !MUTABLE_JOB_FIELDS.includes(k)));
      return out;
    });
  return createHash('sha256').update(canonicalJson(run)).digest('hex').slice(0, JOB_HASH_LENGTH);
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).filter((k) => (v as any)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The Job spec with Kueue's suspend (true by default once a queue is named). */
export function withSuspend(spec: JobSpec, props: MiniClusterProps): JobSpec {
  const suspend = props.suspend ?? (props.queueName !== undefined);
  return suspend ? { ...spec, suspend: true } : spec;
}

/** The Job's extra labels: the user's and Kueue's queue. */
export function jobLabels(props: MiniClusterProps): Record<string, string> {
  return { ...props.jobLabels, ...(props.queueName !== undefined ? { [KUEUE_QUEUE_LABEL]: props.queueName } : {}) };
}

/** The objects the GitOps annotations go on. */
export interface GitOpsTargets {
  readonly job: ApiObject;
  /** The certificate Job and its RBAC, or the inline certificate Secret. */
  readonly certificateObjects: ApiObject[];
  /** The certificate Job's program: a ConfigMap shared with the namespace's other clusters. */
  readonly certificateProgram?: ApiObject;
}

/** Adds the Argo CD and Flux CD annotations the options ask for. */
export function addGitOpsAnnotations(targets: GitOpsTargets, g: GitOpsOptions | undefined): void {
  if (g?.argoCd?.replaceJob) targets.job.metadata.addAnnotation(ARGOCD_SYNC_OPTIONS, 'Replace=true,Force=true');
  if (g?.argoCd?.certificateHook) {
    for (const o of targets.certificateObjects) {
      // An inline Secret is a plain resource: a hook would be deleted and recreated on every sync.
      if (o.kind === 'Secret') continue;
      o.metadata.addAnnotation(ARGOCD_HOOK, 'PreSync');
      o.metadata.addAnnotation(ARGOCD_HOOK_DELETE_POLICY, 'BeforeHookCreation');
      // RBAC and the program first, then the Job, so its pod never starts without its permissions.
      o.metadata.addAnnotation(ARGOCD_SYNC_WAVE, o.kind === 'Job' ? '0' : '-1');
    }
    // The hook Job runs before any plain resource exists, so its program must be a hook too. Shared
    // with clusters that have no hook, it still exists for their plain Jobs, which run later.
    const program = targets.certificateProgram;
    if (program) {
      program.metadata.addAnnotation(ARGOCD_HOOK, 'PreSync');
      program.metadata.addAnnotation(ARGOCD_HOOK_DELETE_POLICY, 'BeforeHookCreation');
      program.metadata.addAnnotation(ARGOCD_SYNC_WAVE, '-1');
    }
  }
  if (g?.fluxCd) {
    if (g.fluxCd.forceJob ?? true) targets.job.metadata.addAnnotation(FLUXCD_FORCE, 'enabled');
    if (g.fluxCd.createCertificateOnce ?? true) {
      for (const o of targets.certificateObjects) o.metadata.addAnnotation(FLUXCD_SSA, 'IfNotPresent');
    }
  }
}

/** Why a MiniCluster or one of its ranks fails, in words, from what the API reports. */
import { STOPPED_EXIT_CODE } from '../../core/runner-exit-codes';
import type * as k8s from '@kubernetes/client-node';
import { HANDSHAKE_EXIT_MEANINGS } from '../../core/handshake-contract';

const IMAGE_PULL_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'RegistryUnavailable']);
const CONTAINER_ERROR_REASONS = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'CrashLoopBackOff', 'PreStartHookError', 'PostStartHookError']);

/** Exit code `code` of a Flux or handshake container, in words. */
export function exitCodeMeaning(code: number): string | undefined {
  if (code === STOPPED_EXIT_CODE) return 'stopped from outside (its pod deleted: an eviction, a Job suspended by Kueue, kubectl delete pod): not a failure';
  const meaning = HANDSHAKE_EXIT_MEANINGS[code];
  return meaning ? `hosts handshake failure: ${meaning}` : undefined;
}

/** The pod's own problems: unschedulable, evicted, and warning events such as FailedMount. */
export function explainPod(pod: k8s.V1Pod, warnings: Array<{ reason?: string; message?: string }>): string[] {
  const out: string[] = [];
  const scheduled = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason) out.push(`not scheduled (${scheduled.reason}): ${scheduled.message ?? ''}`.trim());
  if (pod.status?.phase === 'Failed' && pod.status.reason) out.push(`pod ${pod.status.reason}: ${pod.status.message ?? ''}`.trim());
  for (const w of warnings) {
    if (w.reason === 'FailedMount' || w.reason === 'FailedAttachVolume') out.push(`volume cannot be mounted (${w.reason}): ${w.message ?? ''}`.trim());
    else if (w.reason === 'FailedCreatePodSandBox') out.push(`pod sandbox cannot be created: ${w.message ?? ''}`.trim());
  }
  return out;
}

/** A container's problems: image pulls, config errors, crash loops, failing exits with their meaning. */
export function explainContainer(c: k8s.V1ContainerStatus, role: { flux: boolean; handshake: boolean; handshakeStatus?: k8s.V1ContainerStatus }): string[] {
  const out: string[] = [];
  const waiting = c.state?.waiting;
  if (waiting?.reason && IMAGE_PULL_REASONS.has(waiting.reason)) {
    out.push(`image ${c.image} of container ${c.name} cannot be pulled (${waiting.reason}): ${waiting.message ?? ''}`.trim());
  } else if (waiting?.reason && CONTAINER_ERROR_REASONS.has(waiting.reason) && waiting.reason !== 'CrashLoopBackOff') {
    out.push(`container ${c.name} cannot start (${waiting.reason}): ${waiting.message ?? ''}`.trim());
  }
  // A failing exit now, or the last one of a restarting container (a native sidecar restarts).
  const ended = c.state?.terminated ?? (waiting ? c.lastState?.terminated : undefined);
  if (ended && ended.exitCode !== 0 && (role.flux || role.handshake)) {
    const meaning = exitCodeMeaning(ended.exitCode);
    // The handshake's termination message names the peers that never answered; the Flux container
    // exits with the same code, so its own message (if any) is the fallback.
    const message = lastMessage(role.handshakeStatus) ?? ended.message?.trim();
    const handshakeCode = (role.handshakeStatus?.state?.terminated ?? role.handshakeStatus?.lastState?.terminated)?.exitCode;
    if (meaning && role.flux && handshakeCode === ended.exitCode) {
      // The handshake container's own line says what failed: no need to repeat it.
      out.push(`container ${c.name} exited with the hosts handshake's exit code, ${ended.exitCode}`);
    } else if (meaning) {
      out.push(`container ${c.name} exited with code ${ended.exitCode} (${meaning})${message ? `: ${message}` : ''}`);
    } else {
      out.push(`container ${c.name} exited with code ${ended.exitCode}${ended.reason ? ` (${ended.reason})` : ''}${ended.message?.trim() ? `: ${ended.message.trim()}` : ''}`);
    }
  }
  return out;
}

function lastMessage(c: k8s.V1ContainerStatus | undefined): string | undefined {
  const m = c?.state?.terminated?.message ?? c?.lastState?.terminated?.message;
  return m?.trim() || undefined;
}

/** The Job's Failed (or FailureTarget) condition in words, naming the podFailurePolicy rule that fired. */
export function explainJobFailure(job: k8s.V1Job, c: k8s.V1JobCondition): string {
  const head = `the Job ${c.type === 'Failed' ? 'failed' : 'is failing'} (${c.reason ?? 'no reason'})`;
  const m = /rule at index (\d+)/.exec(c.message ?? '');
  const rule = m ? job.spec?.podFailurePolicy?.rules?.[Number(m[1])] : undefined;
  if (c.reason === 'PodFailurePolicy' && m) {
    const code = /exit code (\d+)/.exec(c.message ?? '');
    const meaning = code ? exitCodeMeaning(Number(code[1])) : undefined;
    return `${head}: podFailurePolicy rule ${m[1]} fired (${rule ? describeRule(rule) : 'rule not found in the Job'}): ${c.message}${meaning ? ` - ${meaning}` : ''}`;
  }
  const words: Record<string, string> = {
    BackoffLimitExceeded: 'more pods failed than backoffLimit allows',
    DeadlineExceeded: 'activeDeadlineSeconds passed',
    MaxFailedIndexesExceeded: 'more indexes failed than maxFailedIndexes allows',
    FailedIndexes: 'some indexes failed (backoffLimitPerIndex)',
  };
  const why = c.reason ? words[c.reason] : undefined;
  return `${head}${why ? `: ${why}` : ''}${c.message ? `: ${c.message}` : ''}`;
}

function describeRule(rule: k8s.V1PodFailurePolicyRule): string {
  if (rule.onExitCodes) {
    const e = rule.onExitCodes;
    const codes = e.values.join(', ');
    const handshake = e.operator === 'In' && e.values.some((v) => HANDSHAKE_EXIT_MEANINGS[v] !== undefined) ? ': a hosts handshake failure' : '';
    const which = e.operator === 'In' ? `with ${codes}` : `with any code but ${codes}`;
    return `${rule.action} when container ${e.containerName ?? '(any)'} exits ${which}${handshake}`;
  }
  const conds = (rule.onPodConditions ?? []).map((p) => `${p.type}=${p.status}`).join(', ');
  return `${rule.action} on pod condition ${conds}`;
}

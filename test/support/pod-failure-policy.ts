/**
 * The Job controller's podFailurePolicy match (kubernetes pkg/controller/job/pod_failure_policy.go),
 * written from its documented rules: the first rule that matches a failed pod decides its action;
 * none matching means the failure counts against the backoff limits.
 */

/** What a failed pod shows the Job controller. */
export interface FailedPod {
  /** Exit codes of terminated containers, by name (init containers included, as in the controller). */
  readonly exitCodes: Record<string, number>;
  /** Pod conditions with status True, e.g. `DisruptionTarget`. */
  readonly conditions?: string[];
}

/** The action of the first matching rule (`FailJob`, `FailIndex`, `Ignore`, `Count`), or undefined. */
export function podFailureAction(job: any, pod: FailedPod): string | undefined {
  for (const rule of job.spec.podFailurePolicy?.rules ?? []) {
    if (rule.onExitCodes && exitCodesMatch(rule.onExitCodes, pod)) return rule.action;
    if (rule.onPodConditions?.some((p: any) => p.status === 'True' && (pod.conditions ?? []).includes(p.type))) return rule.action;
  }
  return undefined;
}

function exitCodesMatch(req: { containerName?: string; operator: 'In' | 'NotIn'; values: number[] }, pod: FailedPod): boolean {
  return Object.entries(pod.exitCodes).some(([name, code]) =>
    code !== 0 && (req.containerName === undefined || req.containerName === name)
    && (req.operator === 'In' ? req.values.includes(code) : !req.values.includes(code)));
}

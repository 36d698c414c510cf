/** Exit codes of the Flux runner container that the Job's podFailurePolicy tells apart. */

/**
 * The runner's exit code when a signal from outside stopped it (its pod deleted: an eviction, a Job
 * suspended by Kueue, a pod deleted by hand, a shrink). 75 is sysexits' EX_TEMPFAIL: try again
 * later. The Job's podFailurePolicy ignores it: a Job that Kueue suspends deletes its pods without
 * a DisruptionTarget condition, and their 128+15 failed the Job by the FailJob rule. A program or a
 * broker that exits 75 on its own makes the runner exit 1, so a real failure is never retried.
 */
export const STOPPED_EXIT_CODE = 75;

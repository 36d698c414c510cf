/** Exit codes and errors of the day-2 commands (docs/day2.md, "Exit codes"). */

/** Distinct exit codes, so a script can tell the situations apart. */
export const EXIT = {
  OK: 0,
  /** Bad options or a kubeconfig that cannot be used. */
  USAGE: 1,
  /** No MiniCluster of that name (or no pod for that rank) in the namespace. */
  NOT_FOUND: 3,
  /** The API server cannot be reached. */
  UNREACHABLE: 4,
  /** The API server refused: the account lacks a permission (403) or is not authenticated (401). */
  FORBIDDEN: 5,
  /** `scale` on a cluster synthesized without room to grow (maxSize = size). */
  NOT_ELASTIC: 6,
  /** `scale` to a size outside minSize..maxSize. */
  OUT_OF_RANGE: 7,
  /** `wait`/`scale`: the Job failed (or ended before what was waited for). */
  JOB_FAILED: 8,
  /** `wait`/`scale`: the timeout passed first. */
  TIMEOUT: 9,
  /** Any other error the API server returned. */
  API_ERROR: 10,
  /** `wait`: a pod is stuck in a state that does not resolve by itself (an image that cannot be pulled, ...). */
  STUCK: 11,
  /** `wait`: the timeout passed while Kueue held the cluster (queued, preempted or evicted), with Kueue's reason. */
  QUEUED: 12,
} as const;

/** An error the command reports as one line on stderr, exiting with `exitCode`. */
export class Day2Error extends Error {
  constructor(public readonly exitCode: number, message: string) {
    super(message);
  }
}

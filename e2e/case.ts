/** What an end-to-end case is: where its manifests come from, what it needs, what a user would check. */

/** Podemu's verdict on the Job; `Interrupted` for a cluster that stays up until the test ends it. */
export type JobResult = 'Succeeded' | 'Failed' | 'Interrupted';

/** A command run in the lead pod's Flux container while the cluster is up, as with `kubectl exec`. */
export interface ExecStep {
  /** What the step shows, for the report. */
  readonly what: string;
  /** A bash script, run with the container's user and environment. */
  readonly script: string;
  /** Patterns its standard output must match. */
  readonly output: RegExp[];
  /** Seconds the step may take. @default 120 */
  readonly timeoutSeconds?: number;
}

/** What a user would check once the Job ran. */
export interface Expectation {
  readonly result: JobResult;
  /** Pattern the Job's reason must match (e.g. the podFailurePolicy rule that failed it). */
  readonly reason?: RegExp;
  /** Exit code of the lead's Flux container. @default 0 when the Job succeeds */
  readonly leadExit?: number;
  /** Patterns the lead's Flux container output must match. */
  readonly leadOutput?: RegExp[];
  /** The lead's whole output, line for line (the operator's test.out.correct). */
  readonly leadOutputExactly?: string;
  /** Patterns the output of another container of the lead pod must match. */
  readonly containerOutput?: Array<{ readonly container: string; readonly patterns: RegExp[] }>;
  /** Commands run in the lead pod while the cluster is up; the test then ends the run. */
  readonly exec?: ExecStep[];
  /** How many brokers must be connected before the exec steps start. @default every pod of the Job */
  readonly execAfterBrokers?: number;
  /**
   * Check the readiness probe (docs/day2.md): every pod turns Ready; a worker not before its broker
   * connected to its parent, the lead not before every other rank connected (a flat tree whose
   * quorum is every rank). `lateRank` starts its broker `lateSeconds` late: it must be Ready no
   * earlier than that.
   */
  readonly readyMeansConnected?: { readonly lateRank: number; readonly lateSeconds: number };
}

/** Files put on a volume before the run, as a user's data would already be there. */
export interface VolumeSeed {
  /** `pvc-<claimName>` or `hostpath<path with / as _>`: podemu's shared directory for the volume. */
  readonly podemuKey: string;
  readonly files: Record<string, string>;
}

/** What the machine must have for a case: Debian packages, and image content staged from them. */
export interface HostNeeds {
  readonly debianPackages?: string[];
  /** Directories an image has, copied from where a Debian package installs them. */
  readonly stage?: Array<{ readonly from: string; readonly to: string }>;
}

/** One end-to-end case. */
export interface E2eCase {
  /** `example <chart>` or `operator <test>/<file>`. */
  readonly id: string;
  /** Writes the case's manifests into `dir` and returns the files. */
  readonly synth: (dir: string) => string[];
  /** Changes made to the synthesized objects before the run, and why (as a user or Kueue would). */
  readonly patch?: { readonly why: string; readonly apply: (docs: any[]) => void };
  /** Objects the user creates beside the manifests (a ConfigMap or Secret the cluster mounts). */
  readonly userObjects?: any[];
  readonly volumes?: VolumeSeed[];
  readonly needs?: HostNeeds;
  readonly podemu?: { readonly timeout?: number; readonly stagger?: number };
  readonly expect: Expectation;
  /** Why the expected outcome is not the application's success: something this machine lacks. */
  readonly machineLimit?: string;
  /** What the case adds to the example it runs, for the report. */
  readonly note?: string;
}

/** An operator test MiniCluster the CLI refuses to convert, with its reason. */
export interface RejectedCase {
  readonly id: string;
  readonly reason: string;
}

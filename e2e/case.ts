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
  /** Lines of its output that are measurements (times), kept in the run's record and shown in docs/e2e.md. */
  readonly measured?: RegExp;
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
  /** Exit codes of the last run of a container (the last pod of that index). */
  readonly exits?: Array<{ readonly index: number; readonly container: string; readonly code: number }>;
  /**
   * Patterns the termination message of a container's last run must match (the last pod of that
   * index); `container` defaults to the Flux runner.
   */
  readonly terminationMessages?: Array<{ readonly index: number; readonly container?: string; readonly patterns: RegExp[] }>;
  /** Containers that must have been restarted in place (the last pod of that index). */
  readonly restarted?: Array<{ readonly index: number; readonly container: string }>;
  /** How many brokers must be connected before the exec steps start. @default every pod of the Job */
  readonly execAfterBrokers?: number;
  /**
   * Check the readiness probe (docs/day2.md): every pod turns Ready; a worker not before its broker
   * connected to its parent, the lead not before every other rank connected (a flat tree whose
   * quorum is every rank). `lateRank` starts its broker `lateSeconds` late: it must be Ready no
   * earlier than that.
   */
  readonly readyMeansConnected?: { readonly lateRank: number; readonly lateSeconds: number };
  /**
   * The cluster's NetworkPolicy holds on a real cluster that enforces policies: after the exec steps,
   * every port its pods listen on is reached from the lead and refused to a pod of another namespace
   * and to an unlabelled pod of the same namespace (kube/isolation.ts). Ignored in podemu.
   */
  readonly isolated?: boolean;
  /** Every rank on a node of its own (a real cluster: required one broker per node). */
  readonly ranksOnDistinctNodes?: boolean;
  /** The Job's parallelism never goes above this (an autoscaled Job and its maxSize); read on a real cluster only. */
  readonly maxParallelism?: number;
  /** The run is ended this many seconds after it started (a state to leave the cluster in, e.g. before its namespace is deleted). */
  readonly stopAfterSeconds?: number;
  /** No broker may start: the Job ends before Flux (a view that is not there), or its pods are never scheduled. @default false */
  readonly noBrokers?: boolean;
  /**
   * The lead's output proves that every broker was in the instance (`flux run -N<size> hostname`
   * printed every hostname, checked by leadOutputExactly). Podemu's broker monitor samples sockets
   * and falls behind at 128 pods on 2 CPUs (gaps of minutes); when its largest sample gap exceeds
   * MONITOR_BEHIND_SECONDS, a broker it did not see is then reported as unobserved, not as a failure.
   */
  readonly everyBrokerInOutput?: boolean;
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

/** What the platform does to a lost node: delete its Node (a cloud's node controller), taint it out-of-service (an admin on bare metal), bring it back (a healed partition, a reboot), or nothing. */
export type NodeAction = 'delete' | 'out-of-service' | 'return' | 'none';

/**
 * A fault of the node the pod of `index` runs on (a real cluster of several nodes only). `drain`:
 * what `kubectl drain` does (cordon, then evict every pod of the case's namespace there through the
 * Eviction API). `lose`: the node gone as in a power loss (`--node-control PROGRAM lose NODE`).
 */
export interface NodeFault {
  readonly index: number;
  /** Seconds after the first pod was created. */
  readonly atSeconds: number;
  readonly kind: 'drain' | 'lose';
  /** What follows a loss, thenAfterSeconds after it; the bound of the outcome counts from it. @default 'none' */
  readonly then?: NodeAction;
  /** @default 0 */
  readonly thenAfterSeconds?: number;
  /** Further actions on the same node, each afterSeconds after the loss (a return once its pod was replaced); they do not move the bound. */
  readonly later?: ReadonlyArray<{ readonly action: NodeAction; readonly afterSeconds: number }>;
}

/** Faults podemu injects into a case's run (its README: `--evict`, `--crash`), and what must follow. */
export interface FaultPlan {
  /** `INDEX@SECONDS`: the pod of that index is evicted, as a node drain or a preemption does. */
  readonly evict?: string[];
  /** `INDEX@SECONDS[:CONTAINER]`: that container is SIGKILLed (exit 137), as an OOM kill. */
  readonly crash?: string[];
  /** Faults of whole nodes: a real cluster of at least 2 Ready schedulable nodes only (podemu has one host). */
  readonly nodes?: NodeFault[];
  /** What the library promises: every broker up again, or the end of the Job; `acted`: only that the faults happened (the run stops before an outcome). */
  readonly outcome: 'recovers' | 'ends' | 'acted';
  /** Seconds from the last fault to that outcome, at most. */
  readonly boundSeconds: number;
  /** The faults must come once every broker is up (the case says nothing otherwise). @default true */
  readonly afterBringUp?: boolean;
  /** Runs of the case in one `npm run e2e`, all of which must pass. @default 1 */
  readonly runs?: number;
}

/** What differs when a case runs on a real cluster (`npm run e2e -- --kubeconfig FILE`). */
export interface KubeVariant {
  /** Why the case cannot run on a real cluster (slow DNS, an emulator-only option): it is skipped with this. */
  readonly skip?: string;
  /** Expectations that differ from podemu's (what the real image or kubelet shows), merged over `expect`. */
  readonly expect?: Partial<Expectation>;
  /** A change made to the objects on a real cluster only, and why. */
  readonly patch?: { readonly why: string; readonly apply: (docs: any[]) => void };
  /** Seconds added to the case's time limit (image pulls, a slower node). @default 0 */
  readonly extraSeconds?: number;
  /** Ready schedulable nodes the case needs: skipped with the reason on a smaller cluster. @default 1 */
  readonly minNodes?: number;
  /** Grow the Job to `to` pods `atSeconds` after the first pod was created, as `kubectl minicluster scale` does (podemu's stagger makes pods late instead). */
  readonly grow?: { readonly to: number; readonly atSeconds: number };
  /**
   * What an API server older than 1.`minor` does instead (drops a field the output uses) and why:
   * there these expectations are merged over the others, so the version matrix holds the promised
   * fail-fast, not a failure.
   */
  readonly beforeMinor?: { readonly minor: number; readonly why: string; readonly expect: Partial<Expectation> };
  /**
   * The first Kubernetes minor the case means something on, and why: on an older API server it is
   * skipped with that (where what the output does instead is another case's to show).
   */
  readonly fromMinor?: { readonly minor: number; readonly why: string };
}

/**
 * A `kubectl minicluster` command run against the case's cluster (the built plugin, as a user runs
 * it), and what it must do.
 */
export interface Day2Step {
  /** What the step shows, for the report. */
  readonly what: string;
  /** The command and its arguments; the runner adds --kubeconfig, --context and -n after the command, and MANIFESTS_FILE stands for the file of the case's objects. */
  readonly args: string[];
  /** The exit code it must end with. @default 0 */
  readonly exit?: number;
  /** Patterns its standard output must match. */
  readonly stdout?: RegExp[];
  /** Patterns its standard error must match. */
  readonly stderr?: RegExp[];
  /** For `-o json`: what is wrong with the parsed output (nothing when it is right). */
  readonly json?: (doc: any) => string[];
  /** Seconds it may take. @default 180 */
  readonly timeoutSeconds?: number;
  /** Run it again, 2 s apart within timeoutSeconds, until it passes: what settles just after the step before returned (Flux marking a departed broker down). @default false */
  readonly retry?: boolean;
}

/** Stands for the file of the case's objects (moved into its namespace) in a Day2Step's args. */
export const MANIFESTS_FILE = '{manifests}';

/** The day-2 commands a case runs on a real cluster (podemu has no API server). */
export interface Day2Plan {
  /** Run once the namespace exists, before any object is created (`check -f`). */
  readonly beforeApply?: Day2Step[];
  /** Run in order once the objects are created; the run then ends. */
  readonly afterApply: Day2Step[];
  /** The largest size a step scales the cluster to: CPU requests are fitted to it. */
  readonly largestSize?: number;
}

/** A case queued by a real Kueue: its own ClusterQueue and LocalQueue (the Job's queue-name), and preemptions. */
export interface KueuePlan {
  /** Pods the case's ClusterQueue admits at once (its `pods` quota; cpu and memory are plenty). */
  readonly podsQuota: number;
  /** Preemptions: the n-th comes this many seconds after the n-th admission, by a higher-priority Job that takes the whole quota. */
  readonly preemptAfterAdmission?: number[];
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
  readonly podemu?: {
    readonly timeout?: number;
    readonly stagger?: number;
    /** Why podemu cannot run the case (it has no scheduler, no namespaces): it is skipped with this. */
    readonly skip?: string;
    /**
     * podemu's `--image-root REF=DIR`: the content of the image volumes of reference REF. A relative
     * DIR is made, empty, in the case's directory: what a runtime without image volumes mounts.
     */
    readonly imageRoots?: Readonly<Record<string, string>>;
  };
  readonly expect: Expectation;
  /** Why the expected outcome is not the application's success: something this machine lacks. */
  readonly machineLimit?: string;
  /** What the case adds to the example it runs, for the report. */
  readonly note?: string;
  /** Faults injected during the run; exec steps then wait until each evicted index is back. */
  readonly faults?: FaultPlan;
  /** What differs on a real cluster. */
  readonly kube?: KubeVariant;
  /** `kubectl minicluster` commands run against the cluster (a real cluster only). */
  readonly day2?: Day2Plan;
  /** Queued by a real Kueue (a real cluster with Kueue only; skipped elsewhere with the reason). */
  readonly kueue?: KueuePlan;
}

/** An operator test MiniCluster the CLI refuses to convert, with its reason. */
export interface RejectedCase {
  readonly id: string;
  readonly reason: string;
}

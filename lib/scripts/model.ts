/**
 * Everything the entrypoint scripts need, resolved and validated by the constructs. The scripts
 * only render this; they make no decisions of their own about defaults.
 */
import type { WorkerRcPlan } from '../core/worker-rc-plans';

/** Shell snippets from the runner container's `commands`. */
export interface ScriptCommands {
  readonly init?: string;
  readonly pre?: string;
  readonly brokerPre?: string;
  readonly workerPre?: string;
  readonly post?: string;
  readonly prefix?: string;
  readonly servicePre?: string;
}

/** How the lead broker runs the user's work. */
export enum LeadMode {
  /** `flux submit <flags> --quiet --watch <command>` (or the custom submit command). */
  SUBMIT = 'submit',
  /** The command is Flux's initial program itself. */
  LAUNCHER = 'launcher',
  /** Each command line is a Flux job; their output is collected on the lead (or a raw `flux batch` script). */
  BATCH = 'batch',
  /** No command: the lead runs an interactive broker and the pod stays up. */
  INTERACTIVE = 'interactive',
}

/** A container that is not the Flux runner but is wrapped by a start script. */
export interface SidecarScriptModel {
  /** Container name; the script key is `start-<name>.sh`. */
  readonly name: string;
  /** The container's command, run after the view environment is sourced. */
  readonly command?: string;
  readonly commands: ScriptCommands;
}

/** The hosts handshake hand-off (see lib/core/handshake-contract.ts). */
export interface HandshakeScriptModel {
  /** Shared directory where the handshake writes `parent.env`, then `ready` or `failed`. */
  readonly dir: string;
  /** Seconds to wait for `ready` before failing. @default DEFAULT_HANDSHAKE_WAIT_SECONDS (600) */
  readonly waitSeconds?: number;
  /**
   * While a worker broker runs, how often it checks whether its TBON parent moved (a new address in
   * parent.env, or with `resolveParent` a new answer for its per-pod name); a moved parent restarts
   * the broker with the new address. @default DEFAULT_PARENT_WATCH_SECONDS (5)
   */
  readonly parentWatchSeconds?: number;
  /**
   * Init lifecycle: no handshake keeps parent.env current once the cluster runs, so the watch
   * re-resolves the parent's per-pod name when the pinned address stops answering. @default false
   */
  readonly resolveParent?: boolean;
  /**
   * Sidecar lifecycle: the file the entrypoint creates as it exits, so that the handshake sidecar
   * ends with it. @default - none
   */
  readonly exitFile?: string;
  /** Present when the runner runs the handshake itself (handshake.inRunner). @default - a container of its own */
  readonly inRunner?: HandshakeInRunnerScriptModel;
}

/** The handshake run by the entrypoint, in the background, with node from an image volume. */
export interface HandshakeInRunnerScriptModel {
  /** The handshake image's image volume, as the runner mounts it. */
  readonly nodeRoot: string;
  /** The image's reference, for messages. */
  readonly image: string;
  /** node's arguments: its flags, the program's path, the program's flags. */
  readonly args: string[];
}

/** The autoscaler's Flux agent: where it talks to the autoscaler, and how often. */
export interface AutoscaleScriptModel {
  /** The directory shared with the autoscaler sidecar. */
  readonly dir: string;
  readonly periodSeconds: number;
}

/** What the readiness probe script (flux-ready.sh) checks. */
export interface ReadinessScriptModel {
  /** The brokers' TCP port (`tbon.endpoint` / `bootstrap.default_port`). */
  readonly fluxPort: number;
  /** TBON children of rank 0 among the quorum's ranks: the lead is up when all have connected. */
  readonly leadChildren: number;
}

export interface ScriptModel {
  /** MiniCluster (and Job) name; hostnames are `<clusterName>-<index>`. */
  readonly clusterName: string;
  /** The readiness probe's facts; without them no flux-ready.sh is rendered. @default - none */
  readonly readiness?: ReadinessScriptModel;
  /** Hostname of rank 0, `<clusterName>-0`. */
  readonly leadHostname: string;
  /** RFC 29 hostlist of all maxSize hosts, for `flux R encode --hosts`. */
  readonly hostlist: string;
  readonly size: number;
  readonly maxSize: number;
  /** Where the flux view emptyDir is mounted (default /mnt/flux); every path follows it. */
  readonly mountPath: string;
  /** The app image brings Flux itself; skip the view copy and PATH setup. */
  readonly viewDisabled: boolean;
  /** The view image is a read-only image volume: link `<mountPath>/view` to it instead of copying. */
  readonly viewImageVolume: boolean;
  /**
   * With the image volume, the runner's entrypoint runs the view check (flux-view-check.sh) first,
   * instead of an init container. @default false
   */
  readonly viewCheckInRunner?: boolean;
  /** The flux view image's reference, which the image volume's check names. @default - none */
  readonly viewImage?: string;
  /** PYTHONPATH override; default is the view's site-packages. */
  readonly pythonPath?: string;
  /**
   * Full text of broker.toml. renderScripts emits it as its own ConfigMap key (BROKER_TOML_KEY), the
   * one copy; the view init script copies that key into the config tree (written once, not appended).
   */
  readonly brokerToml: string;
  /** Where the ConfigMap holding these scripts and broker.toml is mounted in the containers. */
  readonly scriptsDir: string;
  /** Read-only path of the mounted certificate (mode 0400); scripts copy it to a 0600 file. */
  readonly certificatePath: string;
  /** Broker attributes (`-Sk=v`), same for every rank. */
  readonly brokerOptions: string[];
  /** Arguments of `flux R encode` besides `--hosts` (for example `--local` or `--cores=0-3`). */
  readonly resourceEncodeArgs: string[];
  /** Extra `export K=V` lines of flux-view.sh, sorted by name. */
  readonly fluxEnvironment: [string, string][];
  /** Load sched-simple instead of Fluxion. */
  readonly simpleScheduler: boolean;
  /**
   * The verified Flux installs on which worker brokers run worker-rc.sh as their rc1 and rc3
   * (core/worker-rc-plans.ts); none when the broker config or options change what a worker's
   * flux-modprobe would do.
   */
  readonly workerRcPlans: readonly WorkerRcPlan[];
  readonly quiet: boolean;
  readonly strict: boolean;
  readonly timed: boolean;
  /** `-Scontent.restore=<path>` is added when this path exists at start. */
  readonly archivePath?: string;
  readonly leadMode: LeadMode;
  /** The user's command (one job per line in batch mode). */
  readonly command?: string;
  /** A user script run as the command (written to a private temp file, run with bash). */
  readonly script?: string;
  readonly commands: ScriptCommands;
  /** With LeadMode.BATCH: write the lines verbatim. */
  readonly batchRaw: boolean;
  /** FLUX_OUTPUT_DIR for batch output. */
  readonly logsDir: string;
  /** The runner's working directory (batch file goes there), if set. */
  readonly workingDir?: string;
  /** The submit command (`flux submit` unless overridden). */
  readonly submitCommand: string;
  /** Flags of the lead's submit (or raw `flux batch`): `-N/-n`, optionFlags, `-vvv`. */
  readonly submitFlags: string;
  /** Flags of each job of a batch's lines: optionFlags, `-vvv` (each line is one task, as in the operator). */
  readonly batchJobFlags: string;
  /** `flux start --wrap` value for the lead. */
  readonly wrap?: string;
  /** Interactive instance: `-Sbroker.rc2_none` is in brokerOptions and the lead stays up. */
  readonly interactive: boolean;
  /** Workers stop after the first broker exit, whatever its code. */
  readonly completeWorkers: boolean;
  /**
   * A worker whose broker exits 0 starts it again and waits for a lead: its instance ended, either
   * because the lead finished (then the Job's successPolicy reaps the pod) or because the lead's pod
   * was evicted (then a new lead comes). Only with successPolicy and without completeWorkers.
   */
  readonly workerRejoins: boolean;
  /**
   * An elastic cluster (maxSize above minSize; always so with `autoscale`): a worker stopped after
   * a shrink released its rank (fluxPaths().releasedMarker) exits 0. @default false
   */
  readonly elastic?: boolean;
  /**
   * Upper bound on worker broker restarts after a non-zero exit; 0 means unbounded (the Job's
   * successPolicy reaps workers when the lead finishes).
   */
  readonly workerMaxRestarts: number;
  /** Seconds between worker restarts. */
  readonly workerRestartDelaySeconds: number;
  /** Present when the hosts handshake runs in the pod. */
  readonly handshake?: HandshakeScriptModel;
  /**
   * The autoscaler's Flux agent (templates/autoscale-agent.sh), started in the background by the
   * lead's entrypoint. @default - no autoscaler
   */
  readonly autoscale?: AutoscaleScriptModel;
  /** Wrapped non-Flux containers. */
  readonly sidecars: SidecarScriptModel[];
}

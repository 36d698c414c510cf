/**
 * Renders the MiniCluster's shell scripts (ConfigMap keys → text) from the templates in
 * lib/scripts/templates. The model is already resolved by the constructs; this module only checks
 * the few facts the scripts rely on for their own correctness, and fails with every problem at once.
 */
import { DRAIN_REASON } from '../core/autoscale-contract';
import { HANDSHAKE_EXIT_CONFIG, procNetPort } from '../core/handshake-contract';
import { STOPPED_EXIT_CODE } from '../core/runner-exit-codes';
import { loadSteps, removeSteps } from '../core/worker-rc-plans';
import { rangeHostlist } from '../core/hostlist';
import { fluxPaths, IMAGE_VIEW_DIR, VIEW_IMAGE_CHECK_DIR, viewTreeDir } from '../core/paths';
import { LeadMode, ReadinessScriptModel, ScriptModel, SidecarScriptModel } from './model';
import { shellQuote } from './shell-quote';
import { renderTemplate, TemplateContext } from './template';

/** ConfigMap key of the shared broker.toml, which the init script copies into the config tree. */
export const BROKER_TOML_KEY = 'broker.toml';
/** ConfigMap key of the flux view init container's script. */
export const INIT_SCRIPT_KEY = 'flux-init.sh';
/** ConfigMap key of the check of the flux view image volume (flux.container.source image-volume). */
export const VIEW_CHECK_SCRIPT_KEY = 'flux-view-check.sh';
/**
 * Exit code of the view check when the image volume lacks what the Flux containers mount (empty: a
 * runtime without image volumes; or another layout): the Job's podFailurePolicy fails the Job on it.
 * 78 is sysexits' EX_CONFIG.
 */
export const VIEW_CHECK_EXIT_CODE = 78;
/** ConfigMap key of the Flux runner's readiness probe script (docs/day2.md). */
export const READY_SCRIPT_KEY = 'flux-ready.sh';
/** ConfigMap key of the worker brokers' rc1 and rc3 (core/worker-rc-plans.ts). */
export const WORKER_RC_SCRIPT_KEY = 'worker-rc.sh';
/** ConfigMap key of the lead's wrapper of its initial program (every mode but interactive). */
export const LEAD_PROGRAM_SCRIPT_KEY = 'lead-program.sh';
/** ConfigMap key of the autoscaler's Flux agent, which the lead's entrypoint starts (autoscale). */
export const AUTOSCALE_AGENT_SCRIPT_KEY = 'autoscale-agent.sh';
/** ConfigMap key of the Flux runner's entrypoint (every rank). */
export const ENTRYPOINT_SCRIPT_KEY = 'entrypoint.sh';
/** ConfigMap key of the wrapper script of sidecar container `name`. */
export function sidecarScriptKey(name: string): string {
  return `start-${name}.sh`;
}

/** Seconds a rank waits for the hosts handshake's `ready` file before it fails. */
export const DEFAULT_HANDSHAKE_WAIT_SECONDS = 600;
/** Seconds between two checks of a worker whether its TBON parent moved. */
export const DEFAULT_PARENT_WATCH_SECONDS = 5;
/** Seconds a sidecar waits for the runner's flux-view.sh before it runs without it. */
export const DEFAULT_VIEW_WAIT_SECONDS = 600;

/**
 * Renders every script of the MiniCluster and broker.toml, keyed by ConfigMap key (all of them go
 * into one ConfigMap, mounted at model.scriptsDir). Output is deterministic.
 */
export function renderScripts(model: ScriptModel): { [configMapKey: string]: string } {
  const errors = checkModel(model);
  if (errors.length > 0) {
    throw new Error(`invalid ScriptModel:\n${errors.map((e) => `  - ${e}`).join('\n')}`);
  }
  const scripts: { [configMapKey: string]: string } = {
    [BROKER_TOML_KEY]: model.brokerToml,
    [INIT_SCRIPT_KEY]: renderInit(model),
    [ENTRYPOINT_SCRIPT_KEY]: renderEntrypoint(model),
  };
  for (const sidecar of model.sidecars) {
    scripts[sidecarScriptKey(sidecar.name)] = renderSidecar(model, sidecar);
  }
  if (model.viewImageVolume && !model.viewDisabled) scripts[VIEW_CHECK_SCRIPT_KEY] = renderViewCheck(model);
  if (model.readiness) scripts[READY_SCRIPT_KEY] = renderReadiness(model, model.readiness);
  if (model.leadMode !== LeadMode.INTERACTIVE) {
    scripts[LEAD_PROGRAM_SCRIPT_KEY] = renderTemplate(LEAD_PROGRAM_SCRIPT_KEY, {
      values: { QUIET: String(model.quiet), FINISHED_MARKER: model.workerRejoins ? fluxPaths(model.mountPath).finishedMarker : '' },
      flags: {},
    });
  }
  if (model.workerRcPlans.length > 0) scripts[WORKER_RC_SCRIPT_KEY] = renderWorkerRc(model);
  if (model.autoscale) {
    scripts[AUTOSCALE_AGENT_SCRIPT_KEY] = renderTemplate(AUTOSCALE_AGENT_SCRIPT_KEY, {
      values: {
        QUIET: String(model.quiet),
        FLUX_VIEW_FILE: fluxViewFile(model),
        AUTOSCALE_DIR: model.autoscale.dir,
        PERIOD_SECONDS: model.autoscale.periodSeconds,
        DRAIN_REASON,
        RELEASED_MARKER: fluxPaths(model.mountPath).releasedMarker,
      },
      flags: {},
    });
  }
  return scripts;
}

/** The `hosts` line the handshake splits; the lead renders broker.toml with exactly this line. */
export function hostsLine(hostlist: string): string {
  return `hosts = [ { host = "${hostlist}" } ]`;
}

function renderInit(model: ScriptModel): string {
  return renderTemplate('flux-init.sh', {
    values: {
      QUIET: String(model.quiet),
      MOUNT_PATH: model.mountPath,
      HOSTLIST: model.hostlist,
      // The ConfigMap key, not its text: broker.toml exists once in the ConfigMap.
      BROKER_TOML_FILE: `${model.scriptsDir}/${BROKER_TOML_KEY}`,
      IMAGE_VIEW_DIR,
    },
    flags: { VIEW_DISABLED: model.viewDisabled, VIEW_IMAGE_VOLUME: model.viewImageVolume },
  });
}

/** The check of the view image volume: the layout the Flux containers mount by subPath. */
function renderViewCheck(model: ScriptModel): string {
  return renderTemplate(VIEW_CHECK_SCRIPT_KEY, {
    values: {
      VIEW_IMAGE: model.viewImage ?? '',
      QUIET: String(model.quiet),
      EXIT_CODE: VIEW_CHECK_EXIT_CODE,
      IMAGE_ROOT: VIEW_IMAGE_CHECK_DIR,
    },
    flags: {},
  });
}

function renderEntrypoint(model: ScriptModel): string {
  const mode = model.leadMode;
  const handshake = model.handshake;
  const runsProgram = mode !== LeadMode.INTERACTIVE;
  const context: TemplateContext = {
    values: {
      QUIET: String(model.quiet),
      CLUSTER_NAME: model.clusterName,
      HOSTLIST: model.hostlist,
      MOUNT_PATH: model.mountPath,
      CERTIFICATE_PATH: model.certificatePath,
      BROKER_OPTIONS: model.brokerOptions,
      BROKER_DIRECTORIES: brokerDirectories(model.brokerOptions),
      RESOURCE_ENCODE_ARGS: model.resourceEncodeArgs,
      COMPLETE_WORKERS: String(model.completeWorkers),
      WORKER_REJOINS: String(model.workerRejoins),
      FINISHED_MARKER: fluxPaths(model.mountPath).finishedMarker,
      RELEASED_MARKER: fluxPaths(model.mountPath).releasedMarker,
      WORKER_MAX_RESTARTS: model.workerMaxRestarts,
      WORKER_RESTART_DELAY_SECONDS: model.workerRestartDelaySeconds,
      FLUX_VIEW_SCRIPT: renderFluxView(model),
      FLUX_CONNECT_SCRIPT: renderTemplate('flux-connect.sh', {
        values: { FLUX_VIEW_FILE: fluxViewFile(model) },
        flags: {},
      }),
      HOOK_INIT: model.commands.init ?? '',
      HOOK_PRE: model.commands.pre ?? '',
      HOOK_BROKER_PRE: model.commands.brokerPre ?? '',
      HOOK_WORKER_PRE: model.commands.workerPre ?? '',
      HOOK_POST: model.commands.post ?? '',
      ARCHIVE_PATH: model.archivePath ?? '',
      JOB_SCRIPT: model.script ?? '',
      COMMAND: model.command ?? '',
      COMMAND_PREFIX: model.commands.prefix ?? '',
      WRAP_OPTION: model.wrap ? [`--wrap=${model.wrap}`] : [],
      SUBMIT_COMMAND: model.submitCommand,
      SUBMIT_FLAGS: model.submitFlags,
      BATCH_TEXT: mode === LeadMode.BATCH ? batchScript(model) : '',
      LOGS_DIR: model.logsDir,
      WORKING_DIR: model.workingDir ?? '',
      HANDSHAKE_DIR: handshake?.dir ?? '',
      RUNNER_EXIT_FILE: handshake?.exitFile ?? '',
      HANDSHAKE_NODE_ROOT: handshake?.inRunner?.nodeRoot ?? '',
      HANDSHAKE_IMAGE: handshake?.inRunner?.image ?? '',
      HANDSHAKE_ARGS: handshake?.inRunner?.args ?? [],
      CONFIG_EXIT_CODE: HANDSHAKE_EXIT_CONFIG,
      HOSTS_LINE: hostsLine(model.hostlist),
      LAST_RANK: model.maxSize - 1,
      HANDSHAKE_WAIT_SECONDS: handshake?.waitSeconds ?? DEFAULT_HANDSHAKE_WAIT_SECONDS,
      PARENT_WATCH_SECONDS: handshake?.parentWatchSeconds ?? DEFAULT_PARENT_WATCH_SECONDS,
      WORKER_RC_SCRIPT: `${model.scriptsDir}/${WORKER_RC_SCRIPT_KEY}`,
      LEAD_PROGRAM_SCRIPT: `${model.scriptsDir}/${LEAD_PROGRAM_SCRIPT_KEY}`,
      INIT_SCRIPT: `${model.scriptsDir}/${INIT_SCRIPT_KEY}`,
      VIEW_CHECK_SCRIPT: `${model.scriptsDir}/${VIEW_CHECK_SCRIPT_KEY}`,
      AUTOSCALE_AGENT_SCRIPT: `${model.scriptsDir}/${AUTOSCALE_AGENT_SCRIPT_KEY}`,
      STOPPED_EXIT_CODE,
    },
    flags: {
      STRICT: model.strict,
      TIMED: model.timed,
      VIEW_DISABLED: model.viewDisabled,
      VIEW_IMAGE_VOLUME: model.viewImageVolume,
      VIEW_CHECK_IN_RUNNER: model.viewImageVolume && !model.viewDisabled && model.viewCheckInRunner === true,
      SIMPLE_SCHEDULER: model.simpleScheduler,
      WORKER_RC: model.workerRcPlans.length > 0,
      ARCHIVE: model.archivePath !== undefined,
      HANDSHAKE: handshake !== undefined,
      RESOLVE_PARENT: handshake?.resolveParent === true,
      RUNNER_EXIT_FILE: handshake?.exitFile !== undefined,
      HANDSHAKE_IN_RUNNER: handshake?.inRunner !== undefined,
      ELASTIC: model.elastic === true,
      SCRIPT: model.script !== undefined,
      JOB_DIR: model.script !== undefined || mode === LeadMode.BATCH,
      RUNS_PROGRAM: runsProgram,
      USER_COMMAND: mode === LeadMode.SUBMIT || mode === LeadMode.LAUNCHER,
      // Batch mode sizes the jobs of its lines itself; a raw batch script gets the flags.
      SUBMIT_FLAGS: mode === LeadMode.SUBMIT || (mode === LeadMode.BATCH && model.batchRaw),
      LEAD_SUBMIT: mode === LeadMode.SUBMIT,
      LEAD_LAUNCHER: mode === LeadMode.LAUNCHER,
      LEAD_BATCH: mode === LeadMode.BATCH,
      BATCH_RAW: model.batchRaw,
      LEAD_INTERACTIVE: mode === LeadMode.INTERACTIVE,
      AUTOSCALE: model.autoscale !== undefined,
    },
  };
  return renderTemplate('entrypoint.sh', context);
}

/** The worker brokers' rc1 and rc3, with every verified plan. */
function renderWorkerRc(model: ScriptModel): string {
  return renderTemplate(WORKER_RC_SCRIPT_KEY, {
    values: { QUIET: String(model.quiet), PLANS: model.workerRcPlans.map((p) => `${p.fingerprint} ${p.name}`) },
    flags: {},
    // Each plan's rc1 and rc3 steps, each as one word: steps apart by ',', a step's modules by ' '.
    lines: {
      PLAN_STEPS: model.workerRcPlans.flatMap((p) => {
        const word = (steps: string[][]) => shellQuote(steps.map((step) => step.join(' ')).join(','));
        return ['# shellcheck disable=SC2034', `plan_rc1_${p.name}=${word(loadSteps(p)!)} plan_rc3_${p.name}=${word(removeSteps(p)!)}`];
      }),
    },
  });
}

/** The readiness probe: the Flux port as /proc/net/tcp prints it, the lead's socket path. */
export function renderReadiness(model: Pick<ScriptModel, 'clusterName' | 'mountPath'>, readiness: ReadinessScriptModel): string {
  return renderTemplate(READY_SCRIPT_KEY, {
    values: {
      CLUSTER_NAME: model.clusterName,
      PORT_HEX: procNetPort(readiness.fluxPort),
      LEAD_CHILDREN: readiness.leadChildren,
      LOCAL_SOCKET: fluxPaths(model.mountPath).localSocket,
    },
    flags: {},
  });
}

function renderSidecar(model: ScriptModel, sidecar: SidecarScriptModel): string {
  return renderTemplate('start-sidecar.sh', {
    values: {
      SCRIPT_NAME: sidecarScriptKey(sidecar.name).replace(/\.sh$/, ''),
      QUIET: String(model.quiet),
      FLUX_VIEW_FILE: fluxViewFile(model),
      COMMAND: sidecar.command ?? '',
      HOOK_INIT: sidecar.commands.init ?? '',
      HOOK_SERVICE_PRE: sidecar.commands.servicePre ?? '',
      HOOK_POST: sidecar.commands.post ?? '',
      FLUX_SOCKET: fluxSocket(model),
      VIEW_WAIT_SECONDS: DEFAULT_VIEW_WAIT_SECONDS,
    },
    flags: { STRICT: model.strict },
  });
}

/** flux-view.sh, which the runner writes for itself, the sidecars and interactive users. */
function renderFluxView(model: ScriptModel): string {
  return renderTemplate('flux-view.sh', {
    values: {
      VIEW_ROOT: viewTreeDir(model.mountPath),
      PYTHON_PATH: model.pythonPath ?? '',
      FLUX_SOCKET: fluxSocket(model),
    },
    flags: { VIEW_DISABLED: model.viewDisabled, PYTHON_PATH: model.pythonPath !== undefined },
    lines: { ENVIRONMENT: model.fluxEnvironment.map(([name, value]) => `export ${name}=${shellQuote(value)}`) },
  });
}

function fluxViewFile(model: ScriptModel): string {
  return fluxPaths(model.mountPath).viewScript;
}

function fluxSocket(model: ScriptModel): string {
  return `local://${model.mountPath}/config/run/flux/local`;
}

/** Where the runner writes a `script` (the same path on every rank). */
function jobScriptFile(model: ScriptModel): string {
  return `${model.mountPath}/config/job/script.sh`;
}

/** Directories the broker options name, which the runner creates (its own, mode 0700) before Flux starts. */
function brokerDirectories(brokerOptions: readonly string[]): string[] {
  const dirs: string[] = [];
  for (const option of brokerOptions) {
    const m = /^-S(rundir|statedir|cron\.directory)=(.+)$/.exec(option);
    if (m && !dirs.includes(m[2])) dirs.push(m[2]);
  }
  return dirs;
}

/**
 * The batch program, the lead's initial program in batch mode. Each command line is a waitable Flux
 * job; their output stays in the KVS until all have ended, then goes to FLUX_OUTPUT_DIR/job-<i>.out
 * and .err on the lead, wherever each job ran (a pod's own directories are not shared), and the
 * program fails if a job failed. With batchRaw, the text is the user's own `flux batch` script.
 */
function batchScript(model: ScriptModel): string {
  const text = model.script ?? model.command ?? '';
  if (model.batchRaw) {
    return text.startsWith('#!') ? text : `#!/bin/bash\n${text}`;
  }
  const lines = model.script !== undefined ? [`bash ${shellQuote(jobScriptFile(model))}`] : text.split('\n');
  const flags = model.batchJobFlags ? `${model.batchJobFlags} ` : '';
  const submits = lines
    .filter((line) => line.trim() !== '')
    .map((line, i) => `job_ids[${i}]=$(flux submit --flags waitable ${flags}${line}) || exit`);
  return [
    '#!/bin/bash',
    'job_ids=()',
    ...submits,
    'status=0',
    'flux job wait --all || status=$?',
    'for i in "${!job_ids[@]}"; do',
    '  flux job attach "${job_ids[$i]}" > "$FLUX_OUTPUT_DIR/job-$i.out" 2> "$FLUX_OUTPUT_DIR/job-$i.err"',
    'done',
    'flux jobs -a',
    'exit "$status"',
    '',
  ].join('\n');
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The facts the scripts rely on; each message names the field, the value and the rule. */
function checkModel(model: ScriptModel): string[] {
  const errors: string[] = [];
  const bad = (field: string, value: unknown, rule: string) =>
    errors.push(`${field} = ${JSON.stringify(value)}: ${rule}`);

  if (!DNS_LABEL.test(model.clusterName)) bad('clusterName', model.clusterName, 'must be a DNS label');
  if (model.leadHostname !== `${model.clusterName}-0`) {
    bad('leadHostname', model.leadHostname, `must be '${model.clusterName}-0' (the hostname of index 0)`);
  }
  if (!Number.isInteger(model.maxSize) || model.maxSize < 1) bad('maxSize', model.maxSize, 'must be an integer >= 1');
  if (model.hostlist === '' || /\s/.test(model.hostlist)) bad('hostlist', model.hostlist, 'must be a non-empty RFC 29 hostlist');
  for (const [field, value] of [
    ['mountPath', model.mountPath],
    ['scriptsDir', model.scriptsDir],
    ['certificatePath', model.certificatePath],
    ['logsDir', model.logsDir],
    ['archivePath', model.archivePath],
    ['workingDir', model.workingDir],
    ['handshake.dir', model.handshake?.dir],
    ['autoscale.dir', model.autoscale?.dir],
  ] as const) {
    if (value !== undefined && !/^\/[^\n]*[^/\n]$|^\/$/.test(value)) {
      bad(field, value, 'must be an absolute path without a trailing slash');
    }
  }
  if (model.mountPath === '/') bad('mountPath', model.mountPath, 'must not be /');

  const hasCommand = model.command !== undefined && model.command.trim() !== '';
  if (model.command !== undefined && model.script !== undefined) {
    bad('script', model.script, 'cannot be set together with command');
  }
  if (model.leadMode === LeadMode.INTERACTIVE) {
    if (hasCommand || model.script !== undefined) bad('leadMode', model.leadMode, 'interactive mode runs no command or script');
  } else if (!Object.values(LeadMode).includes(model.leadMode)) {
    bad('leadMode', model.leadMode, `must be one of ${Object.values(LeadMode).join(', ')}`);
  } else if (!hasCommand && (model.script === undefined || model.script.trim() === '')) {
    bad('command', model.command, `leadMode ${model.leadMode} needs a command or a script`);
  }

  if (!Number.isInteger(model.workerMaxRestarts) || model.workerMaxRestarts < 0) {
    bad('workerMaxRestarts', model.workerMaxRestarts, 'must be an integer >= 0 (0 = unbounded)');
  }
  if (!Number.isInteger(model.workerRestartDelaySeconds) || model.workerRestartDelaySeconds < 0) {
    bad('workerRestartDelaySeconds', model.workerRestartDelaySeconds, 'must be an integer >= 0');
  }
  for (const plan of model.workerRcPlans) {
    if (!/^[A-Za-z0-9_]+$/.test(plan.name)) bad('workerRcPlans.name', plan.name, 'must be letters, digits and _ (a shell variable suffix)');
    if (!/^[0-9]+-[0-9]+$/.test(plan.fingerprint)) bad('workerRcPlans.fingerprint', plan.fingerprint, "must be cksum's '<crc>-<bytes>'");
    const badNames = Object.entries(plan.after).flatMap(([m, before]) => [m, ...before]).filter((m) => !/^[a-z0-9-]+$/.test(m));
    for (const m of badNames) bad('workerRcPlans.after', m, 'must be a Flux module name');
    if (badNames.length === 0 && !loadSteps(plan)) {
      bad('workerRcPlans.after', plan.after, 'must name only modules of the plan, in an order without loops');
    }
  }
  for (const [name] of model.fluxEnvironment) {
    if (!ENV_NAME.test(name)) bad('fluxEnvironment', name, 'names must be shell variable names');
  }
  const seen = new Set<string>();
  for (const sidecar of model.sidecars) {
    if (!DNS_LABEL.test(sidecar.name)) bad('sidecars[].name', sidecar.name, 'must be a DNS label');
    if (seen.has(sidecar.name)) bad('sidecars[].name', sidecar.name, 'must be unique');
    seen.add(sidecar.name);
  }

  if (model.autoscale && (!Number.isInteger(model.autoscale.periodSeconds) || model.autoscale.periodSeconds < 1)) {
    bad('autoscale.periodSeconds', model.autoscale.periodSeconds, 'must be an integer >= 1');
  }
  const handshake = model.handshake;
  if (handshake) {
    if (model.hostlist !== rangeHostlist(model.clusterName, Math.max(1, model.maxSize))) {
      bad('hostlist', model.hostlist, `must be ${rangeHostlist(model.clusterName, Math.max(1, model.maxSize))} for the hosts handshake to split it`);
    }
    const line = hostsLine(model.hostlist);
    const count = model.brokerToml.split('\n').filter((l) => l === line).length;
    if (count !== 1) {
      bad('brokerToml', `${count} lines '${line}'`, 'must contain that hosts line exactly once for the hosts handshake');
    }
    if (handshake.waitSeconds !== undefined && (!Number.isInteger(handshake.waitSeconds) || handshake.waitSeconds < 1)) {
      bad('handshake.waitSeconds', handshake.waitSeconds, 'must be an integer >= 1');
    }
    if (handshake.parentWatchSeconds !== undefined && (!Number.isInteger(handshake.parentWatchSeconds) || handshake.parentWatchSeconds < 1)) {
      bad('handshake.parentWatchSeconds', handshake.parentWatchSeconds, 'must be an integer >= 1');
    }
    const inRunner = handshake.inRunner;
    if (inRunner) {
      if (!inRunner.nodeRoot.startsWith('/') || inRunner.nodeRoot.endsWith('/')) bad('handshake.inRunner.nodeRoot', inRunner.nodeRoot, 'must be an absolute path without a trailing slash');
      if (inRunner.args.length === 0) bad('handshake.inRunner.args', '[]', 'must hold at least the program');
      // The EXIT trap's file is what ends the handshake as this container exits.
      if (handshake.exitFile === undefined) bad('handshake.exitFile', '(none)', 'is needed with handshake.inRunner');
    }
  }
  return errors;
}

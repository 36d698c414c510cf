/** Builds the entrypoint scripts' model from resolved props. */
import { CERTIFICATE_MOUNT_DIR, CERTIFICATE_SECRET_KEY } from '../../core/certificate-contract';
import { hostname, rangeHostlist } from '../../core/hostlist';
import { ENTRYPOINT_MOUNT_DIR } from '../../core/paths';
import { WORKER_RC_PLANS } from '../../core/worker-rc-plans';
import { HandshakeScriptModel, LeadMode, ScriptModel } from '../../scripts/model';
import { leadReadyChildren, nodeTaskFlags, resourceEncodeArgs, ResolvedMiniCluster } from './resolve';
import { AUTOSCALE_DIR } from '../../core/autoscale-contract';
import { resolveAutoscale } from './autoscale';

/** Restarts allowed to a worker broker when no successPolicy reaps workers. */
const BOUNDED_WORKER_RESTARTS = 10;

export function scriptModel(r: ResolvedMiniCluster, brokerToml: string, brokerTables: readonly string[], brokerOptions: string[], handshake?: HandshakeScriptModel): ScriptModel {
  const c = r.runner;
  const script = blankToUndefined(c.commands?.script);
  const command = blankToUndefined(c.command);
  // As in the operator, an empty command means an interactive lead broker.
  const hasWork = command !== undefined || script !== undefined;
  const leadMode = !hasWork ? LeadMode.INTERACTIVE
    : c.launcher ? LeadMode.LAUNCHER
      : c.batch ? LeadMode.BATCH
        : LeadMode.SUBMIT;
  const words = (...parts: Array<string | undefined>) => parts.filter((s): s is string => !!s && s.trim() !== '').join(' ');
  const debugFlag = r.debug ? '-vvv' : undefined;
  const autoscale = resolveAutoscale(r);
  return {
    clusterName: r.name,
    // The lead is up once its TBON children among the quorum's ranks (broker.quorum) connected.
    readiness: { fluxPort: r.brokerPort, leadChildren: leadReadyChildren(r) },
    leadHostname: hostname(r.name, 0),
    hostlist: rangeHostlist(r.name, r.maxSize),
    size: r.size,
    maxSize: r.maxSize,
    mountPath: r.mountPath,
    viewDisabled: r.viewDisabled,
    viewImageVolume: r.viewImageVolume,
    viewCheckInRunner: r.viewCheckInRunner,
    viewImage: r.viewImage,
    pythonPath: r.props.flux?.container?.pythonPath,
    brokerToml,
    scriptsDir: ENTRYPOINT_MOUNT_DIR,
    certificatePath: `${CERTIFICATE_MOUNT_DIR}/${CERTIFICATE_SECRET_KEY}`,
    brokerOptions,
    resourceEncodeArgs: resourceEncodeArgs(c),
    fluxEnvironment: Object.entries(r.props.flux?.environment ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)),
    simpleScheduler: r.simpleScheduler,
    workerRcPlans: workerRcApplies(brokerTables, brokerOptions) ? WORKER_RC_PLANS : [],
    quiet: r.quiet,
    strict: r.strict,
    timed: r.timed,
    archivePath: r.props.archive?.path,
    leadMode,
    command,
    script,
    commands: {
      init: c.commands?.init,
      pre: c.commands?.pre,
      brokerPre: c.commands?.brokerPre,
      workerPre: c.commands?.workerPre,
      post: c.commands?.post,
      prefix: c.commands?.prefix,
    },
    batchRaw: c.batchRaw ?? false,
    logsDir: c.logs ?? '/tmp/fluxout',
    workingDir: c.workingDir,
    submitCommand: r.submitCommand,
    submitFlags: words(nodeTaskFlags(r.size, r.tasks), r.props.flux?.optionFlags, debugFlag),
    batchJobFlags: words(r.props.flux?.optionFlags, debugFlag),
    wrap: r.props.flux?.wrap,
    interactive: r.interactive,
    completeWorkers: r.completeWorkers,
    // Without successPolicy a worker's clean exit is how its index completes.
    workerRejoins: r.features.successPolicy && !r.completeWorkers,
    elastic: r.maxSize > (r.minSize ?? r.size),
    // With successPolicy the Job reaps workers when the lead ends; otherwise bound the loop.
    workerMaxRestarts: r.features.successPolicy ? 0 : BOUNDED_WORKER_RESTARTS,
    workerRestartDelaySeconds: 5,
    handshake,
    autoscale: autoscale ? { dir: AUTOSCALE_DIR, periodSeconds: autoscale.periodSeconds } : undefined,
    sidecars: r.props.containers
      .filter((x, i) => i !== r.runnerIndex && !x.noWrapEntrypoint)
      .map((x) => ({ name: x.name!, command: x.command, commands: { init: x.commands?.init, pre: x.commands?.pre, post: x.commands?.post, servicePre: x.commands?.servicePre } })),
  };
}

/** Broker config tables that change what flux-modprobe loads on workers: [systemd] adds the sdbus modules, [modules] edits any module. */
const TABLES_CHANGING_WORKER_MODULES = ['systemd', 'modules'];

/**
 * Whether worker-rc.sh may stand in for a worker's flux-modprobe: not with a broker config table
 * that changes the workers' modules, nor when the broker options set rc1 or rc3 themselves.
 */
function workerRcApplies(brokerTables: readonly string[], brokerOptions: readonly string[]): boolean {
  if (brokerOptions.some((o) => /^-Sbroker\.rc[13]_path=/.test(o))) return false;
  return !brokerTables.some((t) => TABLES_CHANGING_WORKER_MODULES.includes(t));
}

function blankToUndefined(s: string | undefined): string | undefined {
  return s === undefined || s.trim() === '' ? undefined : s;
}

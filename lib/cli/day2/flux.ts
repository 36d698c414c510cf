/** `flux NAME -- ARGS...`: runs `flux ARGS` in the lead's Flux container, as `kubectl exec` would. */
import type * as k8s from '@kubernetes/client-node';
import { Command } from 'commander';
import { FLUX_VIEW_ANNOTATION } from '../../core/day2-contract';
import { fluxPaths } from '../../core/paths';
import { findClusterJob, podOfRank } from './cluster';
import { Readable, Writable } from 'stream';
import { connect, Kube, KubeOptions, request } from './kube';
import { fluxContainerName } from './model';
import { connectionOptions, day2Action, parseCount, withConnectionOptions } from './options';

const HELP = `
The command runs with the Flux view's environment (. <mountPath>/flux-view.sh) and FLUX_URI set
to the broker's local socket, as the container's user. Exits with the command's exit code.

Examples:
  $ kubectl minicluster flux flux-sample -- resource list
  $ kubectl minicluster flux flux-sample -- run -N2 hostname
  $ kubectl minicluster flux flux-sample -- jobs -a
`;

interface FluxOptions extends KubeOptions {
  readonly rank: string;
  readonly stdin?: boolean;
}

/** In `sh -c`, with the view script as $0: the Flux view's environment and FLUX_URI at the broker. */
export const FLUX_VIEW_ENV = '. "$0" && FLUX_URI="$fluxsocket" && export FLUX_URI';

/** The command run in the container: source the view, point FLUX_URI at the broker, exec flux. */
export function fluxCommandLine(viewScript: string, args: string[]): string[] {
  return ['/bin/sh', '-c', `${FLUX_VIEW_ENV} && exec flux "$@"`, viewScript, ...args];
}

/** The cluster's Flux view script (the Job's flux-view annotation; the default mount's for older Jobs). */
export function viewScriptOf(job: k8s.V1Job): string {
  return job.metadata?.annotations?.[FLUX_VIEW_ANNOTATION] ?? fluxPaths('/mnt/flux').viewScript;
}

/** Where a command run by execIn reads and writes. */
export interface ExecStreams {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdin: Readable | null;
  /** Names the CLI in its own error messages. */
  readonly program: string;
}

/**
 * Runs `command` in a container of `pod`, as `kubectl exec` does: resolves to its exit code (1,
 * with a message on stderr, when the session ends without one).
 */
export async function execIn(kube: Kube, pod: string, container: string, command: string[], io: ExecStreams): Promise<number> {
  let status: { status?: string; message?: string; reason?: string; details?: { causes?: Array<{ reason?: string; message?: string }> } } | undefined;
  const socket = await request(kube, { verb: 'create', resource: 'pods/exec', name: pod }, () => new kube.lib.Exec(kube.config).exec(
    kube.namespace, pod, container, command, io.stdout, io.stderr, io.stdin, false, (s) => {
      status = s as typeof status;
    }));
  await new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
  if (!status) {
    io.stderr.write(`${io.program}: error: the exec session ended without an exit status\n`);
    return 1;
  }
  if (status.status === 'Success') return 0;
  const exitCode = status.details?.causes?.find((c) => c.reason === 'ExitCode')?.message;
  if (exitCode !== undefined && /^\d+$/.test(exitCode)) return Number(exitCode);
  io.stderr.write(`${io.program}: error: ${status.message ?? status.reason ?? 'the command failed'}\n`);
  return 1;
}

export function fluxCommand(program: string): Command {
  return withConnectionOptions(new Command('flux'))
    .description("run a flux command in the lead broker's container (e.g. flux resource list)")
    .argument('<name>', 'MiniCluster (Job or cluster name)')
    .argument('<args...>', 'arguments of flux (after --)')
    .option('-r, --rank <n>', 'run it on this rank instead of the lead', '0')
    .option('-i, --stdin', 'pass stdin to the command')
    .addHelpText('after', HELP)
    .action(day2Action(program, async (clusterName: string, args: string[], options: FluxOptions) => {
      const rank = parseCount('--rank', options.rank);
      const kube = connect(connectionOptions(options));
      const job = await findClusterJob(kube, clusterName);
      const pod = (await podOfRank(kube, job, rank)).metadata!.name!;
      return execIn(kube, pod, fluxContainerName(job), fluxCommandLine(viewScriptOf(job), args), {
        stdout: process.stdout, stderr: process.stderr, stdin: options.stdin ? process.stdin : null, program,
      });
    }));
}

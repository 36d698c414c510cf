/**
 * Shrinking and growing an elastic cluster without failing a Flux job. Before the Job is shrunk,
 * Flux drains the ranks given up, waits until they run no job, and leaves the released marker on
 * each one that is up (fluxPaths().releasedMarker): their entrypoint then exits 0, a clean end
 * (stopped otherwise, it would exit 75, which the Job's podFailurePolicy ignores). Growing undrains
 * the ranks again.
 */
import * as path from 'path';
import type * as k8s from '@kubernetes/client-node';
import { Writable } from 'stream';
import { fluxPaths } from '../../core/paths';
import { podOfRank } from './cluster';
import { Day2Error, EXIT } from './errors';
import { formatIdset, idRange } from '../../core/idset';
import { execIn, ExecStreams, FLUX_VIEW_ENV, viewScriptOf } from './flux';
import { Kube } from './kube';
import { fluxContainerName } from './model';

/** The drain reason Flux shows for ranks a shrink gave up (`flux resource drain`). */
export const SCALE_DRAIN_REASON = 'released by kubectl minicluster scale';

/**
 * Runs in the lead's Flux container with the view's environment: $1 the ranks, $2 the marker,
 * $3 how long (s) to wait for their jobs. Exit 3: still busy then.
 */
export const RELEASE_SCRIPT = [
  'ranks=$1 marker=$2 wait=$3 waited=0',
  `flux resource drain -u "$ranks" '${SCALE_DRAIN_REASON}' || exit 1`,
  `while busy=$(flux resource status -s draining -i "$ranks" -no '{ranks}') && [ -n "$busy" ]; do`,
  '  if [ "$waited" -ge "$wait" ]; then echo "ranks $busy still run jobs after ${wait}s" >&2; exit 3; fi',
  '  sleep 1; waited=$((waited + 1))',
  'done',
  // Offline ranks have no broker to mark (a pod not started yet ends without an exit code).
  `online=$(flux resource status -s online -i "$ranks" -no '{ranks}') || exit 1`,
  'if [ -n "$online" ]; then flux exec -r "$online" touch "$marker" || exit 1; fi',
].join('\n');

/** Runs after growing: the new ranks may still be drained from an earlier shrink. */
export const UNDRAIN_SCRIPT = 'flux resource undrain -u "$1"';

/** The command line that runs `script` with `args` under the Flux view's environment. */
export function leadScriptCommand(viewScript: string, script: string, args: string[]): string[] {
  return ['/bin/sh', '-c', `${FLUX_VIEW_ENV} && {\n${script}\n}`, viewScript, ...args];
}

function collect(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  return {
    stream: new Writable({ write(chunk, _enc, done) { chunks.push(Buffer.from(chunk)); done(); } }),
    text: () => Buffer.concat(chunks).toString('utf8').trim(),
  };
}

async function runInLead(kube: Kube, job: k8s.V1Job, script: string, args: string[], program: string): Promise<{ code: number; stderr: string }> {
  const pod = (await podOfRank(kube, job, 0)).metadata!.name!;
  const out = collect();
  const err = collect();
  const io: ExecStreams = { stdout: out.stream, stderr: err.stream, stdin: null, program };
  const code = await execIn(kube, pod, fluxContainerName(job), leadScriptCommand(viewScriptOf(job), script, args), io);
  return { code, stderr: err.text() };
}

/** Drains ranks from..to-1, waits up to `waitSeconds` for their jobs, and marks them released. */
export async function releaseRanks(kube: Kube, job: k8s.V1Job, from: number, to: number, waitSeconds: number, program: string): Promise<void> {
  const marker = fluxPaths(path.posix.dirname(viewScriptOf(job))).releasedMarker;
  const ranks = formatIdset(idRange(from, to));
  const { code, stderr } = await runInLead(kube, job, RELEASE_SCRIPT, [ranks, marker, String(waitSeconds)], program);
  if (code === 3) throw new Day2Error(EXIT.TIMEOUT, `cannot shrink ${job.metadata!.name}: ${stderr} (drained: they take no new job; run scale again once they are done)`);
  if (code !== 0) throw new Day2Error(EXIT.JOB_FAILED, `cannot release ranks ${ranks} of ${job.metadata!.name} in Flux (exit ${code}): ${stderr}`);
}

/**
 * Undrains ranks from..to-1 (an earlier shrink drained them) before they come back. Returns a
 * problem instead of failing: growing goes on, and `flux resource undrain` can be run later.
 */
export async function undrainRanks(kube: Kube, job: k8s.V1Job, from: number, to: number, program: string): Promise<string | undefined> {
  const ranks = formatIdset(idRange(from, to));
  try {
    const { code, stderr } = await runInLead(kube, job, UNDRAIN_SCRIPT, [ranks], program);
    return code === 0 ? undefined : `flux resource undrain ${ranks} failed (exit ${code}): ${stderr}`;
  } catch (e) {
    return `flux resource undrain ${ranks} failed: ${(e as Error).message}`;
  }
}

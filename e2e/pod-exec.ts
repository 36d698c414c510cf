/**
 * `kubectl exec` for podemu's pods, which have no API server: runs a command inside a running
 * container (its namespaces, root, user and environment) with nsenter. Only root can do this.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';

/** Result of a command run in a pod. */
export interface ExecResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function link(file: string): string | undefined {
  try {
    return fs.readlinkSync(file);
  } catch {
    return undefined;
  }
}

function environ(pid: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const entry of (read(`/proc/${pid}/environ`) ?? '').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) vars.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return vars;
}

function statusField(pid: string, field: string): string[] {
  const line = (read(`/proc/${pid}/status`) ?? '').split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? line.slice(field.length + 1).trim().split(/\s+/) : [];
}

/**
 * The PID (as the host sees it) of the first process of the container whose environment has
 * HOSTNAME=`hostname` and a process named `comm` (e.g. `flux-broker-0`); undefined if none runs.
 */
export function findContainerInit(hostname: string, comm: string): string | undefined {
  const pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  const match = pids.find((p) => read(`/proc/${p}/comm`)?.trim() === comm && environ(p).get('HOSTNAME') === hostname);
  if (!match) return undefined;
  // The container's PID 1 in the same PID namespace: its environment is the container's own.
  const pidNs = link(`/proc/${match}/ns/pid`);
  return pids.find((p) => link(`/proc/${p}/ns/pid`) === pidNs && statusField(p, 'NSpid').at(-1) === '1') ?? match;
}

/** Runs `bash -c script` in the container whose PID 1 is `pid`, as its user, with its environment. */
export function execInContainer(pid: string, script: string, timeoutSeconds = 120): ExecResult {
  const [uid] = statusField(pid, 'Uid');
  const [gid] = statusField(pid, 'Gid');
  const env = [...environ(pid)].map(([k, v]) => `${k}=${v}`);
  const result = spawnSync('nsenter', [
    '-t', pid, '-m', '-u', '-i', '-n', '-p', '-r', '-w', '-S', uid, '-G', gid, '--',
    '/usr/bin/env', '-i', ...env, '/bin/bash', '-c', script,
    // stdin from /dev/null: on a socket (libuv's default pipes) bash takes itself for an rsh session
    // and reads the image's ~/.bashrc, which kubectl exec does not.
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutSeconds * 1000, maxBuffer: 16 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout ?? '', stderr: `${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

/**
 * Sidecar lifecycle: the handshake ends with the Flux runner. The kubelet stops a native sidecar
 * only after it has seen the main container end, and sees the sidecar's own end one status cycle
 * (about a second) later; the pod turns Succeeded, and the Job completes, that much later than with
 * no sidecar. The runner's entrypoint creates a file as it exits (an EXIT trap); the handshake,
 * watching for it, exits in the same cycle. A runner killed without its trap (SIGKILL, OOM)
 * leaves no file: the kubelet then stops the handshake as before.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * Makes the file's directory, writable by every user, before the runner starts: the kubelet would
 * create it for the runner's subPath mount with the volume root's mode, but a runner running as
 * another user than the handshake must be able to write there whoever created it. Best effort:
 * without it the kubelet stops the handshake as before.
 */
export function prepareRunnerExitDir(file: string): void {
  const dir = path.dirname(file);
  try {
    // Not recursive: its parent is the handshake's own volume, which exists.
    if (!fs.existsSync(dir)) fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
  } catch {
    // a read-only or foreign directory: the watch still works if the runner can write there
  }
}

/**
 * How often the file is looked for besides the directory watch (inotify), which says at once when
 * it appears: a fallback, for a filesystem that sends no events. Polling alone at 100 ms woke every
 * pod's sidecar ten times a second; at 128 pods on two CPUs that is 1280 wakeups a second.
 */
export const RUNNER_EXIT_POLL_MS = 2000;

/** Calls `onExit` once `file` exists (at once if it already does); returns a function that stops watching. */
export function watchRunnerExit(file: string, onExit: () => void, pollMs: number = RUNNER_EXIT_POLL_MS): () => void {
  let stopped = false;
  let watcher: fs.FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    stopped = true;
    watcher?.close();
    clearInterval(timer);
  };
  const check = (): boolean => {
    if (stopped || !fs.existsSync(file)) return false;
    stop();
    onExit();
    return true;
  };
  try {
    watcher = fs.watch(path.dirname(file), { persistent: true }, (_event, name) => {
      if (name === null || name === path.basename(file)) check();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // No watch (the directory is missing, no inotify): the poll alone.
  }
  if (check()) return () => undefined;
  timer = setInterval(check, pollMs);
  return stop;
}

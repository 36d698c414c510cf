/**
 * Sidecar lifecycle: the handshake ends with the Flux runner. The kubelet stops a native sidecar
 * only after it has seen the main container end, and sees the sidecar's own end one status cycle
 * (about a second) later; the pod turns Succeeded, and the Job completes, that much later than with
 * no sidecar. The runner's entrypoint creates a file as it exits (an EXIT trap); the handshake,
 * watching for it, exits in the same cycle. A runner killed without its trap (SIGKILL, OOM)
 * leaves no file: the kubelet then stops the handshake as before.
 */
import * as fs from 'fs';

/** How often the file is looked for: a stat, cheap beside the kubelet's one-second cycle. */
export const RUNNER_EXIT_POLL_MS = 100;

/** Calls `onExit` once `file` exists (at once if it already does); returns a function that stops watching. */
export function watchRunnerExit(file: string, onExit: () => void, pollMs: number = RUNNER_EXIT_POLL_MS): () => void {
  let stopped = false;
  const check = (): boolean => {
    if (stopped || !fs.existsSync(file)) return false;
    stopped = true;
    onExit();
    return true;
  };
  if (check()) return () => undefined;
  const timer = setInterval(() => {
    if (check()) clearInterval(timer);
  }, pollMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

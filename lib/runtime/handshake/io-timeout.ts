import * as net from 'net';

/**
 * Timeouts that judge a peer only after reading what it already sent.
 *
 * Node runs expired timers before it polls for I/O. A process that got no CPU for longer than a
 * timeout (a node at full load: 128 pods on two CPUs) wakes with the timer due and the peer's answer
 * waiting in the socket, and a plain setTimeout fails a connection that did answer. Every retry of
 * such a failure costs the starved process more work, until nothing gets through (the lead's
 * handshake server stuck at 96 of 127 registrations for 18 minutes). Deferring the verdict with
 * setImmediate lets the poll phase deliver the pending answer first.
 */
export interface IoTimeout {
  clear(): void;
}

/** Calls `onTimeout` once `ms` passed and the I/O pending at that moment was read, unless cleared. */
export function ioTimeout(ms: number, onTimeout: () => void): IoTimeout {
  let cleared = false;
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => {
    immediate = setImmediate(() => {
      if (!cleared) onTimeout();
    });
  }, ms);
  return {
    clear() {
      cleared = true;
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    },
  };
}

/** Errors that say a peer did not answer in time: the peer or this process is overloaded. */
export function isTimeout(err: unknown): boolean {
  const e = err as { kind?: string; code?: string } | undefined;
  return e?.kind === 'timeout' || e?.code === 'ETIMEDOUT';
}

/** Connects to `ip:port`; rejects with code ETIMEDOUT when no connection was made within `ms` (judged as ioTimeout does). */
export function connectWithin(ip: string, port: number, ms: number): Promise<net.Socket> {
  const socket = net.connect({ host: ip, port });
  return new Promise((resolve, reject) => {
    const timer = ioTimeout(ms, () => {
      socket.destroy();
      reject(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' }));
    });
    socket.once('connect', () => {
      timer.clear();
      resolve(socket);
    });
    socket.once('error', (e) => {
      timer.clear();
      reject(e);
    });
  });
}

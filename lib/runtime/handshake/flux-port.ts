import * as net from 'net';
import { connectWithin, ioTimeout } from './io-timeout';

/**
 * The Flux broker port speaks ZMTP (libzmq). Both ends of a ZMTP connection write a 10-byte
 * signature as soon as it is open, before reading anything: 0xFF, 8 bytes (a ZMTP 1.0 length
 * field) and 0x7F. The late-join path (late-join.ts) uses it to tell a running broker from
 * anything else on that port, in particular from rank 0's own waiting handshake, which holds the
 * port (FluxPortWatch) but never writes to it.
 */
export const ZMTP_SIGNATURE_BYTES = 10;
/** How long a peer has to send its signature once connected. */
export const ZMTP_SIGNATURE_TIMEOUT_MS = 3000;
const CONNECT_TIMEOUT_MS = 3000;
/** Connections FluxPortWatch reads at once; more are closed unread (a flood cannot grow memory). */
const MAX_WATCHED_CONNECTIONS = 64;
/** Registered pods' connections held at once (rank 0's TBON children; more are closed). */
const MAX_HELD_CONNECTIONS = 4096;

export function isZmtpSignature(bytes: Buffer): boolean {
  return bytes.length >= ZMTP_SIGNATURE_BYTES && bytes[0] === 0xff && bytes[ZMTP_SIGNATURE_BYTES - 1] === 0x7f;
}

/** Resolves with the first ZMTP_SIGNATURE_BYTES bytes the peer sends; rejects with a short reason. */
function readSignature(socket: net.Socket, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const done = (e?: Error): void => {
      timer.clear();
      socket.removeListener('data', onData);
      socket.removeListener('close', onClose);
      if (e) reject(e);
      else resolve(got.subarray(0, ZMTP_SIGNATURE_BYTES));
    };
    const onData = (d: Buffer): void => {
      got = Buffer.concat([got, d]);
      if (got.length >= ZMTP_SIGNATURE_BYTES) done();
    };
    const onClose = (): void => done(new Error('closed before a ZMTP greeting'));
    const timer = ioTimeout(timeoutMs, () => done(new Error(`no ZMTP greeting within ${timeoutMs / 1000}s`)));
    socket.on('data', onData);
    socket.once('close', onClose);
  });
}

/**
 * Connects to `ip:port` and resolves if a ZMTP peer (a Flux broker) answers there; rejects with
 * an error whose `code` or message says why not (ECONNREFUSED, ETIMEDOUT, no greeting, ...).
 * Closes before sending anything, so the broker only sees a connection that went away.
 */
export async function probeFluxBroker(ip: string, port: number): Promise<void> {
  const socket = await connectWithin(ip, port, CONNECT_TIMEOUT_MS);
  socket.on('error', () => undefined);
  try {
    const signature = await readSignature(socket, ZMTP_SIGNATURE_TIMEOUT_MS);
    if (!isZmtpSignature(signature)) throw new Error('answered without a ZMTP greeting (not a Flux broker)');
  } finally {
    socket.destroy();
  }
}

/** What FluxPortWatch asks and tells about each connection. */
export interface FluxPortWatchHandlers {
  /** True for a registered pod's address: its broker dials its parent (this pod) too early. */
  isMember(ip: string): boolean;
  /** A registered pod connected; its connection is held open, unread. */
  onMember(ip: string): void;
  /** Anyone else: `zmtp` is true when it sent a ZMTP signature. */
  onStranger(ip: string, zmtp: boolean): void;
}

/**
 * Holds the Flux port while rank 0's handshake waits (init lifecycle) and reports who connects:
 * a broker that still runs from before a replacement keeps dialing its parent's address, and once
 * it points at this pod its ZMTP signature arrives here. Never writes. A registered pod's broker
 * (rank 0's children start theirs before rank 0's handshake is done) is held open and unread, so
 * libzmq waits for a greeting instead of redialing every 100 ms; everything else is closed once
 * its signature was read (or not).
 */
export class FluxPortWatch {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly held = new Set<net.Socket>();

  constructor(private readonly handlers: FluxPortWatchHandlers) {
    this.server = net.createServer((s) => this.accept(s));
  }

  listen(host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host, port, exclusive: true }, () => resolve());
    });
  }

  /** Closes the port and every connection: held brokers redial at once and reach the real broker. */
  close(): void {
    this.server.close();
    for (const s of [...this.sockets, ...this.held]) s.destroy();
  }

  private accept(socket: net.Socket): void {
    socket.on('error', () => undefined);
    const ip = unmapped(socket.remoteAddress ?? '');
    if (this.handlers.isMember(ip)) {
      this.handlers.onMember(ip);
      if (this.held.size >= MAX_HELD_CONNECTIONS) return void socket.destroy();
      socket.pause();
      this.held.add(socket);
      socket.once('close', () => this.held.delete(socket));
      return;
    }
    if (this.sockets.size >= MAX_WATCHED_CONNECTIONS) return void socket.destroy();
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    readSignature(socket, ZMTP_SIGNATURE_TIMEOUT_MS).then(
      (signature) => this.handlers.onStranger(ip, isZmtpSignature(signature)),
      () => this.handlers.onStranger(ip, false),
    ).finally(() => socket.destroy());
  }
}

/** `::ffff:10.0.0.1` -> `10.0.0.1`, as pods register their IPv4 address. */
function unmapped(ip: string): string {
  return ip.startsWith('::ffff:') && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
}

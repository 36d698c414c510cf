import * as net from 'net';
import { HANDSHAKE_EXIT_BIND_PORT } from '../../core/handshake-contract';
import { AuthError, Channel, MAX_AUTH_TIMEOUT_MS, Message, authenticateClient } from './channel';
import { HandshakeFailure } from './failure';
import { HandshakeKeys } from './keys';
import { Logger } from './log';

/** Bounds that keep a flood of connections or garbage from exhausting the process. */
export interface ServerLimits {
  /** Connections still in the challenge-response (each lives at most MAX_AUTH_TIMEOUT_MS). */
  readonly maxPending: number;
  /** All open connections. */
  readonly maxTotal: number;
}

export function serverLimits(maxSize: number): ServerLimits {
  // Each peer holds at most two sessions (directory and parent check); pending ones are short. Every
  // pod may be pending at once when rank 0 appears last: a lower bound would turn members away.
  return { maxPending: Math.max(512, maxSize), maxTotal: 2 * maxSize + 512 };
}

/** Remembers which rejections were already logged, so a flood logs a few lines, not one per try. */
class RejectionLog {
  private seen = new Set<string>();
  private suppressed = 0;
  constructor(private readonly log: Logger) {}

  note(kind: string, remote: string | undefined, detail: Record<string, unknown>): void {
    const key = `${kind}/${remote}`;
    if (this.seen.has(key) || this.seen.size >= 64) {
      this.suppressed++;
      return;
    }
    this.seen.add(key);
    this.log.warn('peer-rejected', { kind, remote, ...detail, alreadySuppressed: this.suppressed });
  }
}

/**
 * The handshake server every pod runs: it authenticates each connection and hands the resulting
 * channel to `onSession`. It never trusts anything before authentication.
 */
export class HandshakeServer {
  private readonly server: net.Server;
  private pending = 0;
  private total = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly rejections: RejectionLog;

  constructor(
    private readonly keys: HandshakeKeys,
    /** Who this server is, sent in every challenge. */
    private readonly welcome: Message,
    private readonly limits: ServerLimits,
    log: Logger,
    private readonly onSession: (ch: Channel) => void,
    private readonly onMismatch: (claimedRank: number | undefined, fingerprint: string | undefined) => void,
  ) {
    this.rejections = new RejectionLog(log);
    this.server = net.createServer((s) => this.accept(s));
  }

  listen(host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', (e: NodeJS.ErrnoException) => reject(new HandshakeFailure(HANDSHAKE_EXIT_BIND_PORT,
        `cannot listen on the handshake port ${host}:${port}: ${e.code ?? e.message}`)));
      this.server.listen({ host, port, backlog: 4096 }, () => resolve());
    });
  }

  close(): void {
    this.server.close();
    for (const s of this.sockets) s.destroy();
  }

  private accept(socket: net.Socket): void {
    if (this.pending >= this.limits.maxPending || this.total >= this.limits.maxTotal) {
      this.rejections.note('over-limit', socket.remoteAddress, { pending: this.pending, total: this.total });
      socket.destroy();
      return;
    }
    this.pending++;
    this.total++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.once('close', () => {
      this.total--;
      this.sockets.delete(socket);
    });
    let counted = true;
    const settle = (): void => {
      if (counted) this.pending--;
      counted = false;
    };
    socket.once('close', settle);
    authenticateClient(socket, this.keys, this.welcome, MAX_AUTH_TIMEOUT_MS).then((ch) => {
      settle();
      this.onSession(ch);
    }, (e: AuthError) => {
      settle();
      if (e.kind === 'mismatch') this.onMismatch(e.claimedRank, e.peerFingerprint);
      this.rejections.note(e.kind, e.remote, { reason: e.message, claimedRank: e.claimedRank });
    });
  }
}

import * as net from 'net';
import { IoTimeout, ioTimeout } from './io-timeout';
import { HandshakeKeys, hmac, macEqual, nonce } from './keys';

/**
 * The wire protocol: newline-delimited JSON, at most MAX_FRAME_BYTES per line.
 *
 *   C→S  {"t":"hello","v":2,"nc":<client nonce>,"fp":<fingerprint>,"rank":<claimed rank>}
 *   S→C  {"t":"challenge","v":2,"ns":<server nonce>,"fp":<fingerprint>,"peer":<the server's entry, JSON text>,
 *         "mac":HMAC(K,"s",nc,ns,fp,peer)}
 *   C→S  {"t":"auth","mac":HMAC(K,"c",ns,nc)} and the client's first session message in the same write
 *
 * Both nonces are fresh per connection, so no recorded message verifies again (no replay). After
 * that every line is `<mac> <json>` with mac = HMAC(Ks, sender, seq, json), Ks = HMAC(K, "session",
 * nc, ns), so an on-path attacker can neither forge, reorder nor replay messages. K never travels.
 */
export const MAX_FRAME_BYTES = 4096;
/** A hello or an auth frame is ~200 bytes: before a client proved the key it may buffer no more. */
export const PRE_AUTH_FRAME_BYTES = 1024;
/** The whole challenge-response, not each of its reads: a client's first try. */
export const AUTH_TIMEOUT_MS = 5000;
/**
 * The longest wait for a challenge-response. A client doubles its wait after each timeout up to
 * this, and a handshake server waits this long for its clients: a lead whose pod gets a 128th of two
 * CPUs answers late, and a try abandoned at 5 s is work lost that the retry must do again.
 */
export const MAX_AUTH_TIMEOUT_MS = 60000;
/** Version 2: one session per pod with rank 0, joins reported by the parent. */
export const PROTOCOL_VERSION = 2;
const HEX64 = /^[0-9a-f]{64}$/;
const HEX32 = /^[0-9a-f]{32}$/;

export type AuthErrorKind = 'mismatch' | 'unauthenticated' | 'protocol' | 'closed' | 'timeout';

export class AuthError extends Error {
  /** The peer's address, read only when a connection fails (reading it for every one costs). */
  remote?: string;
  constructor(
    readonly kind: AuthErrorKind,
    message: string,
    readonly peerFingerprint?: string,
    readonly claimedRank?: number,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

export interface Message {
  readonly t: string;
  readonly [key: string]: unknown;
}

/**
 * Splits a socket into bounded lines; any violation destroys the socket. The first `preAuthLines`
 * lines are the challenge-response (capped at `preAuthBytes`, at most 4 queued); later ones are
 * session messages that may arrive with the last of them in one read, before the session listens.
 */
class LineSocket {
  // Raw bytes of the unfinished line; never more than MAX_FRAME_BYTES, so garbage costs little.
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private queue: string[] = [];
  private waiter: { resolve: (l: string) => void; reject: (e: Error) => void; timer: IoTimeout } | undefined;
  private listener: ((line: string) => void) | undefined;
  private closeListener: ((err: AuthError) => void) | undefined;
  private closed: AuthError | undefined;
  private linesSeen = 0;

  constructor(readonly socket: net.Socket, private readonly preAuthLines: number, private readonly preAuthBytes: number) {
    socket.on('data', (d: Buffer) => this.onData(d));
    socket.on('error', (e) => this.fail(new AuthError('closed', `connection error: ${(e as NodeJS.ErrnoException).code ?? e.message}`)));
    socket.on('close', () => this.fail(new AuthError('closed', 'connection closed')));
  }

  private onData(d: Buffer): void {
    let start = 0;
    while (!this.closed) {
      const nl = d.indexOf(10, start);
      const end = nl < 0 ? d.length : nl;
      const limit = this.linesSeen < this.preAuthLines ? this.preAuthBytes : MAX_FRAME_BYTES;
      if (this.partialBytes + end - start > limit) return this.abort(`frame longer than ${limit} bytes`);
      if (nl < 0) {
        if (end > start) {
          // Copy: keeping a slice would pin the whole 64 KiB read buffer.
          this.partial.push(Buffer.from(d.subarray(start, end)));
          this.partialBytes += end - start;
        }
        return;
      }
      const line = this.partial.length === 0
        ? d.toString('utf8', start, end)
        : Buffer.concat([...this.partial, d.subarray(start, end)]).toString('utf8');
      this.partial = [];
      this.partialBytes = 0;
      start = nl + 1;
      this.linesSeen++;
      this.deliver(line);
    }
  }

  private deliver(line: string): void {
    if (this.listener) return this.listener(line);
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.timer.clear();
      return w.resolve(line);
    }
    // During the challenge-response only one line is expected at a time. Session lines queue only
    // within the read that finished authentication (the session listens right after), so a read's
    // size bounds them; the cap only stops a pathological one.
    if (this.queue.length >= (this.linesSeen <= this.preAuthLines ? 4 : 1024)) return this.abort('too many unsolicited frames');
    this.queue.push(line);
  }

  abort(reason: string): void {
    this.fail(new AuthError('protocol', reason));
  }

  private fail(err: AuthError): void {
    if (this.closed) return;
    this.closed = err;
    this.partial = [];
    this.queue = [];
    // Unknown once the peer has closed: the socket has no handle left to ask.
    err.remote ??= this.socket.remoteAddress;
    this.socket.destroy();
    if (this.waiter) {
      this.waiter.timer.clear();
      this.waiter.reject(err);
      this.waiter = undefined;
    }
    this.closeListener?.(err);
  }

  next(timeoutMs: number): Promise<string> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift()!);
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      const timer = ioTimeout(timeoutMs, () => this.fail(new AuthError('timeout', `no answer within ${timeoutMs} ms`)));
      this.waiter = { resolve, reject, timer };
    });
  }

  listen(onLine: (line: string) => void, onClose: (err: AuthError) => void): void {
    this.listener = onLine;
    this.closeListener = onClose;
    if (this.closed) return onClose(this.closed);
    for (const l of this.queue.splice(0)) onLine(l);
  }

  write(text: string): void {
    if (this.closed) return;
    this.socket.write(text);
  }
}

function parse(line: string): Message {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new AuthError('protocol', 'frame is not JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof (v as { t?: unknown }).t !== 'string') {
    throw new AuthError('protocol', 'frame is not a message object');
  }
  return v as Message;
}

/** An authenticated connection: every message is MAC'd and sequenced. */
export class Channel {
  private sendSeq = 0;
  private recvSeq = 0;
  /** Frames sent while a message is being handled leave together in one write. */
  private outbox: string[] | undefined;

  constructor(
    private readonly lines: LineSocket,
    private readonly sessionKey: Buffer,
    private readonly role: 'c' | 's',
  ) {}

  get remoteAddress(): string | undefined {
    return this.lines.socket.remoteAddress;
  }

  send(msg: Message): void {
    const frame = this.frame(msg);
    if (this.outbox) this.outbox.push(frame);
    else this.lines.write(frame);
  }

  frame(msg: Message): string {
    const json = JSON.stringify(msg);
    return `${hmac(this.sessionKey, this.role, String(this.sendSeq++), json)} ${json}\n`;
  }

  /** Runs `fn`, sending whatever it sends in one write. */
  batch(fn: () => void): void {
    const outer = this.outbox;
    this.outbox = outer ?? [];
    try {
      fn();
    } finally {
      if (!outer) {
        const frames = this.outbox;
        this.outbox = undefined;
        if (frames.length > 0) this.lines.write(frames.join(''));
      }
    }
  }

  /** Reads one message (used right after authentication). */
  async next(timeoutMs: number): Promise<Message> {
    return this.open(await this.lines.next(timeoutMs));
  }

  /** Delivers every later message; a bad MAC or frame closes the connection. */
  listen(onMessage: (m: Message) => void, onClose: (err: AuthError) => void): void {
    this.lines.listen((line) => {
      let m: Message;
      try {
        m = this.open(line);
      } catch (e) {
        return this.lines.abort((e as Error).message);
      }
      this.batch(() => onMessage(m));
    }, onClose);
  }

  close(): void {
    closeGently(this.lines.socket);
  }

  destroy(): void {
    this.lines.socket.destroy();
  }

  private open(line: string): Message {
    const sp = line.indexOf(' ');
    const mac = line.slice(0, sp);
    const json = line.slice(sp + 1);
    const peer = this.role === 'c' ? 's' : 'c';
    if (sp < 0 || !macEqual(mac, hmac(this.sessionKey, peer, String(this.recvSeq), json))) {
      throw new AuthError('unauthenticated', 'message authentication failed');
    }
    this.recvSeq++;
    return parse(json);
  }
}

/** Flushes what was written, then closes; destroys after a second if the peer keeps it open. */
function closeGently(socket: net.Socket): void {
  socket.end();
  setTimeout(() => socket.destroy(), 1000).unref();
}

function sessionKey(keys: HandshakeKeys, nc: string, ns: string): Buffer {
  return Buffer.from(hmac(keys.authKey, 'session', nc, ns), 'hex');
}

/** An authenticated session, and who the server says it is (proved with the key). */
export interface ClientSession {
  readonly channel: Channel;
  readonly welcome: Message;
}

/** Client side: checks the server proves the key, proves it too, sends `first`; returns the session. */
export async function authenticateToServer(socket: net.Socket, keys: HandshakeKeys, claimedRank: number, first: Message, timeoutMs = AUTH_TIMEOUT_MS): Promise<ClientSession> {
  // The challenge carries the server's entry; this side only talks to servers it chose.
  const lines = new LineSocket(socket, 1, MAX_FRAME_BYTES);
  try {
    const nc = nonce();
    lines.write(`${JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, nc, fp: keys.fingerprint, rank: claimedRank })}\n`);
    const ch = parse(await lines.next(timeoutMs));
    if (ch.t !== 'challenge' || typeof ch.ns !== 'string' || !HEX64.test(ch.ns) || typeof ch.fp !== 'string'
      || typeof ch.peer !== 'string' || typeof ch.mac !== 'string') {
      throw new AuthError('protocol', 'expected a challenge');
    }
    if (ch.fp !== keys.fingerprint) {
      throw new AuthError('mismatch', `peer certificate fingerprint ${ch.fp} differs from ours ${keys.fingerprint}`, ch.fp);
    }
    if (!macEqual(ch.mac, hmac(keys.authKey, 's', nc, ch.ns, ch.fp, ch.peer))) {
      throw new AuthError('unauthenticated', 'the peer could not prove it holds the cluster key');
    }
    const welcome = parse(ch.peer);
    const channel = new Channel(lines, sessionKey(keys, nc, ch.ns), 'c');
    // The first message rides with the proof: one segment.
    lines.write(`${JSON.stringify({ t: 'auth', mac: hmac(keys.authKey, 'c', ch.ns, nc) })}\n${channel.frame(first)}`);
    return { channel, welcome };
  } catch (e) {
    socket.destroy();
    throw e;
  }
}

/**
 * Server side: challenges the client, telling it who this server is (`welcome`, not secret, proved
 * with the key); only a client that proves the key gets a channel.
 */
export async function authenticateClient(socket: net.Socket, keys: HandshakeKeys, welcome: Message, timeoutMs = AUTH_TIMEOUT_MS): Promise<Channel> {
  const lines = new LineSocket(socket, 2, PRE_AUTH_FRAME_BYTES);
  const deadline = Date.now() + timeoutMs;
  try {
    const hello = parse(await lines.next(timeoutMs));
    if (hello.t !== 'hello' || hello.v !== PROTOCOL_VERSION || typeof hello.nc !== 'string' || !HEX64.test(hello.nc)
      || typeof hello.fp !== 'string' || !HEX32.test(hello.fp)) {
      throw new AuthError('protocol', 'expected a hello');
    }
    const claimed = Number.isInteger(hello.rank) ? (hello.rank as number) : undefined;
    const ns = nonce();
    const peer = JSON.stringify(welcome);
    lines.write(`${JSON.stringify({ t: 'challenge', v: PROTOCOL_VERSION, ns, fp: keys.fingerprint, peer, mac: hmac(keys.authKey, 's', hello.nc, ns, keys.fingerprint, peer) })}\n`);
    if (hello.fp !== keys.fingerprint) {
      throw new AuthError('mismatch', `client certificate fingerprint ${hello.fp} differs from ours`, hello.fp, claimed);
    }
    const auth = parse(await lines.next(Math.max(1, deadline - Date.now())));
    if (auth.t !== 'auth' || typeof auth.mac !== 'string' || !macEqual(auth.mac, hmac(keys.authKey, 'c', ns, hello.nc))) {
      throw new AuthError('unauthenticated', 'the client could not prove it holds the cluster key', undefined, claimed);
    }
    return new Channel(lines, sessionKey(keys, hello.nc, ns), 's');
  } catch (e) {
    if (e instanceof AuthError) e.remote ??= socket.remoteAddress;
    // Let the challenge reach a mismatched client so it can report the mismatch itself.
    if (e instanceof AuthError && e.kind === 'mismatch') closeGently(socket);
    else socket.destroy();
    throw e;
  }
}

import {
  HANDSHAKE_EXIT_BIND_PORT, HANDSHAKE_EXIT_CERT_MISMATCH, HANDSHAKE_EXIT_DEADLINE, HANDSHAKE_EXIT_INTERNAL, HandshakeLifecycle, HandshakeMode,
} from '../../core/handshake-contract';
import { hostname as hostOf } from '../../core/hostlist';
import { childRanks, isInteriorRank, parentRank } from '../../core/topology';
import { AUTH_TIMEOUT_MS, AuthError, Channel, MAX_AUTH_TIMEOUT_MS, Message, authenticateToServer } from './channel';
import { checkBind, checkHostname, readCertificate } from './checks';
import { HandshakeConfig, podFqdn } from './config';
import { Directory, PeerEntry, entryOf, peerMessage } from './directory';
import { HandshakeFailure } from './failure';
import { connectWithin, isTimeout } from './io-timeout';
import { HandshakeKeys, deriveKeys } from './keys';
import { LateJoin, lateJoinFor } from './late-join';
import { ChangeLog, Logger } from './log';
import { OutDir, writeTerminationMessage } from './outputs';
import { ReadinessServer } from './readiness';
import { Backoff, ranksHostlist, sleep } from './ranks';
import { NameResolver, nameResolver, reasonOf } from './resolver';
import { HandshakeServer, serverLimits } from './server';

const CONNECT_TIMEOUT_MS = 3000;
const HOSTS_WRITE_DELAY_MS = 200;
/** How long a resolved directory address is reused across failed connects before a new lookup. */
const RESOLVED_REUSE_MS = 2000;
/** Directory session heartbeat: a ping every 10 s; silence for 35 s means rank 0 is gone. */
const HEARTBEAT_INTERVAL_MS = 10000;
const HEARTBEAT_TIMEOUT_MS = 35000;
/** Retries after a timeout (an overloaded peer): from about a second, up to 10 s, with jitter. */
const OVERLOAD_FIRST_MS = 1000;
const OVERLOAD_CAP_MS = 10000;

/** Thrown inside loops once the handshake has failed or stopped, to unwind quietly. */
class Stopped extends Error {}

/** How long a parent gathers its children's joins before reporting them to rank 0 in one frame. */
const JOIN_REPORT_DELAY_MS = 5;
/** Joins per report frame: `[rank,epoch],` is at most ~26 bytes, frames at most MAX_FRAME_BYTES. */
const JOINS_PER_FRAME = 100;

/**
 * One pod's hosts handshake. Every pod runs a handshake server; rank 0's is also the directory.
 * A rank is ready when (1) its local checks pass, (2) its TBON parent is registered, reachable at
 * its pod IP and proved the same certificate, (3) its required TBON children proved they reached
 * it, and, on rank 0, (4) every rank below the quorum did (2). A child of rank 0 proves (2) with
 * its directory session itself; any other rank with a session to its parent, which reports the
 * join to rank 0 (batched), so rank 0 handles one session per pod.
 */
export class Handshake {
  readonly rank: number;
  private readonly out: OutDir;
  private readonly resolver: NameResolver;
  private readonly self: PeerEntry;
  private readonly parentOf: number | undefined;
  private readonly requiredChildren: number[];
  private keys!: HandshakeKeys;
  private server?: HandshakeServer;
  private directory?: Directory;
  private directoryChannel?: Channel;
  private rank0?: PeerEntry;
  private parent?: PeerEntry;
  private parentCandidate?: PeerEntry;
  private parentGeneration = 0;
  /** How long the next challenge-response may take: doubled after each timeout (an overloaded peer), reset by a success. */
  private authWaitMs = AUTH_TIMEOUT_MS;
  /** TBON children that verified this rank, with the epoch (run) they did it in. */
  private readonly childrenSeen = new Map<number, number>();
  /** Joins of children not yet reported to rank 0. */
  private unreported = new Map<number, number>();
  private reportTimer?: NodeJS.Timeout;
  private readonly mismatchClaims = new Set<number>();
  private directoryReason = 'not tried yet';
  private parentReason = 'not tried yet';
  private deadlineTimer?: NodeJS.Timeout;
  private hostsTimer?: NodeJS.Timeout;
  private stopped = false;
  private ready = false;
  private readinessServer?: ReadinessServer;
  /** Init lifecycle: the late-join path (late-join.ts), and whether it ended the wait. */
  private lateJoin?: LateJoin;
  private late = false;
  private settle!: { resolve: () => void; reject: (e: HandshakeFailure) => void };
  /** Resolves when this rank is ready; rejects with the HandshakeFailure that ended it. */
  readonly outcome: Promise<void>;

  constructor(private readonly config: HandshakeConfig, private readonly log: Logger, resolver?: NameResolver) {
    this.rank = config.index;
    this.out = new OutDir(config.outDir);
    this.resolver = resolver ?? nameResolver(config.dnsServer);
    this.self = {
      rank: this.rank, host: config.hostname, fqdn: podFqdn(config, config.hostname), ip: config.podIp, port: config.port,
      epoch: Date.now() * 1000 + Math.floor(Math.random() * 1000),
    };
    this.parentOf = parentRank(this.rank, config.topology);
    this.requiredChildren = childRanks(this.rank, config.size, config.topology).filter((c) => c < config.quorum);
    this.outcome = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.outcome.catch(() => undefined);
  }

  /** Runs the checks and starts the handshake; returns `outcome`. */
  async start(): Promise<void> {
    try {
      await this.begin();
    } catch (e) {
      this.fail(e);
    }
    return this.outcome;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.hostsTimer);
    clearTimeout(this.reportTimer);
    this.server?.close();
    this.readinessServer?.close();
    this.directoryChannel?.destroy();
    this.lateJoin?.stop();
  }

  /** The runner's readiness probe (readiness.ts): a port it cannot bind fails like the handshake's own. */
  private async serveReadiness(r: NonNullable<HandshakeConfig['readiness']>): Promise<void> {
    this.readinessServer = new ReadinessServer({ rank: this.rank, fluxPort: this.config.fluxPort, ...r }, this.log);
    try {
      await this.readinessServer.listen(this.config.podIp, r.port);
    } catch (e) {
      throw new HandshakeFailure(HANDSHAKE_EXIT_BIND_PORT,
        `cannot listen on the readiness port ${this.config.podIp}:${r.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }

  private async begin(): Promise<void> {
    const c = this.config;
    this.out.prepare();
    const previous = this.out.previousFailure();
    if (previous) {
      // The failure is final for this pod (the emptyDir outlives container restarts).
      this.log.warn('earlier-failure', { exitCode: previous.code });
      throw new HandshakeFailure(previous.code, previous.message);
    }
    this.log.info('starting', {
      size: c.size, quorum: c.quorum, topology: c.topology, mode: c.mode, lifecycle: c.lifecycle,
      parent: this.parentOf ?? null, children: this.requiredChildren.length, deadlineSeconds: c.deadlineSeconds,
    });
    checkHostname(c);
    // The first lookup of rank 0's name overlaps the checks and the listen below.
    const early = this.rank === 0 ? undefined
      : this.resolver.lookup(this.directoryHost()).then((ip) => ({ ip, at: Date.now() }), () => undefined);
    this.keys = deriveKeys(readCertificate(c.certPath));
    if (isInteriorRank(this.rank, c.size, c.topology)) {
      const restarted = this.out.isReady();
      const address = await checkBind(c, restarted);
      this.log.info('bind-checked', { interface: c.bindInterface, address, port: c.fluxPort, portCheck: restarted ? 'skipped: flux may hold it' : 'free' });
    }
    this.server = new HandshakeServer(this.keys, { ...peerMessage(this.self), t: 'welcome' }, serverLimits(c.maxSize), this.log,
      (ch) => this.onSession(ch), (claimed) => this.onClientMismatch(claimed));
    await this.server.listen(c.podIp, c.port);
    if (c.readiness) await this.serveReadiness(c.readiness);
    // stop() may have come during an await above, before the server existed.
    if (this.stopped) return this.stop();
    this.log.info('listening', { ip: c.podIp, port: c.port, ...(c.readiness ? { readyPort: c.readiness.port } : {}) });
    this.deadlineTimer = setTimeout(() => this.fail(new HandshakeFailure(HANDSHAKE_EXIT_DEADLINE, this.deadlineMessage())),
      c.deadlineSeconds * 1000);
    if (this.rank === 0) {
      this.directory = new Directory(this.self, c.name, c.size, c.maxSize, c.quorum, c.topology, this.log, () => this.directoryChanged());
      this.writeHostsSoon();
    } else {
      const first = await early;
      if (this.stopped) return;
      void this.directoryLoop(first).catch((e) => this.fail(e));
    }
    this.lateJoin = lateJoinFor({
      config: c, log: this.log, resolver: this.resolver, isRegisteredAddress: (ip) => this.directory?.hasAddress(ip) ?? false,
      directoryConnected: () => this.directoryChannel !== undefined, finish: (parent) => this.finishLate(parent), fail: (e) => this.fail(e),
    });
    this.lateJoin?.start();
    this.checkReady();
  }

  /** The cluster already runs (late-join.ts): nobody is left to register with, verify or join. */
  private finishLate(parent: PeerEntry | undefined): void {
    if (this.ready || this.stopped) return;
    if (parent) {
      this.parent = parent;
      this.out.writeParent(parent, this.config.fluxPort);
    }
    this.late = true;
    this.checkReady();
  }

  // ---- server side: sessions opened by other pods ----

  private onSession(ch: Channel): void {
    if (this.stopped) return ch.destroy();
    ch.listen((m) => this.onPeerMessage(ch, m), () => this.directory?.forget(ch));
  }

  private onPeerMessage(ch: Channel, m: Message): void {
    if (m.t === 'child') {
      const rank = m.rank as number;
      if (!Number.isInteger(rank) || rank >= this.config.maxSize || parentRank(rank, this.config.topology) !== this.rank
        || typeof m.epoch !== 'number' || !Number.isFinite(m.epoch)) return ch.destroy();
      this.onChild(rank, m.epoch);
      ch.send({ t: 'ack' });
    } else if (m.t === 'register' && this.directory) {
      this.directory.register(ch, m);
    } else if (m.t === 'joins' && this.directory) {
      this.directory.reportJoins(ch, m);
    } else if (m.t === 'ping') {
      ch.send({ t: 'pong' });
    } else {
      this.log.warn('unexpected-message', { type: m.t });
      ch.destroy();
    }
  }

  /** A TBON child proved it reached this rank: count it, and report its join to rank 0. */
  private onChild(rank: number, epoch: number): void {
    const news = this.childrenSeen.get(rank) !== epoch;
    this.childrenSeen.set(rank, epoch);
    if (news) {
      // Per child only where it is news: few children, or a late or restarted one.
      const n = this.childrenSeen.size;
      if (this.ready || this.requiredChildren.length <= 16 || n === 1 || n === this.requiredChildren.length) {
        this.log.info('child-connected', { child: rank, connected: n, required: this.requiredChildren.length });
      }
    }
    if (this.directory) this.directory.claimJoined(rank, epoch);
    else {
      this.unreported.set(rank, epoch);
      this.reportJoinsSoon();
    }
    this.checkReady();
  }

  private reportJoinsSoon(): void {
    if (this.reportTimer || this.stopped) return;
    this.reportTimer = setTimeout(() => {
      this.reportTimer = undefined;
      if (this.directoryChannel) this.reportJoins(this.unreported);
      this.checkReady();
    }, JOIN_REPORT_DELAY_MS);
  }

  /** Sends rank 0 the joins of `joins` (a map rank → epoch), a few frames for hundreds of children. */
  private reportJoins(joins: Map<number, number>): void {
    const ch = this.directoryChannel;
    if (!ch || joins.size === 0) return;
    const all = [...joins];
    ch.batch(() => {
      for (let i = 0; i < all.length; i += JOINS_PER_FRAME) ch.send({ t: 'joins', joins: all.slice(i, i + JOINS_PER_FRAME) });
    });
    if (joins === this.unreported) this.unreported = new Map();
  }

  private onClientMismatch(claimedRank: number | undefined): void {
    // Unauthenticated claim, used only to name suspects in the deadline message.
    if (claimedRank !== undefined && claimedRank > 0 && claimedRank < this.config.maxSize && this.mismatchClaims.size < 1000) {
      this.mismatchClaims.add(claimedRank);
    }
  }

  private directoryChanged(): void {
    this.writeHostsSoon();
    this.checkReady();
  }

  // ---- client side: find rank 0, register, learn and verify the parent ----

  private directoryHost(): string {
    return this.config.mode === HandshakeMode.RENDEZVOUS
      ? this.config.rendezvousHost
      : podFqdn(this.config, hostOf(this.config.name, 0));
  }

  /** Connects and authenticates; `first` leaves with the proof; the server's entry came with its challenge. */
  private async connect(ip: string, port: number, first: Message, keepAlive = false): Promise<{ ch: Channel; welcome: PeerEntry }> {
    const socket = await connectWithin(ip, port, CONNECT_TIMEOUT_MS);
    socket.setNoDelay(true);
    // Keepalive notices a vanished rank 0 (pod deleted, no RST) on the long-lived directory session.
    if (keepAlive) socket.setKeepAlive(true, 10000);
    let session: { channel: Channel; welcome: Message };
    try {
      session = await authenticateToServer(socket, this.keys, this.rank, first, this.authWaitMs);
      this.authWaitMs = AUTH_TIMEOUT_MS;
    } catch (e) {
      if (isTimeout(e)) this.authWaitMs = Math.min(2 * this.authWaitMs, MAX_AUTH_TIMEOUT_MS);
      if (e instanceof AuthError && e.kind === 'mismatch') {
        this.fail(new HandshakeFailure(HANDSHAKE_EXIT_CERT_MISMATCH,
          `the peer at ${ip}:${port} holds a different CURVE certificate (fingerprint ${e.peerFingerprint}, ours ${this.keys.fingerprint}); `
          + 'Flux would hang silently: make every pod mount the same certificate Secret'));
        throw new Stopped();
      }
      throw e;
    }
    const ch = session.channel;
    const w = session.welcome;
    const welcome = w.t === 'welcome' ? entryOf(w, this.config.name, this.config.maxSize) : undefined;
    if (!welcome) {
      ch.destroy();
      throw new Error('peer sent no valid welcome');
    }
    return { ch, welcome };
  }

  /** `resolved`: an early lookup of rank 0's name, if it succeeded. */
  private async directoryLoop(resolved?: { ip: string; at: number }): Promise<void> {
    const dnsBackoff = new Backoff(100, 500);
    const connectBackoff = new Backoff(50, 250);
    // A timeout says rank 0 (or this pod) is short of CPU: quick retries would only add to its load.
    const overloadBackoff = new Backoff(OVERLOAD_FIRST_MS, OVERLOAD_CAP_MS);
    const changes = new ChangeLog(this.log, 'directory');
    // The last good lookup (`resolved`) is reused while it is fresh: the rendezvous Service's IP is
    // stable, and a lookup per connect attempt would only load the cluster DNS.
    while (!this.stopped) {
      const host = this.directoryHost();
      let ip: string;
      if (resolved && Date.now() - resolved.at < RESOLVED_REUSE_MS) {
        ip = resolved.ip;
      } else {
        try {
          ip = await this.resolver.lookup(host);
          resolved = { ip, at: Date.now() };
        } catch (e) {
          this.directoryReason = `DNS lookup of ${host}: ${reasonOf(e)}`;
          changes.failing(this.directoryReason, { host });
          await sleep(dnsBackoff.next());
          continue;
        }
      }
      let session: { ch: Channel; welcome: PeerEntry };
      try {
        session = await this.connect(ip, this.config.port, { ...peerMessage(this.self), t: 'register' }, true);
        if (session.welcome.rank !== 0) {
          session.ch.destroy();
          throw new Error(`reached rank ${session.welcome.rank}, not rank 0 (check the rendezvous Service selector)`);
        }
      } catch (e) {
        if (e instanceof Stopped || this.stopped) return;
        this.directoryReason = `${host} (${ip}:${this.config.port}): ${reasonOf(e)}`;
        changes.failing(this.directoryReason, { host });
        await sleep(isTimeout(e) ? overloadBackoff.next() : connectBackoff.next());
        continue;
      }
      dnsBackoff.reset();
      connectBackoff.reset();
      overloadBackoff.reset();
      changes.ok({ host, rank0: session.welcome.ip });
      this.rank0 = session.welcome;
      this.directoryChannel = session.ch;
      // A new or restarted rank 0 learns again which of this rank's children verified it.
      this.unreported = new Map();
      this.reportJoins(this.childrenSeen);
      this.checkReady();
      // Heartbeat: a rank 0 whose node vanished sends no FIN, and kernel keepalive takes ~11 min.
      let heard = Date.now();
      // Judged after the pending I/O is read (setImmediate), as ioTimeout does: a process that got no
      // CPU for 35 s must not drop a session whose pongs wait in the socket.
      const heartbeat = setInterval(() => setImmediate(() => {
        if (this.directoryChannel !== session.ch) return;
        if (Date.now() - heard > HEARTBEAT_TIMEOUT_MS) session.ch.destroy();
        else session.ch.send({ t: 'ping' });
      }), HEARTBEAT_INTERVAL_MS);
      await new Promise<void>((resolve) => session.ch.listen((m) => {
        heard = Date.now();
        this.onDirectoryMessage(m);
      }, () => resolve()));
      clearInterval(heartbeat);
      this.directoryChannel = undefined;
      if (this.stopped) return;
      resolved = undefined;
      changes.reset();
      this.directoryReason = 'connection to rank 0 lost';
      this.log.warn('directory-lost', { host });
      await sleep(connectBackoff.next());
    }
  }

  private onDirectoryMessage(m: Message): void {
    if (m.t === 'peer') {
      const e = entryOf(m, this.config.name, this.config.maxSize);
      if (!e || e.rank !== this.parentOf) return;
      const known = this.parent ?? this.parentCandidate;
      if (known && known.epoch === e.epoch && known.ip === e.ip && known.port === e.port) return;
      if (e.rank === 0) {
        // The directory session is itself an authenticated session with rank 0 (to its pod, through
        // the Service or directly): the parent check, and rank 0 counted the join at registration.
        this.parentGeneration++;
        this.parentCandidate = e;
        this.log.info('parent-known', { parent: 0, ip: e.ip, port: e.port });
        this.acceptParent(e, 'directory session');
      } else {
        void this.verifyParent(e).catch((err) => this.fail(err));
      }
    } else if (m.t === 'stale') {
      this.log.warn('directory-says-stale', { epoch: this.self.epoch });
    }
  }

  private async verifyParent(e: PeerEntry): Promise<void> {
    const generation = ++this.parentGeneration;
    this.parentCandidate = e;
    this.parentReason = 'not answered yet';
    this.log.info('parent-known', { parent: e.rank, ip: e.ip, port: e.port });
    const backoff = new Backoff(50, 500);
    const overloadBackoff = new Backoff(OVERLOAD_FIRST_MS, OVERLOAD_CAP_MS);
    const changes = new ChangeLog(this.log, 'parent-check');
    while (!this.stopped && generation === this.parentGeneration) {
      try {
        const { ch, welcome } = await this.connect(e.ip, e.port, { t: 'child', rank: this.rank, epoch: this.self.epoch });
        try {
          if (welcome.rank !== e.rank || welcome.epoch !== e.epoch) {
            throw new Error(`answered as rank ${welcome.rank} epoch ${welcome.epoch}, expected rank ${e.rank} epoch ${e.epoch}`);
          }
          const ack = await ch.next(this.authWaitMs);
          if (ack.t !== 'ack') throw new Error(`answered '${ack.t}' instead of ack`);
        } finally {
          ch.close();
        }
        if (generation !== this.parentGeneration || this.stopped) return;
        changes.ok({ parent: e.rank, ip: e.ip });
        this.acceptParent(e, 'parent session');
        return;
      } catch (err) {
        if (err instanceof Stopped || this.stopped) return;
        this.parentReason = reasonOf(err);
        changes.failing(this.parentReason, { parent: e.rank, ip: e.ip });
        await sleep(isTimeout(err) ? overloadBackoff.next() : backoff.next());
      }
    }
  }

  private acceptParent(e: PeerEntry, via: string): void {
    this.parent = e;
    this.out.writeParent(e, this.config.fluxPort);
    this.writeHostsNow();
    this.log.info('parent-verified', { parent: e.rank, ip: e.ip, fluxPort: this.config.fluxPort, via });
    this.checkReady();
  }

  // ---- readiness, outputs, failure ----

  private checkReady(): void {
    if (this.ready || this.stopped) return;
    if (!this.late) {
      if (this.rank === 0) {
        // Every rank joined, rank 0's own children by registering with it.
        if (!this.directory!.allJoined()) return;
      } else if (!this.parent || !this.requiredChildren.every((r) => this.childrenSeen.has(r))) {
        return;
      } else if (this.config.lifecycle === HandshakeLifecycle.INIT && this.unreported.size > 0) {
        // An init container exits once ready: its children's joins must have gone to rank 0 first
        // (sent on an open directory session; a reconnect resends them all).
        return;
      }
    }
    this.ready = true;
    clearTimeout(this.deadlineTimer);
    this.writeHostsNow();
    this.out.writeReady(this.rank);
    this.log.info('ready', { rank: this.rank, parent: this.parent ? { rank: this.parent.rank, ip: this.parent.ip } : null });
    this.settle.resolve();
  }

  private knownPeers(): PeerEntry[] {
    if (this.directory) return [...this.directory.peers()];
    return [this.self, this.rank0, this.parent].filter((p): p is PeerEntry => p !== undefined);
  }

  private writeHostsNow(): void {
    clearTimeout(this.hostsTimer);
    this.hostsTimer = undefined;
    const byRank = new Map(this.knownPeers().map((p) => [p.rank, p]));
    this.out.writeHosts(byRank.values());
  }

  /** Coalesces rank 0's table updates: at N=1024 one write per registration would be quadratic. */
  private writeHostsSoon(): void {
    if (this.hostsTimer || this.stopped) return;
    this.hostsTimer = setTimeout(() => this.writeHostsNow(), HOSTS_WRITE_DELAY_MS);
  }

  private deadlineMessage(): string {
    const c = this.config;
    const parts: string[] = [];
    const late = this.lateJoin?.deadlineReason();
    if (late) {
      parts.push(late);
    } else if (this.rank === 0) {
      const never: number[] = [];
      const notJoined: number[] = [];
      for (let r = 1; r < c.quorum; r++) {
        if (!this.directory!.isRegistered(r)) never.push(r);
        else if (!this.directory!.hasJoined(r)) notJoined.push(r);
      }
      if (never.length) parts.push(`never registered: ${ranksHostlist(c.name, never)}`);
      if (notJoined.length) parts.push(`registered but never reached their TBON parent: ${ranksHostlist(c.name, notJoined)}`);
      if (this.mismatchClaims.size) parts.push(`presented a different certificate: ${ranksHostlist(c.name, [...this.mismatchClaims])}`);
    } else if (!this.rank0) {
      parts.push(`rank 0's handshake server (${this.directoryHost()}:${c.port}) never answered: ${this.directoryReason}`);
    } else if (!this.parentCandidate) {
      parts.push(`TBON parent ${hostOf(c.name, this.parentOf!)} (rank ${this.parentOf}) never registered with rank 0`);
    } else if (!this.parent) {
      const p = this.parentCandidate;
      parts.push(`TBON parent ${p.host} (rank ${p.rank}) at ${p.ip}:${p.port} never answered: ${this.parentReason}`);
    }
    const missing = this.requiredChildren.filter((r) => !this.childrenSeen.has(r));
    if (missing.length && this.rank !== 0 && !late) parts.push(`TBON children never connected: ${ranksHostlist(c.name, missing)}`);
    return `handshake deadline of ${c.deadlineSeconds}s passed on ${c.hostname} (rank ${this.rank}): ${parts.join('; ') || 'unknown'}`;
  }

  private fail(e: unknown): void {
    if (this.stopped) return;
    const failure = e instanceof HandshakeFailure ? e : new HandshakeFailure(HANDSHAKE_EXIT_INTERNAL, `internal error: ${(e as Error)?.stack ?? e}`);
    this.stop();
    this.log.error('failed', { exitCode: failure.exitCode, message: failure.message });
    try {
      this.out.writeFailed(failure.exitCode, failure.message);
    } catch (err) {
      this.log.error('cannot-write-failed-file', { reason: reasonOf(err) });
    }
    writeTerminationMessage(this.config.terminationLog, `exit ${failure.exitCode}: ${failure.message}`);
    this.settle.reject(failure);
  }

  /** True once ready; in init-container mode the caller then exits. */
  get isReady(): boolean {
    return this.ready;
  }
}

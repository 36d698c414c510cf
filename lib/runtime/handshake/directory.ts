import * as net from 'net';
import { hostname as hostOf } from '../../core/hostlist';
import { childRanks, parentRank } from '../../core/topology';
import { Channel, Message } from './channel';
import { Logger } from './log';
import { PeerAddress } from './outputs';

/** A registered pod: where it is, and which run of its program (a restart gets a newer epoch). */
export interface PeerEntry extends PeerAddress {
  readonly epoch: number;
}

export function peerMessage(e: PeerEntry): Message {
  return { t: 'peer', rank: e.rank, host: e.host, fqdn: e.fqdn, ip: e.ip, port: e.port, epoch: e.epoch };
}

/** Reads a peer entry from an authenticated message, or undefined if a field is malformed. */
export function entryOf(m: Message, name: string, maxSize: number): PeerEntry | undefined {
  const { rank, fqdn, ip, port, epoch } = m as Record<string, unknown>;
  if (!Number.isInteger(rank) || (rank as number) < 0 || (rank as number) >= maxSize) return undefined;
  if (m.host !== hostOf(name, rank as number) || typeof fqdn !== 'string' || fqdn.length > 253) return undefined;
  if (typeof ip !== 'string' || !net.isIP(ip) || !Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) return undefined;
  if (typeof epoch !== 'number' || !Number.isFinite(epoch)) return undefined;
  return { rank: rank as number, host: m.host as string, fqdn, ip, port: port as number, epoch };
}

/**
 * Rank 0's table of registered pods. Each pod registers (rank, IP, port, epoch) and subscribes to
 * its TBON parent's entry; the directory pushes that entry whenever it appears or changes, and
 * counts the pods whose parent was verified ("joined"): a child of rank 0 by registering, any
 * other pod when its parent reports it (`joins`, batched per parent).
 */
export class Directory {
  private readonly entries = new Map<number, PeerEntry>();
  private readonly subscribers = new Map<number, Set<Channel>>();
  private readonly joined = new Set<number>();
  /** rank → the epoch in which its parent saw it; joined while that is its registered epoch. */
  private readonly claims = new Map<number, number>();
  private readonly registeredBy = new Map<Channel, number>();
  /** rank → its latest session: only that one may report joins (an old one may still hold a batch). */
  private readonly sessions = new Map<number, Channel>();
  /** Registered pod IPs → rank, for the Flux port watch (late-join.ts), asked per connection. */
  private readonly byIp = new Map<string, number>();
  private joinedBelowQuorum = 0;
  private nextMilestone = 1;
  /** After the first complete round, every registration is news (a restart or a late pod). */
  private logEach = false;

  constructor(
    self: PeerEntry,
    private readonly name: string,
    private readonly size: number,
    private readonly maxSize: number,
    private readonly quorum: number,
    private readonly topology: string,
    private readonly log: Logger,
    private readonly onChange: () => void,
  ) {
    this.entries.set(0, self);
    this.byIp.set(self.ip, 0);
  }

  /** True when a registered pod (or rank 0) has this IP. */
  hasAddress(ip: string): boolean {
    return this.byIp.has(ip);
  }

  /** True when every rank below the quorum has joined (rank 0 itself counts). */
  allJoined(): boolean {
    return this.joinedBelowQuorum >= this.quorum - 1;
  }

  /** Logs progress at 1, 25, 50, 75 and 100 % of the pods instead of one line per pod. */
  private progress(): void {
    const registered = this.entries.size - 1;
    const total = this.size - 1;
    if (registered >= total) this.logEach = true;
    if (registered < this.nextMilestone) return;
    this.log.info('peers-registered', { registered, of: total });
    const quarter = Math.max(1, Math.ceil(total / 4));
    this.nextMilestone = Math.min(total, (Math.floor(registered / quarter) + 1) * quarter);
    if (registered >= total) this.nextMilestone = Infinity;
  }

  /** Re-derives whether `rank` has joined: its parent saw the run it is registered with. */
  private refresh(rank: number): void {
    const e = this.entries.get(rank);
    this.setJoined(rank, e !== undefined && rank !== 0 && this.claims.get(rank) === e.epoch);
  }

  private setJoined(rank: number, joined: boolean): void {
    if (this.joined.has(rank) === joined) return;
    if (joined) this.joined.add(rank);
    else this.joined.delete(rank);
    if (rank < this.quorum) this.joinedBelowQuorum += joined ? 1 : -1;
    this.onChange();
  }

  peers(): Iterable<PeerEntry> {
    return this.entries.values();
  }

  isRegistered(rank: number): boolean {
    return this.entries.has(rank);
  }

  hasJoined(rank: number): boolean {
    return this.joined.has(rank);
  }

  register(ch: Channel, m: Message): void {
    const e = entryOf(m, this.name, this.maxSize);
    if (!e || e.rank === 0 || this.registeredBy.has(ch)) {
      this.log.warn('register-rejected', { peer: m.rank, reason: e ? 'duplicate or rank 0' : 'malformed entry' });
      ch.destroy();
      return;
    }
    const old = this.entries.get(e.rank);
    if (old && old.epoch > e.epoch) {
      // A terminating pod's program reconnecting after its replacement registered.
      ch.send({ t: 'stale' });
      ch.close();
      return;
    }
    this.registeredBy.set(ch, e.rank);
    this.sessions.set(e.rank, ch);
    const p = parentRank(e.rank, this.topology)!;
    if (!old || old.epoch !== e.epoch || old.ip !== e.ip || old.port !== e.port) {
      this.entries.set(e.rank, e);
      if (old && this.byIp.get(old.ip) === e.rank) this.byIp.delete(old.ip);
      this.byIp.set(e.ip, e.rank);
      // Its children verified the old run (or address): they must verify this one again.
      if (old) {
        for (const c of childRanks(e.rank, this.maxSize, this.topology)) {
          this.claims.delete(c);
          this.refresh(c);
        }
      }
      // Registering is a child of rank 0's parent check: an authenticated session with rank 0.
      if (p === 0) this.claims.set(e.rank, e.epoch);
      this.refresh(e.rank);
      if (this.logEach || old) this.log.info('peer-registered', { peer: e.rank, ip: e.ip, restarted: old !== undefined && old.epoch !== e.epoch });
      else this.progress();
      for (const sub of this.subscribers.get(e.rank) ?? []) sub.send(peerMessage(e));
      this.onChange();
    }
    let subs = this.subscribers.get(p);
    if (!subs) this.subscribers.set(p, (subs = new Set()));
    subs.add(ch);
    const parent = this.entries.get(p);
    if (parent) ch.send(peerMessage(parent));
  }

  /** A parent's report that its children `joins: [[rank, epoch], …]` verified it. */
  reportJoins(ch: Channel, m: Message): void {
    const reporter = this.registeredBy.get(ch);
    const joins = m.joins;
    if (reporter === undefined || this.sessions.get(reporter) !== ch || !Array.isArray(joins)) return;
    for (const j of joins) {
      if (!Array.isArray(j) || j.length !== 2) continue;
      const [rank, epoch] = j as unknown[];
      // Only the registered parent of a rank may vouch for it.
      if (!Number.isInteger(rank) || (rank as number) >= this.maxSize || parentRank(rank as number, this.topology) !== reporter) continue;
      if (typeof epoch !== 'number' || !Number.isFinite(epoch)) continue;
      this.claimJoined(rank as number, epoch);
    }
  }

  /** Records that `rank`, in the run `epoch`, verified its parent (rank 0's own children, or a report). */
  claimJoined(rank: number, epoch: number): void {
    this.claims.set(rank, epoch);
    this.refresh(rank);
  }

  forget(ch: Channel): void {
    const rank = this.registeredBy.get(ch);
    if (rank === undefined) return;
    this.registeredBy.delete(ch);
    if (this.sessions.get(rank) === ch) this.sessions.delete(rank);
    this.subscribers.get(parentRank(rank, this.topology)!)?.delete(ch);
  }
}

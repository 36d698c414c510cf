import { HandshakeLifecycle, HandshakeMode } from '../../core/handshake-contract';
import { hostname as hostOf } from '../../core/hostlist';
import { parentRank } from '../../core/topology';
import { HandshakeConfig, podFqdn } from './config';
import { PeerEntry } from './directory';
import { FluxPortWatch, probeFluxBroker } from './flux-port';
import { ChangeLog, Logger } from './log';
import { Backoff, sleep } from './ranks';
import { NameResolver, reasonOf } from './resolver';

/**
 * The late-join path of the init lifecycle (docs/handshake.md, "Lifecycle, restarts"). Once an
 * init-lifecycle cluster runs, every handshake has exited, so a pod that comes later (replaced
 * after an eviction, or beyond the quorum) finds no directory to register with, and a replaced
 * rank 0 waits for registrations that never come. Evidence that the cluster already runs ends the
 * wait instead:
 *
 * * rank > 0: rank 0's Flux broker answers with a ZMTP greeting (through the rendezvous Service's
 *   Flux port, or rank 0's per-pod name in dns mode). Its parent's per-pod name, published long
 *   ago, is then resolved and its broker must answer too; that address goes to parent.env.
 * * rank 0: a broker connects to the Flux port (held by FluxPortWatch while waiting) with a ZMTP
 *   greeting from an address that never registered: it runs from before this pod, and has
 *   re-resolved its parent to this pod (the entrypoint's parent watch).
 *
 * Neither check can compare certificates: a broker's CURVE handshake is not this program's.
 */
export interface LateJoinContext {
  readonly config: HandshakeConfig;
  readonly log: Logger;
  readonly resolver: NameResolver;
  /** True for a pod IP the handshake already knows (rank 0: every registered pod, itself included). */
  isRegisteredAddress(ip: string): boolean;
  /** True while a session with rank 0's directory is open: the ordinary path is under way. */
  directoryConnected(): boolean;
  /** Ends the handshake as ready: `parent` answered on its Flux port (rank > 0), none for rank 0. */
  finish(parent: PeerEntry | undefined): void;
  fail(e: unknown): void;
}

/** How long rank > 0 reuses the address of rank 0's broker (a stable Service IP) between probes. */
const RESOLVED_REUSE_MS = 10000;
/** How often rank > 0 looks again while its directory session is open. */
const IDLE_MS = 1000;

/** The late-join path for this configuration, or undefined where it does not apply. */
export function lateJoinFor(ctx: LateJoinContext): LateJoin | undefined {
  const c = ctx.config;
  // Sidecars keep serving, so a late pod registers like any other; a single pod has no peers.
  return c.lifecycle === HandshakeLifecycle.INIT && c.size > 1 ? new LateJoin(ctx) : undefined;
}

export class LateJoin {
  private stopped = false;
  private watch?: FluxPortWatch;
  /** Why the late path has not finished, once it is taken (for the deadline message). */
  private pending?: string;

  constructor(private readonly ctx: LateJoinContext) {}

  start(): void {
    const run = this.ctx.config.index === 0 ? this.watchFluxPort() : this.detect();
    run.catch((e) => {
      if (!this.stopped) this.ctx.fail(e);
    });
  }

  stop(): void {
    this.stopped = true;
    this.watch?.close();
  }

  /** The deadline's reason when the late path was taken but its parent never answered. */
  deadlineReason(): string | undefined {
    return this.pending;
  }

  // ---- rank 0 ----

  private async watchFluxPort(): Promise<void> {
    const c = this.ctx.config;
    const ignored = new Set<string>();
    const ignore = (reason: string, ip: string): void => {
      if (ignored.has(reason)) return;
      ignored.add(reason);
      this.ctx.log.info('flux-port-ignored', { from: ip, reason });
    };
    this.watch = new FluxPortWatch({
      isMember: (ip) => this.ctx.isRegisteredAddress(ip),
      onMember: (ip) => ignore('a registered pod\'s broker', ip),
      onStranger: (ip, zmtp) => {
        if (this.stopped) return;
        if (!zmtp) return ignore('no ZMTP greeting', ip);
        this.ctx.log.info('cluster-running', { via: `flux port ${c.fluxPort}`, from: ip });
        this.ctx.finish(undefined);
      },
    });
    try {
      await this.watch.listen(c.podIp, c.fluxPort);
    } catch (e) {
      // The bind check found the port free a moment ago; without the watch only the late path is lost.
      this.ctx.log.warn('flux-port-watch', { outcome: 'unavailable', reason: reasonOf(e) });
    }
  }

  // ---- rank > 0 ----

  /** Waits until rank 0's broker answers, then takes the late path. */
  private async detect(): Promise<void> {
    const c = this.ctx.config;
    // The rendezvous Service name exists from t=0, so this never caches a negative answer for a
    // per-pod name; dns mode polls rank 0's per-pod name anyway.
    const host = c.mode === HandshakeMode.RENDEZVOUS ? c.rendezvousHost : podFqdn(c, hostOf(c.name, 0));
    const backoff = new Backoff(250, 2000);
    let resolved: { ip: string; at: number } | undefined;
    for (;;) {
      if (this.stopped) return;
      if (this.ctx.directoryConnected()) {
        // Rank 0's handshake answers, so its broker cannot run yet: no probe while it does (at a
        // fresh start this keeps the probes off rank 0, whose CPU is the bottleneck at scale).
        backoff.reset();
        await sleep(IDLE_MS);
        continue;
      }
      try {
        if (!resolved || Date.now() - resolved.at > RESOLVED_REUSE_MS) resolved = { ip: await this.ctx.resolver.lookup(host), at: Date.now() };
        await probeFluxBroker(resolved.ip, c.fluxPort);
        if (this.stopped) return;
        this.ctx.log.info('cluster-running', { via: `${host}:${c.fluxPort}`, ip: resolved.ip });
        break;
      } catch {
        // The usual state while a cluster starts: nothing to log.
        await sleep(backoff.next());
      }
    }
    await this.joinParent();
  }

  /** Resolves the parent's per-pod name until its broker answers there; bounded by the deadline. */
  private async joinParent(): Promise<void> {
    const c = this.ctx.config;
    const rank = parentRank(c.index, c.topology)!;
    const host = hostOf(c.name, rank);
    const fqdn = podFqdn(c, host);
    const changes = new ChangeLog(this.ctx.log, 'late-parent');
    const backoff = new Backoff(250, 2000);
    const why = (reason: string): string => 'late join (rank 0\'s Flux broker answers: the cluster runs and its handshakes '
      + `have exited): TBON parent ${host} (rank ${rank}) never answered on its Flux port: ${reason}`;
    this.pending = why('not tried yet');
    while (!this.stopped) {
      let ip: string | undefined;
      try {
        ip = await this.ctx.resolver.lookup(fqdn);
        await probeFluxBroker(ip, c.fluxPort);
      } catch (e) {
        if (this.stopped) return;
        const reason = ip === undefined ? `DNS lookup of ${fqdn}: ${reasonOf(e)}` : `${ip}:${c.fluxPort}: ${reasonOf(e)}`;
        this.pending = why(reason);
        changes.failing(reason, { parent: rank });
        await sleep(backoff.next());
        continue;
      }
      if (this.stopped) return;
      changes.ok({ parent: rank, ip, fluxPort: c.fluxPort });
      this.pending = undefined;
      this.ctx.finish({ rank, host, fqdn, ip, port: c.port, epoch: 0 });
      return;
    }
  }
}

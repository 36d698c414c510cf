/**
 * The brokers' connection times on a real cluster, from the lead broker's own log: rank 0 logs
 * `overlay.debug[0]: accepting connection from HOST (rank N)` for each child (the tree is flat up to
 * 256 brokers) and `listening on ...` when it binds. The runner follows it (`flux dmesg --follow`
 * through exec, as the day-2 `flux` command runs flux) from each lead pod once it is Ready, so the
 * readiness check compares the pods' Ready times with connections the brokers themselves logged.
 */
import { PassThrough } from 'stream';
import { fluxCommandLine } from '../../lib/cli/day2/flux';
import { KubeTarget, client } from './target';

/** One line of the lead's log that dates a broker: rank 0 listening, or rank N connecting to it. */
export interface BrokerEvent {
  /** Epoch milliseconds, from the broker's ISO time stamp. */
  readonly at: number;
  readonly rank: number;
  readonly what: 'listening' | 'connected';
}

/** The dated broker events of `flux dmesg` output (ISO time stamps, the default format). */
export function brokerEvents(dmesg: string): BrokerEvent[] {
  const events: BrokerEvent[] = [];
  for (const line of dmesg.split('\n')) {
    const m = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) overlay\.debug\[0\]: (?:(listening on)|accepting connection from \S+ \(rank (\d+)\))/.exec(line);
    if (!m) continue;
    const at = Date.parse(m[1]);
    events.push(m[2] ? { at, rank: 0, what: 'listening' } : { at, rank: Number(m[3]), what: 'connected' });
  }
  return events;
}

/**
 * `flux dmesg --follow` in a lead pod, from when its Flux container runs: until the broker's socket
 * exists the command fails at once, so `poll()` starts it again (at most one session at a time)
 * until a session has read the broker's log. `text` is the longest log read.
 */
export class BrokerLogFollower {
  private sessions: string[] = [];
  private socket: { close: () => void } | undefined;
  private running = false;
  private stopped = false;

  constructor(private readonly target: KubeTarget, private readonly at: { namespace: string; pod: string; container: string }, private readonly viewScript: string) {
    this.poll();
  }

  get text(): string {
    return this.sessions.reduce((a, b) => (b.length > a.length ? b : a), '');
  }

  /** Starts a session unless one runs or one already read the log. */
  poll(): void {
    if (this.running || this.stopped || /overlay\.debug/.test(this.text)) return;
    this.running = true;
    const index = this.sessions.push('') - 1;
    const out = new PassThrough();
    out.on('data', (c: Buffer) => (this.sessions[index] += c.toString()));
    const k8s = client();
    new k8s.Exec(this.target.config).exec(this.at.namespace, this.at.pod, this.at.container, fluxCommandLine(this.viewScript, ['dmesg', '--follow']), out, null, null, false)
      .then((s) => {
        this.socket = s;
        s.on('close', () => {
          this.running = false;
        });
      }, () => {
        this.running = false;
      });
  }

  stop(): void {
    this.stopped = true;
    this.socket?.close();
  }
}

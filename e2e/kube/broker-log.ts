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

/** A `flux dmesg --follow` session in a lead pod; `text` grows until `stop()` or the broker ends. */
export class BrokerLogFollower {
  text = '';
  private socket: { close: () => void } | undefined;

  constructor(target: KubeTarget, at: { namespace: string; pod: string; container: string }, viewScript: string) {
    const out = new PassThrough();
    out.on('data', (c: Buffer) => (this.text += c.toString()));
    const k8s = client();
    new k8s.Exec(target.config).exec(at.namespace, at.pod, at.container, fluxCommandLine(viewScript, ['dmesg', '--follow']), out, null, null, false)
      .then((s) => {
        this.socket = s;
      }, () => undefined);
  }

  stop(): void {
    this.socket?.close();
  }
}

/**
 * The Flux runner's readiness, served over HTTP by the handshake sidecar (docs/day2.md "Ready").
 * The kubelet answers an httpGet probe itself; an exec probe costs a runc exec, a shell and the
 * runtime's bookkeeping every period in every pod, which on a busy node was half of all the CPU a
 * 64-pod cluster used (docs/scale.md). The rule is flux-ready.sh's, which the other lifecycles keep:
 * the sidecar shares the pod's network namespace, so it reads the same /proc/net/tcp.
 */
import * as fs from 'fs';
import * as http from 'http';
import { READY_PATH, procNetPort } from '../../core/handshake-contract';
import { Logger } from './log';

/** What the check needs; `tables` and `socketExists` are seams for the tests. */
export interface ReadinessRule {
  readonly rank: number;
  readonly fluxPort: number;
  /** Rank 0 is ready once this many TBON children are connected (the lead's children at minSize). */
  readonly leadChildren: number;
  /** Rank 0's local broker socket: the instance is up. */
  readonly localSocket: string;
}

export interface ReadinessSources {
  /** The TCP tables, read one at a time: each read walks the kernel's whole TCP hash table. */
  readonly tables: () => Array<() => string>;
  readonly socketExists: (path: string) => boolean;
}

const TCP_ESTABLISHED = '01';

export const PROC_SOURCES: ReadinessSources = {
  tables: () => ['/proc/net/tcp', '/proc/net/tcp6'].map((t) => () => {
    try {
      return fs.readFileSync(t, 'utf8');
    } catch {
      return '';
    }
  }),
  socketExists: (p) => {
    try {
      return fs.statSync(p).isSocket();
    } catch {
      return false;
    }
  },
};

/** Connected, or why not: a worker has a connection to its parent's broker port; the lead enough children. */
export function readiness(rule: ReadinessRule, sources: ReadinessSources): { ready: boolean; reason: string } {
  if (rule.rank === 0 && !sources.socketExists(rule.localSocket)) return { ready: false, reason: 'the broker is not up (no local socket)' };
  const portHex = `:${procNetPort(rule.fluxPort)}`;
  let children = 0;
  for (const read of sources.tables()) {
    for (const line of read().split('\n').slice(1)) {
      const [, local, remote, state] = line.trim().split(/\s+/);
      if (state !== TCP_ESTABLISHED) continue;
      if (rule.rank === 0) {
        if (local?.endsWith(portHex)) children++;
      } else if (remote?.endsWith(portHex)) {
        return { ready: true, reason: 'connected to the TBON parent' };
      }
    }
    // tcp6 only when tcp was not enough, as flux-ready.sh does.
    if (rule.rank === 0 && children >= rule.leadChildren) break;
  }
  if (rule.rank !== 0) return { ready: false, reason: 'not connected to the TBON parent' };
  return children >= rule.leadChildren
    ? { ready: true, reason: `${children} TBON connection(s)` }
    : { ready: false, reason: `${children} of ${rule.leadChildren} TBON children connected` };
}

/** GET READY_PATH: 200 when ready, 503 with the reason otherwise; anything else 404. */
export class ReadinessServer {
  private readonly server: http.Server;

  constructor(rule: ReadinessRule, log: Logger, sources: ReadinessSources = PROC_SOURCES) {
    this.server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== READY_PATH) {
        res.writeHead(404).end();
        return;
      }
      const r = readiness(rule, sources);
      res.writeHead(r.ready ? 200 : 503, { 'content-type': 'text/plain' }).end(`${r.reason}\n`);
    });
    // The kubelet opens one short connection per probe; nothing else should hold one open.
    this.server.headersTimeout = 5000;
    this.server.requestTimeout = 5000;
    this.server.on('error', (e) => log.warn('readiness-server', { error: (e as NodeJS.ErrnoException).code ?? e.message }));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host, port }, () => {
        const a = this.server.address();
        resolve(typeof a === 'object' && a ? a.port : port);
      });
    });
  }

  close(): void {
    this.server.close();
  }
}

import * as fs from 'fs';
import * as path from 'path';
import {
  FAILED_ENV_CODE, FAILED_ENV_MESSAGE, HANDSHAKE_FAILED_FILE, HANDSHAKE_HOSTS_FILE, HANDSHAKE_PARENT_FILE, HANDSHAKE_READY_FILE,
  PARENT_ENV_FQDN, PARENT_ENV_HOST, PARENT_ENV_IP, PARENT_ENV_PORT, PARENT_ENV_RANK, PARENT_ENV_URI,
} from '../../core/handshake-contract';

/** Where a peer's broker and handshake server listen. */
export interface PeerAddress {
  readonly rank: number;
  readonly host: string;
  readonly fqdn: string;
  readonly ip: string;
  /** Handshake port. */
  readonly port: number;
}

/** Kubernetes keeps at most 4096 bytes of a termination message. */
const TERMINATION_MESSAGE_MAX = 4000;

let tmpCounter = 0;

/** Writes `name` in `dir` atomically: readers see the old or the new file, never a torn one. */
export function writeAtomic(dir: string, name: string, content: string): void {
  const tmp = `${dir}/.${name}.${process.pid}.${tmpCounter++}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o644 });
  fs.renameSync(tmp, `${dir}/${name}`);
}

export function tcpUri(ip: string, port: number): string {
  return ip.includes(':') ? `tcp://[${ip}]:${port}` : `tcp://${ip}:${port}`;
}

export function parentEnv(parent: PeerAddress, fluxPort: number): string {
  return [
    `${PARENT_ENV_RANK}=${parent.rank}`,
    `${PARENT_ENV_HOST}=${parent.host}`,
    `${PARENT_ENV_FQDN}=${parent.fqdn}`,
    `${PARENT_ENV_IP}=${parent.ip}`,
    `${PARENT_ENV_PORT}=${fluxPort}`,
    `${PARENT_ENV_URI}=${tcpUri(parent.ip, fluxPort)}`,
    '',
  ].join('\n');
}

/** hosts(5) lines `IP FQDN short`, in rank order. */
export function hostsFile(peers: Iterable<PeerAddress>): string {
  const sorted = [...peers].sort((a, b) => a.rank - b.rank);
  return sorted.map((p) => `${p.ip} ${p.fqdn} ${p.host}\n`).join('');
}

export class OutDir {
  /** The hosts text last written: an unchanged table is not written again. */
  private hosts: string | undefined;
  constructor(readonly dir: string) {}

  prepare(): void {
    fs.mkdirSync(this.dir, { recursive: true });
  }

  writeParent(parent: PeerAddress, fluxPort: number): void {
    writeAtomic(this.dir, HANDSHAKE_PARENT_FILE, parentEnv(parent, fluxPort));
  }

  writeHosts(peers: Iterable<PeerAddress>): void {
    const text = hostsFile(peers);
    if (text === this.hosts) return;
    writeAtomic(this.dir, HANDSHAKE_HOSTS_FILE, text);
    this.hosts = text;
  }

  writeReady(rank: number): void {
    writeAtomic(this.dir, HANDSHAKE_READY_FILE, `rank=${rank}\n`);
  }

  isReady(): boolean {
    return fs.existsSync(path.join(this.dir, HANDSHAKE_READY_FILE));
  }

  writeFailed(code: number, message: string): void {
    // The message is single-quoted for sh; it never holds key material.
    const quoted = `'${message.replace(/'/g, `'\\''`).replace(/\n/g, ' ')}'`;
    writeAtomic(this.dir, HANDSHAKE_FAILED_FILE, `${FAILED_ENV_CODE}=${code}\n${FAILED_ENV_MESSAGE}=${quoted}\n`);
  }

  /** A failure recorded by an earlier run of the program in this pod, if any. */
  previousFailure(): { code: number; message: string } | undefined {
    let text: string;
    try {
      text = fs.readFileSync(path.join(this.dir, HANDSHAKE_FAILED_FILE), 'utf8');
    } catch {
      return undefined;
    }
    const code = Number(new RegExp(`^${FAILED_ENV_CODE}=(\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
    const message = new RegExp(`^${FAILED_ENV_MESSAGE}='(.*)'$`, 'm').exec(text)?.[1]?.replace(/'\\''/g, "'") ?? '';
    return Number.isInteger(code) ? { code, message } : undefined;
  }
}

/** Best effort: the file kubelet shows as the container's termination message. */
export function writeTerminationMessage(file: string, message: string): void {
  try {
    const buf = Buffer.from(message);
    fs.writeFileSync(file, buf.length > TERMINATION_MESSAGE_MAX ? `${buf.subarray(0, TERMINATION_MESSAGE_MAX - 3).toString()}...` : message);
  } catch {
    // Outside Kubernetes the file may not be writable; the log line carries the same message.
  }
}

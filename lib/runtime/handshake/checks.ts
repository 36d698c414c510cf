import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import {
  HANDSHAKE_EXIT_BIND_INTERFACE, HANDSHAKE_EXIT_BIND_PORT, HANDSHAKE_EXIT_CERT_UNREADABLE, HANDSHAKE_EXIT_HOSTNAME,
} from '../../core/handshake-contract';
import { hostname as hostOf, rangeHostlist } from '../../core/hostlist';
import { HandshakeConfig } from './config';
import { HandshakeFailure } from './failure';

/**
 * Local checks for what makes a real broker die at start (flux-runtime.md §3, §6): each returns a
 * HandshakeFailure with its own exit code instead of letting Flux fail later, or hang.
 */

/** The pod's hostname must be exactly one entry of the hosts list, the one of its own index. */
export function checkHostname(config: HandshakeConfig): void {
  const expected = hostOf(config.name, config.index);
  // The hosts list is one range `<name>-[0-(maxSize-1)]`; counting matches does not need its
  // expansion (100000 strings at the largest size), only the entry the hostname would be.
  const m = config.hostname.startsWith(`${config.name}-`) ? /^(0|[1-9]\d*)$/.exec(config.hostname.slice(config.name.length + 1)) : null;
  const matches = m && Number(m[1]) < config.maxSize ? 1 : 0;
  if (matches !== 1 || config.hostname !== expected) {
    throw new HandshakeFailure(HANDSHAKE_EXIT_HOSTNAME,
      `hostname '${config.hostname}' must be exactly one entry of the Flux hosts ${rangeHostlist(config.name, config.maxSize)} `
      + `and match JOB_COMPLETION_INDEX ${config.index} ('${expected}'); it matches ${matches} entries`);
  }
}

export function readCertificate(path: string): Buffer {
  let data: Buffer;
  try {
    data = fs.readFileSync(path);
  } catch (e) {
    throw new HandshakeFailure(HANDSHAKE_EXIT_CERT_UNREADABLE, `cannot read the CURVE certificate ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (data.length === 0) throw new HandshakeFailure(HANDSHAKE_EXIT_CERT_UNREADABLE, `the CURVE certificate ${path} is empty`);
  return data;
}

/** The address Flux will bind: the bind interface's address in the pod IP's family. */
function interfaceAddress(config: HandshakeConfig): string {
  const addrs = os.networkInterfaces()[config.bindInterface];
  if (!addrs || addrs.length === 0) {
    const names = Object.keys(os.networkInterfaces()).sort().join(', ');
    throw new HandshakeFailure(HANDSHAKE_EXIT_BIND_INTERFACE,
      `bind interface '${config.bindInterface}' does not exist (interfaces: ${names}); Flux would fail with 'No such device'`);
  }
  const family = net.isIPv6(config.podIp) ? 'IPv6' : 'IPv4';
  return (addrs.find((a) => a.address === config.podIp) ?? addrs.find((a) => a.family === family) ?? addrs[0]).address;
}

/**
 * On an interior rank (one Flux binds on): the interface exists and the Flux port is free. Binds
 * the port once and releases it. Skipped when `fluxMayRun`, since a running broker holds it.
 */
export async function checkBind(config: HandshakeConfig, fluxMayRun: boolean): Promise<string> {
  const ifaceAddr = interfaceAddress(config);
  const address = config.bindAddress ?? ifaceAddr;
  if (fluxMayRun) return address;
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (e: NodeJS.ErrnoException) => {
      reject(new HandshakeFailure(HANDSHAKE_EXIT_BIND_PORT,
        `cannot bind the Flux port ${address}:${config.fluxPort} on '${config.bindInterface}': ${e.code ?? e.message}; Flux would fail at start`));
    });
    server.listen({ host: address, port: config.fluxPort, exclusive: true }, () => server.close(() => resolve()));
  });
  return address;
}

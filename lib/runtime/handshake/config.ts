import * as net from 'net';
import * as os from 'os';
import {
  DEFAULT_BIND_INTERFACE, DEFAULT_CLUSTER_DOMAIN, DEFAULT_FLUX_PORT, DEFAULT_HANDSHAKE_CERTIFICATE_PATH,
  DEFAULT_HANDSHAKE_DEADLINE_SECONDS, DEFAULT_HANDSHAKE_OUT_DIR, DEFAULT_HANDSHAKE_PORT, DEFAULT_TERMINATION_LOG,
  HANDSHAKE_OPT_BIND_ADDRESS, HANDSHAKE_OPT_BIND_INTERFACE, HANDSHAKE_OPT_CERT, HANDSHAKE_OPT_CLUSTER_DOMAIN,
  HANDSHAKE_OPT_DEADLINE, HANDSHAKE_OPT_DNS_SERVER, HANDSHAKE_OPT_FLUX_PORT, HANDSHAKE_OPT_HOSTNAME,
  HANDSHAKE_OPT_INDEX, HANDSHAKE_OPT_LIFECYCLE, HANDSHAKE_OPT_MAX_SIZE, HANDSHAKE_OPT_MODE, HANDSHAKE_OPT_NAME,
  HANDSHAKE_OPT_NAMESPACE, HANDSHAKE_OPT_OUT_DIR, HANDSHAKE_OPT_POD_IP, HANDSHAKE_OPT_PORT, HANDSHAKE_OPT_QUORUM,
  HANDSHAKE_OPT_READY_LEAD_CHILDREN, HANDSHAKE_OPT_READY_PORT, HANDSHAKE_OPT_READY_SOCKET,
  HANDSHAKE_OPT_RENDEZVOUS_HOST, HANDSHAKE_OPT_RUNNER_EXIT_FILE, HANDSHAKE_OPT_SERVICE, HANDSHAKE_OPT_SIZE, HANDSHAKE_OPT_TERMINATION_LOG,
  HANDSHAKE_OPT_TOPOLOGY, HandshakeLifecycle, HandshakeMode, HandshakeOptionName, rendezvousServiceName,
} from '../../core/handshake-contract';
import { DEFAULT_TOPOLOGY, parseTopology } from '../../core/topology';

/** The resolved configuration of one handshake instance (one pod). */
export interface HandshakeConfig {
  readonly name: string;
  readonly service: string;
  readonly namespace: string;
  readonly clusterDomain: string;
  readonly size: number;
  readonly maxSize: number;
  readonly quorum: number;
  readonly topology: string;
  readonly mode: HandshakeMode;
  readonly lifecycle: HandshakeLifecycle;
  /** DNS name (or IP) of the directory in RENDEZVOUS mode. */
  readonly rendezvousHost: string;
  readonly port: number;
  readonly fluxPort: number;
  readonly bindInterface: string;
  /** Address the Flux-port check binds; undefined means the bind interface's own address. */
  readonly bindAddress?: string;
  readonly deadlineSeconds: number;
  readonly outDir: string;
  readonly certPath: string;
  readonly terminationLog: string;
  readonly index: number;
  readonly podIp: string;
  readonly hostname: string;
  /** `ip:port` of a DNS server to use instead of the system resolver (tests). */
  readonly dnsServer?: string;
  /** Sidecar lifecycle: exit once this file exists (the Flux runner creates it as it exits). */
  readonly runnerExitFile?: string;
  /** Sidecar lifecycle: serve the runner's readiness (readiness.ts). */
  readonly readiness?: { readonly port: number; readonly leadChildren: number; readonly localSocket: string };
}

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Reads `--flag=value` / `--flag value` arguments; a flag wins over its environment variable. */
function readArgs(argv: string[], errors: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^(--[a-z-]+)(?:=(.*))?$/s.exec(a);
    if (!m) {
      errors.push(`argument '${a}': expected --flag=value`);
      continue;
    }
    if (m[2] !== undefined) out.set(m[1], m[2]);
    else if (i + 1 < argv.length) out.set(m[1], argv[++i]);
    else errors.push(`${m[1]}: missing value`);
  }
  return out;
}

/** Parses and validates the configuration; returns every problem at once. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): { config?: HandshakeConfig; errors: string[] } {
  const errors: string[] = [];
  const args = readArgs(argv, errors);
  const known = new Set<string>();
  const raw = (o: HandshakeOptionName): string | undefined => {
    known.add(o.flag);
    const v = args.get(o.flag) ?? env[o.env];
    return v === undefined || v === '' ? undefined : v;
  };
  const where = (o: HandshakeOptionName): string => `${o.flag} (env ${o.env})`;
  const str = (o: HandshakeOptionName, dflt?: string): string => {
    const v = raw(o) ?? dflt;
    if (v === undefined) {
      errors.push(`${where(o)}: required`);
      return '';
    }
    return v;
  };
  const int = (o: HandshakeOptionName, lo: number, hi: number, dflt?: number): number => {
    const v = raw(o);
    if (v === undefined) {
      if (dflt === undefined) errors.push(`${where(o)}: required`);
      return dflt ?? 0;
    }
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < lo || n > hi) errors.push(`${where(o)}: '${v}' must be an integer from ${lo} to ${hi}`);
    return n;
  };
  const oneOf = <T extends string>(o: HandshakeOptionName, values: T[], dflt: T): T => {
    const v = raw(o) ?? dflt;
    if (!values.includes(v as T)) errors.push(`${where(o)}: '${v}' must be one of ${values.join(', ')}`);
    return v as T;
  };
  const label = (o: HandshakeOptionName): string => {
    const v = str(o);
    if (v !== '' && (!LABEL.test(v) || v.length > 63)) errors.push(`${where(o)}: '${v}' must be an RFC 1035 label`);
    return v;
  };

  const name = label(HANDSHAKE_OPT_NAME);
  const service = label(HANDSHAKE_OPT_SERVICE);
  const namespace = label(HANDSHAKE_OPT_NAMESPACE);
  const clusterDomain = str(HANDSHAKE_OPT_CLUSTER_DOMAIN, DEFAULT_CLUSTER_DOMAIN);
  const size = int(HANDSHAKE_OPT_SIZE, 1, 100000);
  const maxSize = int(HANDSHAKE_OPT_MAX_SIZE, 1, 100000, size);
  if (maxSize < size) errors.push(`${where(HANDSHAKE_OPT_MAX_SIZE)}: ${maxSize} must be at least --size ${size}`);
  const quorum = int(HANDSHAKE_OPT_QUORUM, 1, 100000, size);
  if (quorum > size) errors.push(`${where(HANDSHAKE_OPT_QUORUM)}: ${quorum} must be at most --size ${size}`);
  const topology = str(HANDSHAKE_OPT_TOPOLOGY, DEFAULT_TOPOLOGY);
  const topo = parseTopology(topology);
  if (typeof topo === 'string') errors.push(`${where(HANDSHAKE_OPT_TOPOLOGY)}: '${topology}' ${topo}`);
  const mode = oneOf(HANDSHAKE_OPT_MODE, Object.values(HandshakeMode), HandshakeMode.RENDEZVOUS);
  const lifecycle = oneOf(HANDSHAKE_OPT_LIFECYCLE, Object.values(HandshakeLifecycle), HandshakeLifecycle.SIDECAR);
  const port = int(HANDSHAKE_OPT_PORT, 1, 65535, DEFAULT_HANDSHAKE_PORT);
  const fluxPort = int(HANDSHAKE_OPT_FLUX_PORT, 1, 65535, DEFAULT_FLUX_PORT);
  if (port === fluxPort) errors.push(`${where(HANDSHAKE_OPT_PORT)}: ${port} must differ from --flux-port`);
  const rendezvousHost = raw(HANDSHAKE_OPT_RENDEZVOUS_HOST) ?? `${rendezvousServiceName(name)}.${namespace}.svc.${clusterDomain}`;
  const bindInterface = str(HANDSHAKE_OPT_BIND_INTERFACE, DEFAULT_BIND_INTERFACE);
  const bindAddress = raw(HANDSHAKE_OPT_BIND_ADDRESS);
  if (bindAddress !== undefined && !net.isIP(bindAddress)) errors.push(`${where(HANDSHAKE_OPT_BIND_ADDRESS)}: '${bindAddress}' must be an IP address`);
  const deadlineSeconds = int(HANDSHAKE_OPT_DEADLINE, 1, 86400, DEFAULT_HANDSHAKE_DEADLINE_SECONDS);
  const outDir = str(HANDSHAKE_OPT_OUT_DIR, DEFAULT_HANDSHAKE_OUT_DIR);
  const certPath = str(HANDSHAKE_OPT_CERT, DEFAULT_HANDSHAKE_CERTIFICATE_PATH);
  const terminationLog = str(HANDSHAKE_OPT_TERMINATION_LOG, DEFAULT_TERMINATION_LOG);
  const index = int(HANDSHAKE_OPT_INDEX, 0, 99999);
  if (errors.length === 0 && index >= size) errors.push(`${where(HANDSHAKE_OPT_INDEX)}: ${index} must be below --size ${size}`);
  const podIp = str(HANDSHAKE_OPT_POD_IP);
  if (podIp !== '' && !net.isIP(podIp)) errors.push(`${where(HANDSHAKE_OPT_POD_IP)}: '${podIp}' must be an IP address`);
  const hostname = raw(HANDSHAKE_OPT_HOSTNAME) ?? os.hostname();
  const dnsServer = raw(HANDSHAKE_OPT_DNS_SERVER);
  if (dnsServer !== undefined && !/^[0-9.]+:\d+$|^[0-9.]+$/.test(dnsServer)) {
    errors.push(`${where(HANDSHAKE_OPT_DNS_SERVER)}: '${dnsServer}' must be an IPv4 address with an optional :port`);
  }
  const runnerExitFile = raw(HANDSHAKE_OPT_RUNNER_EXIT_FILE);
  if (runnerExitFile !== undefined && !runnerExitFile.startsWith('/')) {
    errors.push(`${where(HANDSHAKE_OPT_RUNNER_EXIT_FILE)}: '${runnerExitFile}' must be an absolute path`);
  }
  const readyPort = raw(HANDSHAKE_OPT_READY_PORT) === undefined ? undefined : int(HANDSHAKE_OPT_READY_PORT, 1, 65535);
  const readyChildren = readyPort === undefined ? 0 : int(HANDSHAKE_OPT_READY_LEAD_CHILDREN, 0, 100000);
  const readySocket = readyPort === undefined ? '' : str(HANDSHAKE_OPT_READY_SOCKET);
  if (readyPort !== undefined && (readyPort === port || readyPort === fluxPort)) {
    errors.push(`${where(HANDSHAKE_OPT_READY_PORT)}: ${readyPort} must differ from --port and --flux-port`);
  }
  if (readyPort === undefined) {
    for (const o of [HANDSHAKE_OPT_READY_LEAD_CHILDREN, HANDSHAKE_OPT_READY_SOCKET]) if (raw(o) !== undefined) errors.push(`${where(o)}: needs ${HANDSHAKE_OPT_READY_PORT.flag}`);
  }
  if (readySocket !== '' && !readySocket.startsWith('/')) errors.push(`${where(HANDSHAKE_OPT_READY_SOCKET)}: '${readySocket}' must be an absolute path`);
  if (readyPort !== undefined && lifecycle !== HandshakeLifecycle.SIDECAR) {
    errors.push(`${where(HANDSHAKE_OPT_READY_PORT)}: needs --lifecycle=${HandshakeLifecycle.SIDECAR} (an init container is gone before the broker starts)`);
  }
  for (const flag of args.keys()) if (!known.has(flag)) errors.push(`${flag}: unknown flag`);
  if (errors.length > 0) return { errors };
  return {
    errors,
    config: {
      name, service, namespace, clusterDomain, size, maxSize, quorum, topology, mode, lifecycle, rendezvousHost, port,
      fluxPort, bindInterface, bindAddress, deadlineSeconds, outDir, certPath, terminationLog, index, podIp, hostname, dnsServer,
      runnerExitFile,
      ...(readyPort !== undefined ? { readiness: { port: readyPort, leadChildren: readyChildren, localSocket: readySocket } } : {}),
    },
  };
}

/** `<host>.<service>.<namespace>.svc.<domain>`: the per-pod name in the headless Service. */
export function podFqdn(config: HandshakeConfig, host: string): string {
  return `${host}.${config.service}.${config.namespace}.svc.${config.clusterDomain}`;
}

/**
 * What flux-core (0.88) accepts in a config file, per flux-runtime.md §3: [bootstrap] and
 * [resource] are unpacked strictly (an unknown key is fatal at start), [tbon] and [broker] are not
 * (unknown or misspelled keys are silently ignored), and `[broker] quorum` has no effect.
 * Checking here turns a broker that dies or misbehaves in the cluster into a synth-time error.
 */
import { expandHostlist } from './hostlist';

const BOOTSTRAP_KEYS = ['curve_cert', 'default_port', 'default_bind', 'default_connect', 'hosts', 'enable_ipv6'];
const HOST_ENTRY_KEYS = ['host', 'bind', 'connect', 'parent'];
const RESOURCE_KEYS = ['path', 'config', 'noverify', 'verify', 'exclude', 'norestrict', 'scheduling',
  'rediscover', 'journal-max', 'history', 'no-update-watch'];
const TBON_KEYS = ['connect_timeout', 'tcp_user_timeout', 'topo', 'torpid_min', 'torpid_max', 'zmqdebug',
  'keepalive_enable', 'keepalive_count', 'keepalive_interval', 'keepalive_idle', 'interface-hint',
  'prefertcp', 'child_rcvhwm', 'zmq_io_threads'];
/** Tables flux-core or Fluxion read; anything else would be ignored, which hides typos. */
export const KNOWN_TABLES = ['access', 'archive', 'bootstrap', 'broker', 'content', 'cron', 'exec',
  'heartbeat', 'ingest', 'job-manager', 'kvs', 'policy', 'queues', 'resource', 'sched-fluxion-qmanager',
  'sched-fluxion-resource', 'sched-simple', 'systemd', 'tbon'];

type Table = Record<string, unknown>;

function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function unknownKeys(table: Table, allowed: string[]): string[] {
  return Object.keys(table).filter((k) => !allowed.includes(k)).sort();
}

/** What the hosts of the config must cover: every pod hostname, each exactly once. */
export interface ExpectedHosts {
  readonly hostnames: string[];
}

/** Returns every reason Flux would reject or misread `config` (an empty list when it is fine). */
export function checkFluxConfig(config: Table, expected?: ExpectedHosts): string[] {
  const errors: string[] = [];
  for (const name of Object.keys(config).sort()) {
    if (!KNOWN_TABLES.includes(name)) {
      errors.push(`[${name}]: not a table Flux reads (it would be silently ignored); known tables: ${KNOWN_TABLES.join(', ')}`);
    } else if (!isTable(config[name])) {
      errors.push(`${name}: must be a table`);
    }
  }
  const bootstrap = config.bootstrap;
  if (isTable(bootstrap)) errors.push(...checkBootstrap(bootstrap, expected));
  const resource = config.resource;
  if (isTable(resource)) {
    for (const k of unknownKeys(resource, RESOURCE_KEYS)) {
      errors.push(`[resource] ${k}: unknown key (fatal in flux-core: "left unpacked"); allowed: ${RESOURCE_KEYS.join(', ')}`);
    }
  }
  const tbon = config.tbon;
  if (isTable(tbon)) {
    for (const k of unknownKeys(tbon, TBON_KEYS)) {
      errors.push(`[tbon] ${k}: unknown key (Flux silently ignores it); allowed: ${TBON_KEYS.join(', ')}`);
    }
  }
  const broker = config.broker;
  if (isTable(broker) && 'quorum' in broker) {
    errors.push('[broker] quorum: ignored by Flux in TOML; set minSize (passed as -Sbroker.quorum) instead');
  }
  return errors;
}

function checkBootstrap(b: Table, expected?: ExpectedHosts): string[] {
  const errors: string[] = [];
  for (const k of unknownKeys(b, BOOTSTRAP_KEYS)) {
    errors.push(`[bootstrap] ${k}: unknown key (fatal in flux-core: "left unpacked"); allowed: ${BOOTSTRAP_KEYS.join(', ')}`);
  }
  if ('default_port' in b && !(typeof b.default_port === 'number' || typeof b.default_port === 'bigint')) {
    errors.push(`[bootstrap] default_port = ${JSON.stringify(b.default_port)}: must be a TOML integer`);
  }
  for (const k of ['curve_cert', 'default_bind', 'default_connect']) {
    if (k in b && typeof b[k] !== 'string') errors.push(`[bootstrap] ${k}: must be a string`);
  }
  if (!('hosts' in b)) return errors;
  if (!Array.isArray(b.hosts)) return [...errors, '[bootstrap] hosts: must be an array of tables'];
  const hosts: string[] = [];
  b.hosts.forEach((entry, i) => {
    if (!isTable(entry)) {
      errors.push(`[bootstrap] hosts[${i}]: must be a table like { host = "name-[0-3]" } (Flux: "Expected object")`);
      return;
    }
    for (const k of unknownKeys(entry, HOST_ENTRY_KEYS)) {
      errors.push(`[bootstrap] hosts[${i}].${k}: unknown key (fatal in flux-core); allowed: ${HOST_ENTRY_KEYS.join(', ')}`);
    }
    if (typeof entry.host !== 'string') {
      errors.push(`[bootstrap] hosts[${i}].host: required string`);
      return;
    }
    try {
      hosts.push(...expandHostlist(entry.host));
    } catch (e) {
      errors.push(`[bootstrap] hosts[${i}].host = "${entry.host}": ${(e as Error).message}`);
    }
  });
  for (const h of new Set(hosts)) {
    if (!/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(h)) {
      errors.push(`[bootstrap] hosts: "${h}" is not an RFC 1035 label (fatal in flux-core)`);
      break;
    }
  }
  if (expected) {
    const counts = new Map<string, number>();
    for (const h of hosts) counts.set(h, (counts.get(h) ?? 0) + 1);
    const missing = expected.hostnames.filter((h) => !counts.has(h));
    const dup = [...counts].filter(([, n]) => n > 1).map(([h]) => h);
    if (missing.length > 0) {
      errors.push(`[bootstrap] hosts: missing ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''} (a broker whose hostname is not in hosts dies at start)`);
    }
    if (dup.length > 0) errors.push(`[bootstrap] hosts: ${dup.slice(0, 3).join(', ')} listed more than once`);
  }
  return errors;
}

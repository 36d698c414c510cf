/**
 * What flux-core (0.88) accepts in a config file, per flux-runtime.md §3: [bootstrap] and
 * [resource] are unpacked strictly (an unknown key is fatal at start), [tbon] and [broker] are not
 * (unknown or misspelled keys are silently ignored), and `[broker] quorum` has no effect.
 * Checking here turns a broker that dies or misbehaves in the cluster into a synth-time error.
 */
import { HostRun, parseHostlist } from './hostlist';

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

/** The hosts the config must list: `<prefix>-0` to `<prefix>-(count-1)`, each once, in rank order. */
export interface ExpectedHosts {
  readonly prefix: string;
  readonly count: number;
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
  const runs: HostRun[] = [];
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
      runs.push(...parseHostlist(entry.host));
    } catch (e) {
      errors.push(`[bootstrap] hosts[${i}].host = "${entry.host}": ${(e as Error).message}`);
    }
  });
  for (const run of runs) {
    const sample = run.lo < 0 ? run.head : `${run.head}${run.hi}${run.tail}`;
    if (!/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(sample)) {
      errors.push(`[bootstrap] hosts: "${sample}" is not an RFC 1035 label (fatal in flux-core)`);
      break;
    }
  }
  if (expected) errors.push(...checkRanks(runs, expected));
  return errors;
}

/**
 * Rank i must be pod `<prefix>-i`: the hosts handshake and the TBON topology assume it, and a pod
 * missing from hosts dies at start. Checked on the runs, so the cost does not grow with size.
 */
function checkRanks(runs: HostRun[], expected: ExpectedHosts): string[] {
  let next = 0;
  for (const run of runs) {
    const name = run.lo < 0 ? run.head : `${run.head}${String(run.lo).padStart(run.width, '0')}${run.tail}`;
    const ours = run.head === `${expected.prefix}-` && run.tail === '' && run.width === 0 && run.lo >= 0;
    if (!ours) {
      if (run.lo < 0 && run.head === `${expected.prefix}-${next}`) {
        next++;
        continue;
      }
      return [`[bootstrap] hosts: ${name} at rank ${next} is not ${expected.prefix}-${next} (rank i must be pod ${expected.prefix}-i, the pods are ${expected.prefix}-0 to ${expected.prefix}-${expected.count - 1})`];
    }
    if (run.lo !== next) {
      return [run.lo < next
        ? `[bootstrap] hosts: ${name} listed more than once`
        : `[bootstrap] hosts: missing ${expected.prefix}-${next} (a broker whose hostname is not in hosts dies at start; rank i must be pod ${expected.prefix}-i)`];
    }
    next = run.hi + 1;
  }
  if (next < expected.count) return [`[bootstrap] hosts: missing ${expected.prefix}-${next}${expected.count - next > 1 ? ` to ${expected.prefix}-${expected.count - 1}` : ''} (a broker whose hostname is not in hosts dies at start)`];
  if (next > expected.count) return [`[bootstrap] hosts: ${expected.prefix}-${expected.count} to ${expected.prefix}-${next - 1} are not pods of this cluster (rank 0 would wait for them forever)`];
  return [];
}

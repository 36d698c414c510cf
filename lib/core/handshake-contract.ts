/**
 * The contract between the hosts-handshake program (lib/runtime/handshake) and whatever wires it
 * into a pod (the constructs and the entrypoint scripts). Both sides import these names, so a flag,
 * a file name or an exit code can only change in one place. See docs/handshake.md.
 */
import { CERTIFICATE_MOUNT_DIR, CERTIFICATE_SECRET_KEY } from './certificate-contract';
import { DEFAULT_TOPOLOGY, parseTopology } from './topology';

/** Name of the runtime program; `runtimeBundle(HANDSHAKE_PROGRAM)` returns its bundled source. */
export const HANDSHAKE_PROGRAM = 'handshake';
/** The handshake container's name in the pod. */
export const HANDSHAKE_CONTAINER = 'flux-handshake';
/** Where pods mount the bundled program (a ConfigMap key `handshake.js` under /program). */
export const DEFAULT_HANDSHAKE_PROGRAM_PATH = '/program/handshake.js';

/**
 * Node flags the program runs with. A 1 MiB young generation and V8's lite mode (no optimizing
 * compiler) keep a sidecar's resident memory near Node's baseline under connection churn (garbage
 * floods, 1024 peers); the work is I/O and native crypto, so the optimizer buys little. Lite
 * mode turns WebAssembly off; saying so keeps V8 from warning about it on every start.
 */
export const HANDSHAKE_NODE_FLAGS: string[] = ['--max-semi-space-size=1', '--lite-mode', '--no-expose-wasm'];

/** TCP port of the handshake server in every pod (Flux itself uses 8050). */
export const DEFAULT_HANDSHAKE_PORT = 8060;
/** The Flux broker port written into the parent file (`bootstrap.default_port`). */
export const DEFAULT_FLUX_PORT = 8050;
/** HTTP port of the runner's readiness, served by the handshake sidecar (runtime/handshake/readiness.ts). */
export const DEFAULT_READY_PORT = 8061;
/** The path the readiness probe gets. */
export const READY_PATH = '/readyz';

/**
 * A port as /proc/net/tcp writes it (4 upper-case hex digits): both readiness rules, flux-ready.sh
 * and the sidecar's (runtime/handshake/readiness.ts), match the broker port's connections by it.
 */
export function procNetPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}
/** Whole-handshake deadline; on expiry the program exits with HANDSHAKE_EXIT_DEADLINE. */
export const DEFAULT_HANDSHAKE_DEADLINE_SECONDS = 300;
/** The shared emptyDir the program writes its results into. */
export const DEFAULT_HANDSHAKE_OUT_DIR = '/mnt/flux-handshake';
/**
 * Where the Flux runner leaves RUNNER_EXITED_FILE for a native-sidecar handshake: subdirectory
 * RUNNER_STATE_SUBDIR of the handshake's volume, the one part of it the runner may write.
 */
export const DEFAULT_RUNNER_STATE_DIR = '/mnt/flux-runner';
/**
 * Handshake in the runner (handshake.inRunner): where the runner mounts the handshake image (an
 * image volume) whose node runs the program, and the program's ConfigMap (its ENTRYPOINT_MOUNT_DIR
 * holds the entrypoint ConfigMap).
 */
export const HANDSHAKE_NODE_ROOT = '/mnt/flux-handshake-node';
export const HANDSHAKE_PROGRAM_DIR_IN_RUNNER = '/mnt/flux-handshake-program';
export const RUNNER_STATE_SUBDIR = 'runner';
export const RUNNER_EXITED_FILE = 'exited';
/** Interface Flux binds on interior ranks (`default_bind = "tcp://eth0:%p"`). */
export const DEFAULT_BIND_INTERFACE = 'eth0';
export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';
export const DEFAULT_TERMINATION_LOG = '/dev/termination-log';
/** The certificate file the handshake key is derived from. */
export const DEFAULT_HANDSHAKE_CERTIFICATE_PATH = `${CERTIFICATE_MOUNT_DIR}/${CERTIFICATE_SECRET_KEY}`;

/** Files in the out dir. Each is written atomically (temp file + rename). */
export const HANDSHAKE_PARENT_FILE = 'parent.env';
export const HANDSHAKE_HOSTS_FILE = 'hosts';
export const HANDSHAKE_READY_FILE = 'ready';
export const HANDSHAKE_FAILED_FILE = 'failed';

/** Keys of parent.env (shell-sourceable `KEY=value` lines; values never need quoting). */
export const PARENT_ENV_RANK = 'FLUX_PARENT_RANK';
export const PARENT_ENV_HOST = 'FLUX_PARENT_HOST';
export const PARENT_ENV_FQDN = 'FLUX_PARENT_FQDN';
export const PARENT_ENV_IP = 'FLUX_PARENT_IP';
export const PARENT_ENV_PORT = 'FLUX_PARENT_PORT';
/** `tcp://<ip>:<port>` (IPv6 in brackets): the value for the parent's hosts entry `connect`. */
export const PARENT_ENV_URI = 'FLUX_PARENT_URI';
/** Keys of the `failed` file. */
export const FAILED_ENV_CODE = 'HANDSHAKE_EXIT_CODE';
export const FAILED_ENV_MESSAGE = 'HANDSHAKE_MESSAGE';

/** Exit codes. Distinct so a Job podFailurePolicy (onExitCodes) can tell them apart. */
export const HANDSHAKE_EXIT_OK = 0;
/** Invalid flags or environment (all problems are listed in the log). */
export const HANDSHAKE_EXIT_CONFIG = 64;
/** A bug: an unexpected exception. */
export const HANDSHAKE_EXIT_INTERNAL = 70;
/** The deadline passed; the termination message names the peers that never answered. */
export const HANDSHAKE_EXIT_DEADLINE = 81;
/** A peer holds a different CURVE certificate (Flux would hang silently forever). */
export const HANDSHAKE_EXIT_CERT_MISMATCH = 82;
/** The pod's hostname is not exactly one entry of the Flux hosts list. */
export const HANDSHAKE_EXIT_HOSTNAME = 83;
/** An interior rank's bind interface does not exist. */
export const HANDSHAKE_EXIT_BIND_INTERFACE = 84;
/** An interior rank's Flux port is already bound. */
export const HANDSHAKE_EXIT_BIND_PORT = 85;
/** The certificate file cannot be read or is empty. */
export const HANDSHAKE_EXIT_CERT_UNREADABLE = 86;

/** Every non-zero exit code the program can return, ascending. */
export const HANDSHAKE_FAILURE_EXIT_CODES: number[] = [
  HANDSHAKE_EXIT_CONFIG,
  HANDSHAKE_EXIT_INTERNAL,
  HANDSHAKE_EXIT_DEADLINE,
  HANDSHAKE_EXIT_CERT_MISMATCH,
  HANDSHAKE_EXIT_HOSTNAME,
  HANDSHAKE_EXIT_BIND_INTERFACE,
  HANDSHAKE_EXIT_BIND_PORT,
  HANDSHAKE_EXIT_CERT_UNREADABLE,
];

/** What each failure exit code means, in words (for `cdk8s-minicluster status`, docs/day2.md). */
export const HANDSHAKE_EXIT_MEANINGS: { [code: number]: string } = {
  [HANDSHAKE_EXIT_CONFIG]: 'invalid handshake flags or environment',
  [HANDSHAKE_EXIT_INTERNAL]: 'internal error of the handshake program (a bug)',
  [HANDSHAKE_EXIT_DEADLINE]: 'the handshake deadline passed before every peer answered',
  [HANDSHAKE_EXIT_CERT_MISMATCH]: 'a peer holds a different CURVE certificate',
  [HANDSHAKE_EXIT_HOSTNAME]: "the pod's hostname is not exactly one entry of the Flux hosts list",
  [HANDSHAKE_EXIT_BIND_INTERFACE]: "the bind interface of an interior rank does not exist",
  [HANDSHAKE_EXIT_BIND_PORT]: "the Flux port of an interior rank is already bound",
  [HANDSHAKE_EXIT_CERT_UNREADABLE]: 'the CURVE certificate file cannot be read or is empty',
};

/** How a pod finds rank 0's handshake server (the directory). */
export enum HandshakeMode {
  /**
   * Through the ClusterIP Service `<name>-rendezvous`, which selects index 0 by the pod label
   * `batch.kubernetes.io/job-completion-index` (Kubernetes >= 1.28). Its name resolves from the
   * moment it is applied, so negative DNS caching never applies.
   */
  RENDEZVOUS = 'rendezvous',
  /**
   * By polling rank 0's per-pod DNS name in the headless Service (any Kubernetes version, no extra
   * Service). Slower when a resolver caches NXDOMAIN answers for names queried too early.
   */
  DNS = 'dns',
}

/** How long the program runs. */
export enum HandshakeLifecycle {
  /** Native sidecar: keeps running after `ready` to answer late or restarted peers. */
  SIDECAR = 'sidecar',
  /** Init container: exits 0 once this rank and its TBON children are done. */
  INIT = 'init',
}

/** One program option: a command-line flag and the environment variable that can also set it. */
export interface HandshakeOptionName {
  readonly flag: string;
  readonly env: string;
}

function opt(flag: string, env: string): HandshakeOptionName {
  return { flag: `--${flag}`, env };
}

/** Flags and environment variables. A flag wins over its environment variable. */
export const HANDSHAKE_OPT_NAME = opt('name', 'HANDSHAKE_NAME');
export const HANDSHAKE_OPT_SIZE = opt('size', 'HANDSHAKE_SIZE');
export const HANDSHAKE_OPT_MAX_SIZE = opt('max-size', 'HANDSHAKE_MAX_SIZE');
export const HANDSHAKE_OPT_QUORUM = opt('quorum', 'HANDSHAKE_QUORUM');
export const HANDSHAKE_OPT_TOPOLOGY = opt('topology', 'HANDSHAKE_TOPOLOGY');
export const HANDSHAKE_OPT_SERVICE = opt('service', 'HANDSHAKE_SERVICE');
export const HANDSHAKE_OPT_NAMESPACE = opt('namespace', 'POD_NAMESPACE');
export const HANDSHAKE_OPT_CLUSTER_DOMAIN = opt('cluster-domain', 'HANDSHAKE_CLUSTER_DOMAIN');
export const HANDSHAKE_OPT_MODE = opt('mode', 'HANDSHAKE_MODE');
export const HANDSHAKE_OPT_LIFECYCLE = opt('lifecycle', 'HANDSHAKE_LIFECYCLE');
export const HANDSHAKE_OPT_RENDEZVOUS_HOST = opt('rendezvous-host', 'HANDSHAKE_RENDEZVOUS_HOST');
export const HANDSHAKE_OPT_PORT = opt('port', 'HANDSHAKE_PORT');
export const HANDSHAKE_OPT_FLUX_PORT = opt('flux-port', 'HANDSHAKE_FLUX_PORT');
export const HANDSHAKE_OPT_BIND_INTERFACE = opt('bind-interface', 'HANDSHAKE_BIND_INTERFACE');
export const HANDSHAKE_OPT_DEADLINE = opt('deadline-seconds', 'HANDSHAKE_DEADLINE_SECONDS');
export const HANDSHAKE_OPT_OUT_DIR = opt('out-dir', 'HANDSHAKE_OUT_DIR');
export const HANDSHAKE_OPT_CERT = opt('cert', 'HANDSHAKE_CERT');
export const HANDSHAKE_OPT_TERMINATION_LOG = opt('termination-log', 'HANDSHAKE_TERMINATION_LOG');
/** Set by the Job controller in every pod of an Indexed Job. */
export const HANDSHAKE_OPT_INDEX = opt('index', 'JOB_COMPLETION_INDEX');
/** From the downward API (`status.podIP`). */
export const HANDSHAKE_OPT_POD_IP = opt('pod-ip', 'POD_IP');
/** Test overrides: the pod's hostname (default: os.hostname()), the address the port check binds
 *  (default: the bind interface's address) and a DNS server `ip:port` (default: system resolver). */
export const HANDSHAKE_OPT_HOSTNAME = opt('hostname', 'HANDSHAKE_HOSTNAME');
export const HANDSHAKE_OPT_BIND_ADDRESS = opt('bind-address', 'HANDSHAKE_BIND_ADDRESS');
export const HANDSHAKE_OPT_DNS_SERVER = opt('dns-server', 'HANDSHAKE_DNS_SERVER');
/** Sidecar lifecycle: a file the Flux runner creates as it exits; the handshake then exits too. */
export const HANDSHAKE_OPT_RUNNER_EXIT_FILE = opt('runner-exit-file', 'HANDSHAKE_RUNNER_EXIT_FILE');
/** Sidecar lifecycle: serve the runner's readiness on this port (READY_PATH); with the two below. */
export const HANDSHAKE_OPT_READY_PORT = opt('ready-port', 'HANDSHAKE_READY_PORT');
/** Rank 0 is ready once this many TBON children are connected. */
export const HANDSHAKE_OPT_READY_LEAD_CHILDREN = opt('ready-lead-children', 'HANDSHAKE_READY_LEAD_CHILDREN');
/** Rank 0's local broker socket (the view volume is mounted read-only into the sidecar for it). */
export const HANDSHAKE_OPT_READY_SOCKET = opt('ready-socket', 'HANDSHAKE_READY_SOCKET');

/** The ClusterIP Service that routes to rank 0's handshake server in RENDEZVOUS mode. */
export function rendezvousServiceName(clusterName: string): string {
  return `${clusterName}-rendezvous`;
}

/** Pod labels that select rank 0 of the Indexed Job (both set by the Job controller, >= 1.28). */
export function rendezvousSelector(clusterName: string): { [key: string]: string } {
  return {
    'batch.kubernetes.io/job-completion-index': '0',
    'batch.kubernetes.io/job-name': clusterName,
  };
}

/** Inputs of {@link handshakeWiring}. */
export interface HandshakeWiringOptions {
  /** MiniCluster (Job) name; hostnames are `<clusterName>-<index>`. */
  readonly clusterName: string;
  /** The headless Service the pods use as subdomain. */
  readonly serviceName: string;
  /** Number of pods started (brokers expected). */
  readonly size: number;
  /** Number of hosts in the Flux hosts list. @default size */
  readonly maxSize?: number;
  /** Brokers rank 0 waits for before it is ready. @default size */
  readonly quorum?: number;
  /** @default DEFAULT_TOPOLOGY */
  readonly topology?: string;
  /** @default HandshakeMode.RENDEZVOUS */
  readonly mode?: HandshakeMode;
  /** @default HandshakeLifecycle.SIDECAR */
  readonly lifecycle?: HandshakeLifecycle;
  /** @default DEFAULT_HANDSHAKE_PORT */
  readonly port?: number;
  /** @default DEFAULT_FLUX_PORT */
  readonly fluxPort?: number;
  /** @default DEFAULT_BIND_INTERFACE */
  readonly bindInterface?: string;
  /** @default DEFAULT_HANDSHAKE_DEADLINE_SECONDS */
  readonly deadlineSeconds?: number;
  /** @default DEFAULT_HANDSHAKE_OUT_DIR */
  readonly outDir?: string;
  /** @default DEFAULT_HANDSHAKE_CERTIFICATE_PATH */
  readonly certificatePath?: string;
  /** @default DEFAULT_CLUSTER_DOMAIN */
  readonly clusterDomain?: string;
  /** @default DEFAULT_HANDSHAKE_PROGRAM_PATH */
  readonly programPath?: string;
  /**
   * Sidecar lifecycle: where the Flux runner mounts RUNNER_STATE_SUBDIR of the handshake's volume,
   * to leave RUNNER_EXITED_FILE there as it exits. @default DEFAULT_RUNNER_STATE_DIR
   */
  readonly runnerStateDir?: string;
  /**
   * Sidecar lifecycle: serve the Flux runner's readiness over HTTP, so that its probe is an httpGet
   * the kubelet runs itself instead of an exec. Ignored by the init lifecycle (gone by then).
   */
  readonly readiness?: HandshakeReadinessOptions;
}

/** The runner's readiness rule, served by the sidecar (runtime/handshake/readiness.ts). */
export interface HandshakeReadinessOptions {
  /** @default DEFAULT_READY_PORT */
  readonly port?: number;
  /** TBON children rank 0 needs connected to be ready. */
  readonly leadChildren: number;
  /** Rank 0's local broker socket, as the sidecar sees it. */
  readonly localSocket: string;
}

/** A container environment variable: a literal value or a downward-API field. */
export interface HandshakeEnvVar {
  readonly name: string;
  readonly value?: string;
  /** Downward API `fieldRef.fieldPath`. */
  readonly fieldPath?: string;
}

/** The ClusterIP Service RENDEZVOUS mode needs. */
export interface HandshakeRendezvousService {
  readonly name: string;
  /** Service port and targetPort (TCP). */
  readonly port: number;
  readonly selector: { [key: string]: string };
  /** Route to rank 0 before it is Ready (its handshake server must answer during startup). */
  readonly publishNotReadyAddresses: boolean;
  /**
   * INIT lifecycle only: the Flux broker port, as a second Service port (port and targetPort).
   * A pod that starts after the cluster is up learns there that rank 0's broker runs (its
   * handshake has exited), and joins without it (docs/handshake.md, "Lifecycle, restarts").
   */
  readonly fluxPort?: number;
}

/** Everything needed to put the program into the pod template. */
export interface HandshakeWiring {
  /** The container command: `node <HANDSHAKE_NODE_FLAGS…> <programPath> <flags…>`. */
  readonly command: string[];
  /** Environment of the handshake container (downward API; JOB_COMPLETION_INDEX is set by the Job). */
  readonly env: HandshakeEnvVar[];
  /** Container port to declare (TCP). */
  readonly containerPort: number;
  readonly outDir: string;
  readonly parentFile: string;
  readonly hostsFile: string;
  readonly readyFile: string;
  readonly failedFile: string;
  /**
   * Sidecar lifecycle: the file the runner creates as it exits, as the handshake sees it
   * (`<outDir>/runner/exited`). The handshake exits at once when it appears, so that the kubelet
   * sees both containers end together: a native sidecar still running when the main container
   * ends costs the pod one more status cycle (about a second) before it turns Succeeded.
   */
  readonly runnerExitFile?: string;
  /** Sidecar lifecycle: where the runner mounts RUNNER_STATE_SUBDIR of outDir's volume, read-write. */
  readonly runnerStateDir?: string;
  /** Sidecar lifecycle with readiness: the port its HTTP readiness answers on (READY_PATH). */
  readonly readyPort?: number;
  /** Present in RENDEZVOUS mode. */
  readonly rendezvousService?: HandshakeRendezvousService;
  /** Lowest Kubernetes minor version (1.x) this wiring works on. */
  readonly minimumKubernetesMinor: number;
  /** Exit codes to map in a podFailurePolicy (see HANDSHAKE_FAILURE_EXIT_CODES). */
  readonly failureExitCodes: number[];
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Resolves the options into the command, environment, probe and Service of the handshake
 * container. Throws one error listing every invalid option.
 */
export function handshakeWiring(options: HandshakeWiringOptions): HandshakeWiring {
  const size = options.size;
  const maxSize = options.maxSize ?? size;
  const quorum = options.quorum ?? size;
  const topology = options.topology ?? DEFAULT_TOPOLOGY;
  const mode = options.mode ?? HandshakeMode.RENDEZVOUS;
  const lifecycle = options.lifecycle ?? HandshakeLifecycle.SIDECAR;
  const port = options.port ?? DEFAULT_HANDSHAKE_PORT;
  const fluxPort = options.fluxPort ?? DEFAULT_FLUX_PORT;
  const deadline = options.deadlineSeconds ?? DEFAULT_HANDSHAKE_DEADLINE_SECONDS;
  const outDir = options.outDir ?? DEFAULT_HANDSHAKE_OUT_DIR;
  const domain = options.clusterDomain ?? DEFAULT_CLUSTER_DOMAIN;
  const errors: string[] = [];
  const intIn = (field: string, v: number, lo: number, hi: number): void => {
    if (!Number.isInteger(v) || v < lo || v > hi) errors.push(`${field}: ${v} must be an integer from ${lo} to ${hi}`);
  };
  if (!DNS_LABEL.test(options.clusterName) || options.clusterName.length > 63) {
    errors.push(`clusterName: '${options.clusterName}' must be an RFC 1035 label (lowercase letters, digits, '-')`);
  }
  if (!DNS_LABEL.test(options.serviceName) || options.serviceName.length > 63) {
    errors.push(`serviceName: '${options.serviceName}' must be an RFC 1035 label`);
  }
  intIn('size', size, 1, 100000);
  // Defaults follow size, so only explicit values can be wrong on their own.
  if (options.maxSize !== undefined) intIn('maxSize', maxSize, Math.max(1, size), 100000);
  if (options.quorum !== undefined) intIn('quorum', quorum, 1, Math.max(1, size));
  intIn('port', port, 1, 65535);
  intIn('fluxPort', fluxPort, 1, 65535);
  if (port === fluxPort) errors.push(`port: ${port} must differ from fluxPort (Flux binds it)`);
  const readiness = lifecycle === HandshakeLifecycle.SIDECAR ? options.readiness : undefined;
  const readyPort = readiness ? (readiness.port ?? DEFAULT_READY_PORT) : undefined;
  if (readiness && readyPort !== undefined) {
    intIn('readiness.port', readyPort, 1, 65535);
    if (readyPort === port || readyPort === fluxPort) errors.push(`readiness.port: ${readyPort} must differ from port and fluxPort`);
    intIn('readiness.leadChildren', readiness.leadChildren, 0, 100000);
    if (!readiness.localSocket.startsWith('/')) errors.push(`readiness.localSocket: '${readiness.localSocket}' must be an absolute path`);
  }
  intIn('deadlineSeconds', deadline, 1, 86400);
  const topo = parseTopology(topology);
  if (typeof topo === 'string') errors.push(`topology: '${topology}' ${topo}`);
  if (!Object.values(HandshakeMode).includes(mode)) errors.push(`mode: '${mode}' must be one of ${Object.values(HandshakeMode).join(', ')}`);
  if (!Object.values(HandshakeLifecycle).includes(lifecycle)) {
    errors.push(`lifecycle: '${lifecycle}' must be one of ${Object.values(HandshakeLifecycle).join(', ')}`);
  }
  if (!outDir.startsWith('/')) errors.push(`outDir: '${outDir}' must be an absolute path`);
  const runnerStateDir = lifecycle === HandshakeLifecycle.SIDECAR ? (options.runnerStateDir ?? DEFAULT_RUNNER_STATE_DIR) : undefined;
  if (runnerStateDir !== undefined && (!runnerStateDir.startsWith('/') || runnerStateDir === outDir)) {
    errors.push(`runnerStateDir: '${runnerStateDir}' must be an absolute path other than outDir`);
  }
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(domain)) errors.push(`clusterDomain: '${domain}' must be a DNS name`);
  if (errors.length > 0) throw new Error(`invalid handshake options:\n  ${errors.join('\n  ')}`);

  const flags: [HandshakeOptionName, string | number][] = [
    [HANDSHAKE_OPT_NAME, options.clusterName],
    [HANDSHAKE_OPT_SERVICE, options.serviceName],
    [HANDSHAKE_OPT_SIZE, size],
    [HANDSHAKE_OPT_MAX_SIZE, maxSize],
    [HANDSHAKE_OPT_QUORUM, quorum],
    [HANDSHAKE_OPT_TOPOLOGY, topology],
    [HANDSHAKE_OPT_MODE, mode],
    [HANDSHAKE_OPT_LIFECYCLE, lifecycle],
    [HANDSHAKE_OPT_PORT, port],
    [HANDSHAKE_OPT_FLUX_PORT, fluxPort],
    [HANDSHAKE_OPT_BIND_INTERFACE, options.bindInterface ?? DEFAULT_BIND_INTERFACE],
    [HANDSHAKE_OPT_DEADLINE, deadline],
    [HANDSHAKE_OPT_OUT_DIR, outDir],
    [HANDSHAKE_OPT_CERT, options.certificatePath ?? DEFAULT_HANDSHAKE_CERTIFICATE_PATH],
    [HANDSHAKE_OPT_CLUSTER_DOMAIN, domain],
  ];
  const runnerExitFile = runnerStateDir !== undefined ? `${outDir}/${RUNNER_STATE_SUBDIR}/${RUNNER_EXITED_FILE}` : undefined;
  if (runnerExitFile !== undefined) flags.push([HANDSHAKE_OPT_RUNNER_EXIT_FILE, runnerExitFile]);
  if (readiness && readyPort !== undefined) {
    flags.push([HANDSHAKE_OPT_READY_PORT, readyPort], [HANDSHAKE_OPT_READY_LEAD_CHILDREN, readiness.leadChildren], [HANDSHAKE_OPT_READY_SOCKET, readiness.localSocket]);
  }
  const file = (name: string): string => `${outDir}/${name}`;
  return {
    command: ['node', ...HANDSHAKE_NODE_FLAGS, options.programPath ?? DEFAULT_HANDSHAKE_PROGRAM_PATH, ...flags.map(([o, v]) => `${o.flag}=${v}`)],
    env: [
      { name: HANDSHAKE_OPT_POD_IP.env, fieldPath: 'status.podIP' },
      { name: HANDSHAKE_OPT_NAMESPACE.env, fieldPath: 'metadata.namespace' },
    ],
    containerPort: port,
    outDir,
    parentFile: file(HANDSHAKE_PARENT_FILE),
    hostsFile: file(HANDSHAKE_HOSTS_FILE),
    readyFile: file(HANDSHAKE_READY_FILE),
    failedFile: file(HANDSHAKE_FAILED_FILE),
    ...(runnerExitFile !== undefined ? { runnerExitFile, runnerStateDir } : {}),
    ...(readyPort !== undefined ? { readyPort } : {}),
    rendezvousService: mode === HandshakeMode.RENDEZVOUS
      ? {
        name: rendezvousServiceName(options.clusterName), port, selector: rendezvousSelector(options.clusterName), publishNotReadyAddresses: true,
        ...(lifecycle === HandshakeLifecycle.INIT ? { fluxPort } : {}),
      }
      : undefined,
    // Native sidecars are on by default from 1.29; the job-completion-index pod label came in 1.28;
    // DNS mode as an init container needs only Indexed Jobs (GA 1.24).
    minimumKubernetesMinor: Math.max(lifecycle === HandshakeLifecycle.SIDECAR ? 29 : 24, mode === HandshakeMode.RENDEZVOUS ? 28 : 24),
    failureExitCodes: [...HANDSHAKE_FAILURE_EXIT_CODES],
  };
}

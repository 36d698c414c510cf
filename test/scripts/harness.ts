/**
 * Runs the rendered scripts for real with bash, in a temp sandbox, against test doubles of the
 * external `flux` and `hostname` executables placed first on PATH. The doubles record each call's
 * argv, environment and working directory, and exit with the codes the test chooses.
 */
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LeadMode, ScriptModel } from '../../lib/scripts/model';

/** A test double of the flux CLI (a small bash program, not a stub of the project's code). */
const FAKE_FLUX = `#!/bin/bash
# Records the call, then: 'flux R encode' prints a fake R built from its arguments; 'flux start' and
# 'flux broker' exit with the next code of FAKE_FLUX_START_CODES (the last one repeats), after
# saving the broker.toml of the config directory they were given and running FAKE_FLUX_ON_START.
# With FAKE_FLUX_RUN set, 'flux start' runs its initial program and 'flux submit' its command,
# like a one-node instance.
calls=$FAKE_FLUX_CALLS
n=$(( $(cat "$calls/count" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$calls/count"
printf '%s\\0' "$@" > "$calls/$n.argv"
env -0 > "$calls/$n.env"
pwd > "$calls/$n.cwd"
if [ "$1 $2" = "R encode" ]; then
  shift 2
  printf '{"fake-R":"%s"}\\n' "$*"
  exit 0
fi
if [ "$1" = start ] || [ "$1" = broker ]; then
  previous=''
  for arg in "$@"; do
    if [ "$previous" = --config ] || [ "$previous" = --config-path ]; then
      cp "$arg/broker.toml" "$calls/$n.broker.toml"
    fi
    previous=$arg
  done
  s=$(( $(cat "$calls/starts" 2>/dev/null || echo 0) + 1 ))
  echo "$s" > "$calls/starts"
  if [ -n "\${FAKE_FLUX_ON_START:-}" ]; then eval "$FAKE_FLUX_ON_START"; fi
  if [ -n "\${FAKE_FLUX_RUN:-}" ]; then
    # A one-node instance: run the initial program after the broker arguments.
    shift
    while [ $# -gt 0 ]; do
      case "$1" in
        --config) shift 2 ;;
        -o|-S*|--wrap=*) shift ;;
        *) break ;;
      esac
    done
    if [ $# -gt 0 ]; then exec "$@"; fi
  fi
  read -r -a codes <<< "\${FAKE_FLUX_START_CODES:-0}"
  index=$(( s <= \${#codes[@]} ? s - 1 : \${#codes[@]} - 1 ))
  exit "\${codes[$index]}"
fi
if [ "$1" = submit ] && [ -n "\${FAKE_FLUX_RUN:-}" ] && [[ " $* " == *" --watch "* ]]; then
  # 'flux submit <flags> --quiet --watch CMD...': run CMD once, as the job.
  while [ $# -gt 0 ] && [ "$1" != --watch ]; do shift; done
  shift
  exec "$@"
fi
# 'flux submit' and 'flux batch' print a job ID (f<call number>); 'flux job attach ID' replays a
# job's output (FAKE_FLUX_ATTACH_CODE is its exit code); 'flux job wait' exits FAKE_FLUX_WAIT_CODE.
if [ "$1" = submit ] || [ "$1" = batch ]; then
  printf 'f%s\n' "$n"
  exit "\${FAKE_FLUX_EXIT:-0}"
fi
if [ "$1 $2" = "job attach" ]; then
  printf 'output of %s\n' "$3"
  printf 'errors of %s\n' "$3" >&2
  exit "\${FAKE_FLUX_ATTACH_CODE:-0}"
fi
# 'flux job stats' prints FAKE_FLUX_JOB_STATS (default: no job ever), or fails with FAKE_FLUX_STATS_EXIT.
if [ "$1 $2" = "job stats" ]; then
  if [ -n "\${FAKE_FLUX_STATS_EXIT:-}" ]; then exit "$FAKE_FLUX_STATS_EXIT"; fi
  none='{"job_states":{"depend":0,"priority":0,"sched":0,"run":0,"cleanup":0,"inactive":0,"total":0}}'
  printf '%s\\n' "\${FAKE_FLUX_JOB_STATS:-$none}"
  exit 0
fi
if [ "$1 $2" = "job wait" ]; then
  exit "\${FAKE_FLUX_WAIT_CODE:-0}"
fi
exit "\${FAKE_FLUX_EXIT:-0}"
`;

const FAKE_HOSTNAME = `#!/bin/sh
printf '%s\\n' "$FAKE_HOSTNAME"
`;

/** One recorded call of the fake flux. */
export interface FluxCall {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** The broker.toml of the config directory a `flux start`/`flux broker` call was given. */
  readonly brokerToml?: string;
}

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** The fake hostname; default: the lead's. */
  readonly hostname?: string;
  /** Exit codes of successive `flux start` calls, e.g. '1 1 0'. */
  readonly startCodes?: string;
  /** Shell code the fake flux runs at each start ($s is the start count). */
  readonly onStart?: string;
  /** Extra environment. */
  readonly env?: Record<string, string>;
  /** Run as this uid/gid (needs root; skipped when the tests already run unprivileged). */
  readonly uid?: number;
  /** The script's arguments. */
  readonly args?: string[];
}

/** A temp directory tree standing in for the pod's volumes. */
export class Sandbox {
  readonly root: string;
  readonly bin: string;
  readonly calls: string;
  readonly mount: string;
  readonly certificate: string;
  readonly handshake: string;
  /** Where the entrypoint ConfigMap is mounted (ScriptModel.scriptsDir): see mountConfigMap. */
  readonly scripts: string;
  /** The runner's /opt (FLUX_OPT_DIR of the entrypoint). */
  readonly opt: string;
  /** The flux view image's /opt (FLUX_OPT_DIR of the init script): a fake Spack view and install tree. */
  readonly image: string;
  readonly home: string;
  readonly logs: string;
  readonly work: string;

  constructor() {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'minicluster-scripts-'));
    fs.chmodSync(this.root, 0o755);
    const dir = (name: string, mode = 0o755) => {
      const p = path.join(this.root, name);
      fs.mkdirSync(p, { recursive: true });
      fs.chmodSync(p, mode);
      return p;
    };
    this.bin = dir('bin');
    this.calls = dir('calls', 0o777);
    // Like an emptyDir volume: writable by every user of the pod.
    this.mount = dir('mnt/flux view', 0o777);
    this.handshake = dir('handshake', 0o777);
    this.scripts = path.join(this.root, 'flux_operator');
    this.opt = dir('opt', 0o777);
    // One flux-software volume: the init container's <mount>/software is the runner's /opt/software.
    fs.symlinkSync(dir('opt/software', 0o777), path.join(this.mount, 'software'));
    this.image = dir('image');
    this.makeFakeView();
    this.home = dir('home', 0o777);
    this.logs = path.join(this.root, 'logs');
    this.work = dir('work', 0o777);
    dir('secret');
    this.certificate = path.join(this.root, 'secret', 'curve.cert');
    fs.writeFileSync(this.certificate, CERTIFICATE, { mode: 0o400 });
    fs.chmodSync(this.certificate, 0o400);
    fs.writeFileSync(path.join(this.bin, 'flux'), FAKE_FLUX, { mode: 0o755 });
    fs.writeFileSync(path.join(this.bin, 'hostname'), FAKE_HOSTNAME, { mode: 0o755 });
  }

  /** /opt of a flux view image: view -> views/view -> views/._view/<hash>, symlinks into software/. */
  private makeFakeView(): void {
    const hashDir = path.join(this.image, 'views', '._view', 'abc123');
    const software = path.join(this.image, 'software', 'linux-x86_64', 'flux-core-0.88.0');
    for (const d of [`${software}/bin`, `${software}/lib/python3.11/site-packages/flux`, `${hashDir}/etc/flux/rc1.d`, `${hashDir}/lib/python3.11`]) {
      fs.mkdirSync(d, { recursive: true });
    }
    fs.writeFileSync(path.join(software, 'bin', 'flux'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    fs.writeFileSync(path.join(software, 'lib', 'python3.11', 'site-packages', 'flux', '__init__.py'), '');
    fs.symlinkSync(path.join(software, 'bin'), path.join(hashDir, 'bin'));
    fs.symlinkSync(path.join(software, 'lib', 'python3.11', 'site-packages'), path.join(hashDir, 'lib', 'python3.11', 'site-packages'));
    fs.symlinkSync('._view/abc123', path.join(this.image, 'views', 'view'));
    fs.symlinkSync('views/view', path.join(this.image, 'view'));
  }

  /**
   * Mounts a ConfigMap's data at `scripts` the way the kubelet projects it: the files in a
   * timestamped directory (mode 0555, the MiniCluster's defaultMode), `..data` linking to it, and
   * one symlink per key through `..data`. A second mount replaces the first.
   */
  mountConfigMap(data: Record<string, string>): void {
    fs.rmSync(this.scripts, { recursive: true, force: true });
    const stamp = '..2026_01_01_00_00_00.000000001';
    fs.mkdirSync(path.join(this.scripts, stamp), { recursive: true });
    for (const [key, text] of Object.entries(data)) {
      fs.writeFileSync(path.join(this.scripts, stamp, key), text, { mode: 0o555 });
      fs.symlinkSync(path.join('..data', key), path.join(this.scripts, key));
    }
    fs.symlinkSync(stamp, path.join(this.scripts, '..data'));
    fs.chmodSync(this.scripts, 0o755);
  }

  /** Runs the init container: the rendered ConfigMap (every key of `scripts`) mounted, then flux-init.sh. */
  runInit(scripts: Record<string, string>, options: RunOptions = {}): RunResult {
    this.mountConfigMap(scripts);
    return this.run('flux-init.sh', scripts['flux-init.sh'], options);
  }

  /** Runs `text` with bash in the sandbox. */
  run(name: string, text: string, options: RunOptions = {}): RunResult {
    const [command, args, spawnOptions] = this.command(name, text, options);
    const result = spawnSync(command, args, { ...spawnOptions, encoding: 'utf8', timeout: 60000 });
    if (result.error) throw result.error;
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** Starts `text` with bash in the sandbox without waiting for it. */
  start(name: string, text: string, options: RunOptions = {}): { child: ChildProcess; done: Promise<RunResult> } {
    const [command, args, spawnOptions] = this.command(name, text, options);
    const child = spawn(command, args, spawnOptions);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<RunResult>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
    return { child, done };
  }

  /** Waits until `file` (relative to the calls directory) exists; fails if `child` ends first or after a minute. */
  async waitForCallFile(file: string, child: ChildProcess): Promise<void> {
    const exists = () => fs.existsSync(path.join(this.calls, file));
    for (let i = 0; i < 1200 && !exists() && child.exitCode === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!exists()) throw new Error(`${file} never appeared (script exit code ${child.exitCode})`);
  }

  private command(name: string, text: string, options: RunOptions): [string, string[], { cwd: string; env: Record<string, string> }] {
    const file = path.join(this.root, name);
    fs.writeFileSync(file, text, { mode: 0o755 });
    const env: Record<string, string> = {
      PATH: `${this.bin}:/usr/local/bin:/usr/bin:/bin`,
      HOME: this.home,
      LANG: 'C',
      FAKE_FLUX_CALLS: this.calls,
      FAKE_HOSTNAME: options.hostname ?? 'flux-sample-0',
      FAKE_FLUX_START_CODES: options.startCodes ?? '0',
      FLUX_OPT_DIR: this.opt,
      ...(options.onStart ? { FAKE_FLUX_ON_START: options.onStart } : {}),
      ...options.env,
    };
    const args = options.args ?? [];
    return options.uid === undefined
      ? ['bash', [file, ...args], { cwd: this.work, env }]
      : ['setpriv', [`--reuid=${options.uid}`, `--regid=${options.uid}`, '--clear-groups', 'bash', file, ...args], { cwd: this.work, env }];
  }

  /** The calls the fake flux recorded, in order. */
  fluxCalls(): FluxCall[] {
    const countFile = path.join(this.calls, 'count');
    const count = fs.existsSync(countFile) ? Number(fs.readFileSync(countFile, 'utf8')) : 0;
    const calls: FluxCall[] = [];
    for (let n = 1; n <= count; n++) {
      const read = (ext: string) => fs.readFileSync(path.join(this.calls, `${n}.${ext}`), 'utf8');
      const env: Record<string, string> = {};
      for (const entry of read('env').split('\0').filter((e) => e !== '')) {
        const eq = entry.indexOf('=');
        env[entry.slice(0, eq)] = entry.slice(eq + 1);
      }
      const toml = path.join(this.calls, `${n}.broker.toml`);
      calls.push({
        argv: read('argv').split('\0').slice(0, -1),
        env,
        cwd: read('cwd').trim(),
        brokerToml: fs.existsSync(toml) ? fs.readFileSync(toml, 'utf8') : undefined,
      });
    }
    return calls;
  }

  /** The `flux start` / `flux broker` calls only. */
  brokerCalls(): FluxCall[] {
    return this.fluxCalls().filter((c) => c.argv[0] === 'start' || c.argv[0] === 'broker');
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** A syntactically valid CURVE certificate (its keys are not a real pair: the fake flux never checks). */
export const CERTIFICATE = `#   ZeroMQ CURVE **Secret** Certificate
#   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.

metadata
    name = "flux-sample"
curve
    public-key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
    secret-key = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"
`;

/** broker.toml as the lead renders it (§3.1 of the operator reference), with `$` and `'` in a comment. */
export function brokerToml(mountPath: string, hostlist: string): string {
  return [
    "# Flux broker config; it's never expanded: $HOME `date`",
    '[access]',
    'allow-guest-user = true',
    'allow-root-owner = true',
    '',
    '[resource]',
    `path = "${mountPath}/config/etc/flux/system/R"`,
    '',
    '[bootstrap]',
    `curve_cert = "${mountPath}/config/curve/curve.cert"`,
    'default_port = 8050',
    'default_bind = "tcp://eth0:%p"',
    'default_connect = "tcp://%h.flux-sample.default.svc.cluster.local:%p"',
    `hosts = [ { host = "${hostlist}" } ]`,
    '',
    '[archive]',
    `dbpath = "${mountPath}/config/var/lib/flux/job-archive.sqlite"`,
    'period = "1m"',
    'busytimeout = "50s"',
    '',
    '[sched-fluxion-qmanager]',
    'queue-policy = "fcfs"',
    '',
  ].join('\n');
}

/** The broker options the lead renders (§3.3 of the operator reference). */
export function brokerOptions(mountPath: string): string[] {
  const config = `${mountPath}/config`;
  return [
    `-Scron.directory=${config}/etc/flux/system/cron.d`,
    '-Stbon.fanout=256',
    `-Srundir=${config}/run/flux`,
    `-Sstatedir=${config}/var/lib/flux`,
    `-Slocal-uri=local://${config}/run/flux/local`,
    '-Stbon.connect_timeout=5s',
    '-Slog-stderr-level=6',
    '-Slog-stderr-mode=local',
  ];
}

/** A complete, valid model: hello world on 4 pods, with paths in the sandbox (or in /mnt/flux). */
export function sampleModel(sandbox?: Sandbox, overrides: Partial<ScriptModel> = {}): ScriptModel {
  const maxSize = overrides.maxSize ?? 4;
  const hostlist = maxSize === 1 ? 'flux-sample-0' : `flux-sample-[0-${maxSize - 1}]`;
  const mountPath = overrides.mountPath ?? sandbox?.mount ?? '/mnt/flux';
  return {
    clusterName: 'flux-sample',
    leadHostname: 'flux-sample-0',
    hostlist,
    size: maxSize,
    maxSize,
    mountPath,
    viewDisabled: true,
    viewImageVolume: false,
    brokerToml: brokerToml(mountPath, hostlist),
    scriptsDir: sandbox?.scripts ?? '/flux_operator',
    certificatePath: sandbox?.certificate ?? '/etc/flux-curve/curve.cert',
    brokerOptions: brokerOptions(mountPath),
    resourceEncodeArgs: ['--local'],
    fluxEnvironment: [],
    simpleScheduler: false,
    workerRcPlans: [],
    quiet: false,
    strict: false,
    timed: false,
    leadMode: LeadMode.SUBMIT,
    command: 'echo hello world',
    commands: {},
    batchRaw: false,
    logsDir: sandbox?.logs ?? '/tmp/fluxout',
    submitCommand: 'flux submit',
    submitFlags: '-n1',
    batchJobFlags: '',
    interactive: false,
    completeWorkers: false,
    workerRejoins: false,
    workerMaxRestarts: 0,
    workerRestartDelaySeconds: 0,
    sidecars: [],
    ...overrides,
  };
}

/**
 * FAKE_FLUX_ON_START code that makes a broker run until it gets SIGTERM: it then records the
 * signal in calls/signal and exits 143. calls/blocking says it is running.
 */
export const BLOCK_UNTIL_TERM =
  'trap \'echo TERM > "$calls/signal"; kill "$sleeper"; exit 143\' TERM; sleep 60 & sleeper=$!; touch "$calls/blocking"; wait "$sleeper"';

/** Whether the tests run as root (then they can also run scripts as another user). */
export const RUNNING_AS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * worker-rc.sh, run for real with bash against a fake Flux install (its modprobe files) and the fake
 * flux; and the verified plan held against a real Flux install where one is at FLUX_PREFIX
 * (/opt/software/flux), as `npm run e2e` builds it.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { WORKER_RC_PLANS, WorkerRcPlan } from '../../lib/core/worker-rc-plans';
import { LeadMode } from '../../lib/scripts/model';
import { renderScripts } from '../../lib/scripts/render';
import { Sandbox, sampleModel } from './harness';
import { fluxInstall } from '../support/flux-install';
import { describeIf } from '../support/requires';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = new Sandbox();
});
afterEach(() => {
  sandbox.remove();
});

/** The modprobe files of the fake install, relative to its prefix (the sandbox root: bin/flux is there). */
const FILES: Record<string, string> = {
  'share/flux/modprobe/modprobe.toml': '[[modules]]\nname = "kvs"\n',
  'libexec/flux/modprobe/rc1.py': 'def setup(context):\n    pass\n',
  'libexec/flux/modprobe/rc3.py': '# rc3\n',
  'etc/flux/modprobe/modprobe.d/fluxion.toml': '[[modules]]\nname = "sched-fluxion-resource"\nranks = "0"\n',
  'etc/flux/modprobe/rc1.d/fluxion.py': 'import os\n',
};

function writeInstall(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(sandbox.root, rel)), { recursive: true });
    fs.writeFileSync(path.join(sandbox.root, rel), text);
  }
}

/**
 * The fingerprint computed here from the documented inputs (names and contents of the builtin
 * modprobe.toml, rc1.py, rc3.py, then modprobe.d/*.toml and rc{1,3}.d/*.py of share, etc, libexec),
 * with the system's cksum: not with the script's own loop.
 */
function fingerprintOf(files: Record<string, string>): string {
  const order = (rel: string) => [
    /^share\/flux\/modprobe\/modprobe\.toml$/, /^libexec\/flux\/modprobe\/rc1\.py$/, /^libexec\/flux\/modprobe\/rc3\.py$/,
    /^share\/flux\/modprobe\/modprobe\.d\//, /^etc\/flux\/modprobe\/modprobe\.d\//, /^libexec\/flux\/modprobe\/rc[13]\.d\//,
    /^etc\/flux\/modprobe\/rc[13]\.d\//,
  ].findIndex((r) => r.test(rel));
  const stream = Object.keys(files).sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1)).map((rel) => `${rel}\n${files[rel]}`).join('');
  const [crc, size] = execFileSync('cksum', { input: stream, encoding: 'utf8' }).trim().split(/\s+/);
  return `${crc}-${size}`;
}

// rc1 in two steps, [content heartbeat job-ingest] then [kvs]; rc3 [heartbeat job-ingest kvs] then [content].
const PLAN: WorkerRcPlan = { name: 'test_plan', fingerprint: '', after: { 'heartbeat': [], 'content': [], 'kvs': ['content'], 'job-ingest': [] } };

/**
 * A test double of flux-module, for FLUX_EXEC_PATH: it appends "start ACTION MODULE" and "end ACTION
 * MODULE" to module-calls. A module named in FAKE_MODULE_TOGETHER waits until all of them have
 * started (and fails, after 20 s, if they never do): run one after the other, they would fail. A
 * module named in FAKE_MODULE_FAIL fails.
 */
const FAKE_FLUX_MODULE = `#!/bin/bash
log=$FAKE_FLUX_CALLS/module-calls
echo "start $1 $2" >> "$log"
for m in \${FAKE_MODULE_TOGETHER:-}; do
  if [ "$m" = "$2" ]; then
    for _ in $(seq 400); do
      missing=0
      for other in $FAKE_MODULE_TOGETHER; do grep -qx "start $1 $other" "$log" || missing=1; done
      [ "$missing" = 0 ] && break
      sleep 0.05
    done
    [ "$missing" = 0 ] || { echo "ran alone: $2" >> "$log"; exit 1; }
  fi
done
echo "end $1 $2" >> "$log"
[ "$2" != "\${FAKE_MODULE_FAIL:-}" ]
`;

function script(plans: WorkerRcPlan[], quiet = false): string {
  return renderScripts(sampleModel(sandbox, { workerRcPlans: plans, quiet }))['worker-rc.sh'];
}

/** An rc script in confdir/rc<level>.d or an extra dir, recording its run (and FLUX_RC_USE_MODPROBE). */
function rcScript(dir: string, name: string, code = 0, executable = true): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name), `#!/bin/sh\necho "${name} $FLUX_RC_USE_MODPROBE" >> "$FAKE_FLUX_CALLS/rc-scripts"\nexit ${code}\n`, { mode: executable ? 0o755 : 0o644 });
}

function rcScriptsRun(): string[] {
  const file = path.join(sandbox.calls, 'rc-scripts');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
}

describe('worker-rc.sh plan: only a verified install', () => {
  test('GIVEN the modprobe files of a verified install THEN it names the plan', () => {
    writeInstall(FILES);
    const result = sandbox.run('worker-rc.sh', script([{ ...PLAN, fingerprint: fingerprintOf(FILES) }]), { args: ['plan'] });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('test_plan');
  });

  test.each([
    ['one changed byte in a modprobe.d file', { ...FILES, 'etc/flux/modprobe/modprobe.d/fluxion.toml': FILES['etc/flux/modprobe/modprobe.d/fluxion.toml'].replace('"0"', '"1"') }],
    ['one more rc1.d Python file (it could load a module on every rank)', { ...FILES, 'libexec/flux/modprobe/rc1.d/site.py': 'pass\n' }],
    ['a renamed file', Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k.replace('fluxion.toml', 'fluxion2.toml'), v]))],
  ])('GIVEN %s THEN no plan, and it says why', (_, files) => {
    writeInstall(files);
    const result = sandbox.run('worker-rc.sh', script([{ ...PLAN, fingerprint: fingerprintOf(FILES) }]), { args: ['plan'] });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('not those of a verified install: the worker brokers run flux-modprobe');
  });

  test.each(['FLUX_MODPROBE_PATH', 'FLUX_MODPROBE_PATH_APPEND', 'FLUX_MODPROBE_PATH_PREPEND'])('GIVEN %s set THEN no plan, even for verified files', (name) => {
    writeInstall(FILES);
    const result = sandbox.run('worker-rc.sh', script([{ ...PLAN, fingerprint: fingerprintOf(FILES) }]), { env: { [name]: '/elsewhere' }, args: ['plan'] });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('FLUX_MODPROBE_PATH* is set');
  });

  test('GIVEN quiet logging THEN a refusal prints nothing', () => {
    const result = sandbox.run('worker-rc.sh', script([{ ...PLAN, fingerprint: fingerprintOf(FILES) }], true), { args: ['plan'] });
    expect(result).toEqual({ status: 1, stdout: '', stderr: '' });
  });
});

describe('worker-rc.sh 1 and 3: the plan, as flux-modprobe runs it on a worker', () => {
  /** A FLUX_EXEC_PATH whose second directory holds the fake flux-module (the first has none). */
  function execPath(): string {
    const dir = path.join(sandbox.root, 'libexec-flux-cmd');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'flux-module'), FAKE_FLUX_MODULE, { mode: 0o755 });
    return `${path.join(sandbox.root, 'empty-cmd')}:${dir}`;
  }
  const run = (level: string, plan = 'test_plan', env: Record<string, string> = {}) =>
    sandbox.run('worker-rc.sh', script([{ ...PLAN, fingerprint: fingerprintOf(FILES) }]), { env: { FLUX_EXEC_PATH: execPath(), ...env }, args: [level, plan] });
  const moduleCalls = () => {
    const file = path.join(sandbox.calls, 'module-calls');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
  };

  test('GIVEN rc1 THEN the modules load step by step, those of a step at once, then the executable rc1.d scripts of confdir and FLUX_RC_EXTRA, by name', () => {
    // GIVEN scripts in the install's confdir and in an extra dir, one of them not executable
    rcScript(path.join(sandbox.root, 'etc/flux/rc1.d'), 'b-core');
    rcScript(path.join(sandbox.root, 'etc/flux/rc1.d'), 'a-core');
    rcScript(path.join(sandbox.root, 'etc/flux/rc1.d'), 'c-not-executable', 0, false);
    rcScript(path.join(sandbox.root, 'extra/rc1.d'), 'extra');
    // WHEN rc1 runs, the first step's three modules each waiting for the other two to start
    const result = run('1', 'test_plan', { FLUX_RC_EXTRA: path.join(sandbox.root, 'extra'), FAKE_MODULE_TOGETHER: 'content heartbeat job-ingest' });
    // THEN they loaded together, kvs only once content had loaded, all with flux-module itself
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const calls = moduleCalls();
    expect([...calls].sort()).toEqual(['content', 'heartbeat', 'job-ingest', 'kvs'].flatMap((m) => [`end load ${m}`, `start load ${m}`]).sort());
    expect(calls.indexOf('start load kvs')).toBeGreaterThan(calls.indexOf('end load content'));
    expect(sandbox.fluxCalls()).toEqual([]);
    expect(rcScriptsRun()).toEqual(['a-core t', 'b-core t', 'extra t']);
  });

  test('GIVEN no flux-module on FLUX_EXEC_PATH THEN rc1 loads with `flux module`', () => {
    // (a plan of one module a step: the fake flux numbers its calls one at a time)
    const chain: WorkerRcPlan = { name: 'chain', fingerprint: fingerprintOf(FILES), after: { content: [], kvs: ['content'] } };
    const result = sandbox.run('worker-rc.sh', script([chain]), { env: { FLUX_EXEC_PATH: path.join(sandbox.root, 'empty-cmd') }, args: ['1', 'chain'] });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(sandbox.fluxCalls().map((c) => c.argv.join(' '))).toEqual(['module load content', 'module load kvs']);
  });

  test('GIVEN a failing rc1.d script THEN the others still run and rc1 fails', () => {
    rcScript(path.join(sandbox.root, 'etc/flux/rc1.d'), 'a', 3);
    rcScript(path.join(sandbox.root, 'etc/flux/rc1.d'), 'b');
    const result = run('1');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('rc1.d/a failed with exit code 3');
    expect(rcScriptsRun()).toEqual(['a t', 'b t']);
  });

  test('GIVEN a module that does not load THEN rc1 ends with its step and fails, naming it', () => {
    const result = run('1', 'test_plan', { FAKE_MODULE_FAIL: 'heartbeat' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('flux module load heartbeat failed');
    expect(result.stderr).not.toContain('flux module load content failed');
    expect(moduleCalls().filter((c) => c.startsWith('start')).sort()).toEqual(['start load content', 'start load heartbeat', 'start load job-ingest']);
    expect(rcScriptsRun()).toEqual([]);
  });

  test('GIVEN rc3 THEN the rc3.d scripts run first, then the modules go in the reverse order, those loaded after content before it', () => {
    rcScript(path.join(sandbox.root, 'etc/flux/rc3.d'), 'stop');
    const result = run('3', 'test_plan', { FAKE_MODULE_TOGETHER: 'heartbeat job-ingest kvs' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(rcScriptsRun()).toEqual(['stop t']);
    const calls = moduleCalls();
    expect([...calls].sort()).toEqual(['content', 'heartbeat', 'job-ingest', 'kvs'].flatMap((m) => [`end remove ${m}`, `start remove ${m}`]).sort());
    expect(calls.indexOf('start remove content')).toBeGreaterThan(calls.indexOf('end remove kvs'));
  });

  test('GIVEN rc3 and a module that does not unload THEN the others are still removed, and rc3 fails', () => {
    const result = run('3', 'test_plan', { FAKE_MODULE_FAIL: 'kvs' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('flux module remove kvs failed');
    expect(moduleCalls().filter((c) => c.startsWith('end'))).toHaveLength(4);
  });

  test.each([['an unknown plan', 'other'], ['a plan name that is not an identifier', 'x;y']])('GIVEN %s THEN it fails before any flux call', (_, plan) => {
    const result = run('1', plan);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`no plan '${plan}'`);
    expect(sandbox.fluxCalls()).toHaveLength(0);
    expect(moduleCalls()).toHaveLength(0);
  });
});

describe('entrypoint.sh: which brokers use worker-rc.sh', () => {
  function runAs(hostname: string, files: Record<string, string>) {
    writeInstall(files);
    const scripts = renderScripts(sampleModel(sandbox, { workerRcPlans: [{ ...PLAN, fingerprint: fingerprintOf(FILES) }] }));
    expect(sandbox.runInit(scripts, { env: { FLUX_OPT_DIR: sandbox.image } }).stderr).toBe('');
    return sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { hostname });
  }
  const rcOptions = (argv: string[]) => argv.filter((a) => /^-Sbroker\.rc[13]_path=/.test(a));

  test('GIVEN a worker on a verified install THEN its broker runs worker-rc.sh as rc1 and rc3', () => {
    expect(runAs('flux-sample-1', FILES).status).toBe(0);
    const script = path.join(sandbox.scripts, 'worker-rc.sh');
    expect(rcOptions(sandbox.brokerCalls()[0].argv)).toEqual([`-Sbroker.rc1_path=bash ${script} 1 test_plan`, `-Sbroker.rc3_path=bash ${script} 3 test_plan`]);
  });

  test('GIVEN the lead THEN Flux runs its own rc1 and rc3 (they do more there)', () => {
    expect(runAs('flux-sample-0', FILES).status).toBe(0);
    expect(rcOptions(sandbox.brokerCalls()[0].argv)).toEqual([]);
  });

  test('GIVEN a worker on another install THEN its broker runs flux-modprobe', () => {
    expect(runAs('flux-sample-2', { ...FILES, 'share/flux/modprobe/modprobe.toml': '# another version\n' }).status).toBe(0);
    expect(rcOptions(sandbox.brokerCalls()[0].argv)).toEqual([]);
  });
});

const flux = fluxInstall();

describeIf(flux, 'the verified plans, held against a real Flux install', () => {
  const prefix = flux.prefix;
  const env = () => ({ PATH: `${prefix}/bin:/usr/bin:/bin`, HOME: sandbox.home });

  /** worker-rc.sh with the library's plans, and the plan it finds for the real install. */
  function verifiedPlan(): { file: string; plan: WorkerRcPlan } {
    const scripts = renderScripts(sampleModel(sandbox, { workerRcPlans: WORKER_RC_PLANS, leadMode: LeadMode.SUBMIT }));
    const file = path.join(sandbox.root, 'worker-rc.sh');
    fs.writeFileSync(file, scripts['worker-rc.sh'], { mode: 0o755 });
    const found = spawnSync('bash', [file, 'plan'], { env: env(), encoding: 'utf8' });
    expect(found.stderr).toBe('');
    const plan = WORKER_RC_PLANS.find((p) => p.name === found.stdout);
    expect(plan).toBeDefined();
    return { file, plan: plan! };
  }

  test("GIVEN the install THEN worker-rc.sh finds a plan whose modules and order are flux-modprobe's own for a worker", () => {
    const { plan } = verifiedPlan();
    // WHEN flux-modprobe shows its precedence graph for rank 1 of a real two-broker instance
    const shown = spawnSync('flux', ['start', '--test-size=2', 'flux', 'exec', '-r', '1', 'flux', 'modprobe', 'rc1', '--show-deps'], { env: env(), encoding: 'utf8', timeout: 60000 });
    expect(shown.status).toBe(0);
    const deps: Record<string, string[]> = JSON.parse(shown.stdout);
    // THEN every module comes after the same ones, and besides them it only runs the rc1.d scripts, last
    const { 'run-all-rc1': last, ...modules } = deps;
    const sorted = (graph: Record<string, readonly string[]>) => Object.fromEntries(Object.keys(graph).sort().map((m) => [m, [...graph[m]].sort()]));
    expect(sorted(modules)).toEqual(sorted(plan.after));
    expect([...last].sort()).toEqual(Object.keys(plan.after).sort());
  });

  test("GIVEN a real instance whose rank 1 runs worker-rc.sh THEN it has flux-modprobe's modules, runs a job, and shuts down cleanly", () => {
    const { file, plan } = verifiedPlan();
    // rank 0 keeps flux-modprobe; rank 1 runs the plan (test-size brokers share one rc1_path)
    const rc = path.join(sandbox.root, 'rc.sh');
    fs.writeFileSync(rc, `if [ "$(flux getattr rank)" = 0 ]; then exec flux modprobe rc$1; fi\nexec bash ${file} "$1" ${plan.name}\n`);
    const modulesOfRank1 = (rcOptions: string[]) => {
      const out = spawnSync('flux', ['start', '--test-size=2', ...rcOptions, 'bash', '-c', 'flux run -N2 true && flux exec -r 1 flux module list'], { env: env(), encoding: 'utf8', timeout: 120000 });
      return { ...out, names: out.stdout.split('\n').slice(1).map((l) => l.trim().split(/\s+/)[0]).filter(Boolean).sort() };
    };
    // WHEN the same program runs with flux-modprobe on both ranks, then with worker-rc.sh on rank 1
    const modprobe = modulesOfRank1([]);
    const planned = modulesOfRank1([`-Sbroker.rc1_path=bash ${rc} 1`, `-Sbroker.rc3_path=bash ${rc} 3`]);
    // THEN both ran the job and ended 0, rank 1 had the same modules, and none was left at shutdown
    expect(modprobe.status).toBe(0);
    expect(planned.stderr).not.toMatch(/not properly shut down|error/i);
    expect(planned.status).toBe(0);
    expect(planned.names).toEqual(modprobe.names);
    expect(planned.names).toEqual(expect.arrayContaining(Object.keys(plan.after)));
  });
});

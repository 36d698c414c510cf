/**
 * lead-program.sh, the lead's initial program around the user's, run for real with bash and the fake
 * flux: Flux's shutdown cleanup only when jobs are left; and who gets FLUX_DISABLE_JOB_CLEANUP.
 */
import * as fs from 'fs';
import * as path from 'path';
import { LeadMode } from '../../lib/scripts/model';
import { renderScripts } from '../../lib/scripts/render';
import { fluxPaths } from '../../lib/core/paths';
import { Sandbox, sampleModel } from './harness';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = new Sandbox();
});
afterEach(() => {
  sandbox.remove();
});

const CLEANUP = [
  'queue stop --quiet --all --nocheckpoint',
  'resource acquire-mute',
  'cancel --user=all --quiet --states RUN',
  'queue idle --quiet',
];

const stats = (run: number, inactive: number, total: number) =>
  `{"job_states":{"depend":0,"priority":0,"sched":0,"run":${run},"cleanup":0,"inactive":${inactive},"total":${total}},"successful":${inactive}}`;

function runProgram(program: string[], env: Record<string, string> = {}, workerRejoins = false) {
  const text = renderScripts(sampleModel(sandbox, { workerRejoins }))['lead-program.sh'];
  return sandbox.run('lead-program.sh', text, { args: program, env: { FLUX_DISABLE_JOB_CLEANUP: 't', ...env } });
}

/** The fake flux's calls after the first `job stats`, as command lines. */
const cleanupCalls = () => sandbox.fluxCalls().map((c) => c.argv.join(' ')).filter((c) => c !== 'job stats');

describe('lead-program.sh', () => {
  test('GIVEN a program that ends with code 3 and only inactive jobs THEN code 3, and no cleanup command', () => {
    const result = runProgram(['sh', '-c', 'echo out; exit 3'], { FAKE_FLUX_JOB_STATS: stats(0, 2, 2) });
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('out\n');
    expect(sandbox.fluxCalls().map((c) => c.argv.join(' '))).toEqual(['job stats']);
  });

  test('GIVEN a job still running THEN Flux\'s four cleanup commands, in its order, and the program\'s code', () => {
    const result = runProgram(['true'], { FAKE_FLUX_JOB_STATS: stats(1, 2, 3) });
    expect(result.status).toBe(0);
    expect(cleanupCalls()).toEqual(CLEANUP);
  });

  test('GIVEN job stats fails THEN the cleanup runs anyway', () => {
    const result = runProgram(['true'], { FAKE_FLUX_STATS_EXIT: '1' });
    expect(result.status).toBe(0);
    expect(cleanupCalls()).toEqual(CLEANUP);
  });

  test('GIVEN the program does not see FLUX_DISABLE_JOB_CLEANUP THEN its jobs and nested instances keep Flux\'s cleanup', () => {
    const result = runProgram(['sh', '-c', 'echo "[${FLUX_DISABLE_JOB_CLEANUP-unset}]"']);
    expect(result.stdout).toBe('[unset]\n');
  });

  test('GIVEN the broker ends the program with SIGHUP to its process group THEN it cleans up and exits 129', async () => {
    // GIVEN a running program, with a job left running
    const text = renderScripts(sampleModel(sandbox))['lead-program.sh'];
    const marker = path.join(sandbox.calls, 'program-started');
    const script = path.join(sandbox.root, 'lead-program.sh');
    fs.writeFileSync(script, text, { mode: 0o755 });
    // (setsid: its own process group, as the broker's runat gives its initial program)
    const { child, done } = sandbox.start('launch.sh', `exec setsid bash '${script}' "$@"\n`, {
      args: ['sh', '-c', `touch '${marker}'; sleep 30`],
      env: { FAKE_FLUX_JOB_STATS: stats(1, 0, 1) },
    });
    for (let i = 0; i < 600 && !fs.existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(marker)).toBe(true);
    // WHEN its process group gets SIGHUP, as the broker's runat_abort sends it
    process.kill(-child.pid!, 'SIGHUP');
    const result = await done;
    // THEN the cleanup ran after the program ended, and the code says the signal
    expect(result.status).toBe(129);
    expect(cleanupCalls()).toEqual(CLEANUP);
  });
});

describe('entrypoint.sh: FLUX_DISABLE_JOB_CLEANUP and the wrapper', () => {
  function brokerEnv(hostname: string, leadMode: LeadMode) {
    const scripts = renderScripts(sampleModel(sandbox, leadMode === LeadMode.INTERACTIVE ? { leadMode, command: undefined } : { leadMode }));
    expect(sandbox.runInit(scripts, { env: { FLUX_OPT_DIR: sandbox.image } }).stderr).toBe('');
    expect(sandbox.run('entrypoint.sh', scripts['entrypoint.sh'], { hostname }).status).toBe(0);
    return sandbox.brokerCalls()[0];
  }

  test.each([LeadMode.SUBMIT, LeadMode.LAUNCHER, LeadMode.BATCH])('GIVEN the lead in %s mode THEN its broker has Flux\'s cleanup off and runs the wrapper', (mode) => {
    const call = brokerEnv('flux-sample-0', mode);
    expect(call.env.FLUX_DISABLE_JOB_CLEANUP).toBe('t');
    expect(call.argv).toContain(path.join(sandbox.scripts, 'lead-program.sh'));
  });

  test('GIVEN an interactive lead or a worker THEN Flux keeps its own cleanup', () => {
    expect(brokerEnv('flux-sample-0', LeadMode.INTERACTIVE).env.FLUX_DISABLE_JOB_CLEANUP).toBeUndefined();
    sandbox.remove();
    sandbox = new Sandbox();
    expect(brokerEnv('flux-sample-1', LeadMode.SUBMIT).env.FLUX_DISABLE_JOB_CLEANUP).toBeUndefined();
  });

  test('GIVEN workers that rejoin WHEN the program ends THEN every rank is told, after the cleanup, before the instance ends', () => {
    const marker = fluxPaths(sandbox.mount).finishedMarker;
    const result = runProgram(['sh', '-c', 'exit 4'], { FAKE_FLUX_JOB_STATS: stats(1, 0, 1) }, true);
    expect(result.status).toBe(4);
    expect(cleanupCalls()).toEqual([...CLEANUP, `exec -r all -n touch ${marker}`]);
  });

  test('GIVEN workers that do not rejoin THEN nobody is told', () => {
    runProgram(['true'], {}, false);
    expect(cleanupCalls()).toEqual([]);
  });

  test('GIVEN the program ended by a signal (the lead evicted) THEN the workers are not told: they wait for the next lead', () => {
    const result = runProgram(['sh', '-c', 'kill -HUP $PPID; sleep 0.2'], {}, true);
    expect(result.status).toBe(129);
    expect(cleanupCalls()).toEqual([]);
  });
});

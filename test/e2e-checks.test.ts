/**
 * The end-to-end checker (e2e/checks.ts) reads podemu's summary and logs: it must fail on every
 * difference a user would notice, or a green `npm run e2e` would mean nothing.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { allCases } from '../e2e/cases';
import { checkRun } from '../e2e/checks';
import { Summary } from '../e2e/podemu';

let logs: string;
beforeEach(() => {
  logs = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-checks-'));
});
afterEach(() => fs.rmSync(logs, { recursive: true, force: true }));

/** A podemu summary of `pods` pods, rank 0 printing `leadLog`, as podemu writes it (timed lines). */
function summary(pods: number, leadLog: string, overrides: Partial<Summary> = {}, brokerUp: (index: number) => boolean = () => true): Summary {
  fs.mkdirSync(path.join(logs, 'pods'), { recursive: true });
  fs.writeFileSync(path.join(logs, 'pods', 'lead.log'), leadLog.split('\n').map((l) => `[   1.234] ${l}`).join('\n'));
  return {
    result: 'Succeeded',
    reason: 'SuccessCriteriaMet',
    wall_time_s: 5,
    flux_instance_up_s: 3,
    pods: Array.from({ length: pods }, (_, index) => ({
      index,
      pod: `flux-sample-${index}-abcde`,
      phase: 'Succeeded',
      times: {},
      broker: {
        rank: String(index), first_seen: 1,
        listen: index === 0 && brokerUp(index) ? 2 : null,
        connected_to_parent: index > 0 && brokerUp(index) ? 2 : null,
        up: brokerUp(index) ? 2 : null,
      },
      containers: [{ name: 'flux-sample', type: 'main', restarts: 0, runs: [{ start: 1, end: 5, exit_code: 0, log: index === 0 ? 'pods/lead.log' : 'pods/none.log' }] }],
    })),
    ...overrides,
  };
}

describe('checkRun', () => {
  test('GIVEN the expected run THEN nothing is reported', () => {
    const s = summary(4, 'hello world');
    expect(checkRun({ expect: { result: 'Succeeded', leadOutputExactly: 'hello world\n' }, summary: s, logs, runner: 'flux-sample', pods: 4 })).toEqual([]);
  });

  test('GIVEN a broker that never connected THEN it is named', () => {
    const s = summary(4, 'hello world', {}, (i) => i !== 2);
    expect(checkRun({ expect: { result: 'Succeeded' }, summary: s, logs, runner: 'flux-sample', pods: 4 }))
      .toEqual(['broker 2 (flux-sample-2-abcde) never connected to its parent']);
  });

  test('GIVEN podemu\'s monitor fell behind (128 pods) THEN unseen brokers fail the case unless the lead\'s output proves every broker joined', () => {
    // GIVEN a run whose socket samples were up to 163.5 s apart, so podemu saw no broker connect
    const hostnames = ['flux-sample-0', 'flux-sample-1', 'flux-sample-2'].join('\n');
    const behind = summary(3, hostnames, { tcp_sample_interval_max_s: 163.5 }, () => false);
    const run = (everyBrokerInOutput: boolean, s: Summary, leadOutputExactly = hostnames) =>
      checkRun({ expect: { result: 'Succeeded', leadOutputExactly, everyBrokerInOutput }, summary: s, logs, runner: 'flux-sample', pods: 3 });
    const unseen = ['rank 0\'s broker (flux-sample-0-abcde) never listened', 'broker 1 (flux-sample-1-abcde) never connected to its parent',
      'broker 2 (flux-sample-2-abcde) never connected to its parent'];
    // THEN with every hostname printed, the unseen connections are not failures
    expect(run(true, behind)).toEqual([]);
    // AND a case that does not prove membership by its output still fails on them
    expect(run(false, behind)).toEqual(unseen);
    // AND a missing hostname still fails the case
    expect(run(true, behind, `${hostnames}\nflux-sample-3`)).toHaveLength(1);
    // AND a pod index that never ran still fails the case
    expect(checkRun({ expect: { result: 'Succeeded', everyBrokerInOutput: true }, summary: summary(2, hostnames, { tcp_sample_interval_max_s: 163.5 }, () => false), logs, runner: 'flux-sample', pods: 3 }))
      .toEqual(['pod index 2 never ran']);
    // AND a monitor that kept up (samples 0.2 s apart) is believed: an unseen broker fails the case
    expect(run(true, summary(3, hostnames, { tcp_sample_interval_max_s: 0.2 }, () => false))).toEqual(unseen);
  });

  test('GIVEN a pod index that never ran THEN it is reported', () => {
    const s = summary(2, 'hello world');
    expect(checkRun({ expect: { result: 'Succeeded' }, summary: s, logs, runner: 'flux-sample', pods: 3 })).toEqual(['pod index 2 never ran']);
  });

  test('GIVEN another result, reason, exit code and output THEN each is reported', () => {
    const s = summary(1, 'hello wrld', { result: 'Failed', reason: 'BackoffLimitExceeded' });
    const problems = checkRun({
      expect: { result: 'Succeeded', reason: /SuccessCriteriaMet/, leadOutput: [/^hello world$/m] },
      summary: s, logs, runner: 'flux-sample', pods: 1,
    });
    expect(problems[0]).toBe('Job result Failed (BackoffLimitExceeded), expected Succeeded');
    expect(problems[1]).toBe("Job reason 'BackoffLimitExceeded' does not match /SuccessCriteriaMet/");
    expect(problems[2]).toMatch(/^lead output does not match \/\^hello world\$\/m:\n {4}\| hello wrld$/);
    expect(problems).toHaveLength(3);
  });

  test('GIVEN output that differs from the expected text only in trailing blanks THEN it matches; otherwise both are shown', () => {
    const s = summary(1, 'pancakes.txt   \n');
    const check = (text: string) => checkRun({ expect: { result: 'Succeeded', leadOutputExactly: text }, summary: s, logs, runner: 'flux-sample', pods: 1 });
    expect(check('pancakes.txt\n')).toEqual([]);
    expect(check('waffles.txt\n')).toEqual(['lead output differs from the expected text:\n--- expected\nwaffles.txt\n--- got\npancakes.txt']);
  });

  test('GIVEN problems found while the cluster ran THEN they are kept', () => {
    const s = summary(1, '', { result: 'Interrupted' });
    expect(checkRun({ expect: { result: 'Interrupted' }, summary: s, logs, runner: 'flux-sample', pods: 1, during: ["exec 'x' exited 1"] }))
      .toEqual(["exec 'x' exited 1"]);
  });
});

describe('npm run e2e without its engines', () => {
  test('GIVEN no Flux install THEN every case is reported skipped, one line each, and nothing fails', () => {
    // WHEN the runner (built by npm test) starts with FLUX_PREFIX pointing nowhere
    const result = spawnSync(process.execPath, [path.resolve(__dirname, '..', 'build', 'e2e', 'run.js')], {
      env: { ...process.env, FLUX_PREFIX: path.join(logs, 'no-flux') }, encoding: 'utf8',
    });
    // THEN it exits 0 and each case has one skip line that says what is missing
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n').filter((l) => !l.startsWith('e2e: the Flux Operator tests are absent'));
    expect(lines.length).toBeGreaterThanOrEqual(13);
    for (const line of lines) expect(line).toMatch(/^skip (example|operator|fault|node fault|network policy:|namespace deletion:|day-2:|placement:|kueue:|upgrade:) \S.*: .*no Flux \(set FLUX_PREFIX/);
    // every example case the runner has: the examples, hello world for older Kubernetes versions, with options, readiness
    expect(lines.filter((l) => l.startsWith('skip example '))).toHaveLength(allCases().cases.filter((c) => c.id.startsWith('example ')).length);
  });
});

describe('checkRun: readyMeansConnected', () => {
  /** Pods Ready at `ready[i]`, workers connected at `connected[i]` (podemu's times, s from the first pod). */
  function timed(ready: Array<number | null>, connected: number[]): Summary {
    const s = summary(ready.length, 'done', { tcp_sample_interval_max_s: 0.1 } as Partial<Summary>);
    return { ...s, pods: s.pods.map((p, i) => ({ ...p, times: { ready: ready[i] }, broker: { ...p.broker!, connected_to_parent: i > 0 ? connected[i] : null } })) };
  }
  const expect_ = { result: 'Succeeded' as const, leadOutputExactly: 'done', readyMeansConnected: { lateRank: 2, lateSeconds: 25 } };
  const check = (s: Summary) => checkRun({ expect: expect_, summary: s, logs, runner: 'flux-sample', pods: 3 });

  test('passes when each worker is Ready after it connected and the lead after the last one', () => {
    expect(check(timed([33.2, 8.2, 33.2], [0, 3.4, 28.3]))).toEqual([]);
  });

  test('fails on a worker Ready before it connected, a late rank Ready too early, a lead Ready before the instance is up, a pod never Ready', () => {
    expect(check(timed([33.2, 2, 33.2], [0, 3.4, 28.3]))).toEqual(['worker 1 (flux-sample-1-abcde) was Ready at +2s, before its broker connected at +3.4s']);
    expect(check(timed([29, 8.2, 20], [0, 3.4, 19]))).toEqual(['rank 2 was Ready at +20s although its broker started 25s late']);
    expect(check(timed([10, 8.2, 33.2], [0, 3.4, 28.3]))).toEqual(['the lead was Ready at +10s, before the instance was up (last broker connected at +28.3s)']);
    expect(check(timed([null, 8.2, null], [0, 3.4, 28.3]))).toEqual([
      'worker 2 (flux-sample-2-abcde) connected at +28.3s but never turned Ready',
      'the lead (flux-sample-0-abcde) never turned Ready',
    ]);
  });
});

describe('npm run e2e in a clone with nothing beside it', () => {
  test('GIVEN no ../shared (no operator test data, no podemu) and no Flux THEN the runner loads, says so in one line, and skips every case', () => {
    // GIVEN the built runner and what it reads, copied into a checkout with no ../shared beside it
    // (the candidates are <clone>/../shared and <clone>/../../shared: a fresh temp dir has neither)
    const clone = path.join(logs, 'clone');
    const built = path.resolve(__dirname, '..', 'build');
    for (const dir of ['e2e', 'lib', 'examples', 'runtime']) {
      if (fs.existsSync(path.join(built, dir))) fs.cpSync(path.join(built, dir), path.join(clone, 'build', dir), { recursive: true });
    }
    fs.cpSync(path.resolve(__dirname, '..', 'dist'), path.join(clone, 'dist'), { recursive: true });
    fs.symlinkSync(path.resolve(__dirname, '..', 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    expect(fs.existsSync(path.join(logs, 'shared')) || fs.existsSync(path.join(path.dirname(logs), 'shared'))).toBe(false);
    // WHEN it runs there, as a new user's `npm run e2e` would
    const result = spawnSync(process.execPath, [path.join(clone, 'build', 'e2e', 'run.js')], {
      env: { ...process.env, FLUX_PREFIX: path.join(logs, 'no-flux'), PODEMU: '' }, encoding: 'utf8', cwd: clone,
    });
    // THEN nothing crashes: exit 0, nothing on stderr, one line for the absent operator tests,
    // and every example case skipped with what is missing (podemu and Flux)
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((l) => /^e2e: the Flux Operator tests are absent/.test(l))).toHaveLength(1);
    const skips = lines.filter((l) => l.startsWith('skip '));
    expect(skips).toHaveLength(lines.length - 1);
    expect(skips.filter((l) => l.startsWith('skip operator '))).toEqual([]);
    for (const line of skips) expect(line).toMatch(/^skip \S.*: .*no podemu \(set PODEMU.*; no Flux \(set FLUX_PREFIX/);
    // Every case the runner has, with no operator test data: one skip line each.
    expect(skips).toHaveLength(allCases().cases.filter((c) => !c.id.startsWith('operator ')).length);
  });
});

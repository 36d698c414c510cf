/**
 * The e2e runner's day-2 steps without a cluster: how a step's command line is built, how its run
 * is judged, running steps against a stand-in plugin (a node script), the day-2 cases' own checks,
 * and the report's Day-2 section.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Day2Step, MANIFESTS_FILE } from '../e2e/case';
import { allCases } from '../e2e/cases';
import { day2Cases, statusShows } from '../e2e/cases/day2';
import { Day2Connection, judgeStep, runDay2Steps, saidLine, shownOutput, stepArgs, stepCommand } from '../e2e/kube/day2';
import { fitCpuRequests, grownSize } from '../e2e/kube/fit';
import { imagesOf, meantToFail } from '../e2e/kube/images';
import { indexedJob, readDocs } from '../e2e/manifests';
import { e2eReport } from '../e2e/report';
import { RunRecord } from '../e2e/run-record';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-day2-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const CONNECTION: Day2Connection = { kubeconfig: '/k/config', context: 'real-node', namespace: 'e2e-day2', manifests: '/run/objects.yaml' };

/** A stand-in plugin: prints its arguments as JSON, then does what FAKE_* files in `dir` say. */
function fakePlugin(): string {
  const file = path.join(dir, 'plugin.js');
  fs.writeFileSync(file, `
const fs = require('fs');
const dir = ${JSON.stringify(dir)};
const tries = dir + '/tries';
const n = (fs.existsSync(tries) ? Number(fs.readFileSync(tries, 'utf8')) : 0) + 1;
fs.writeFileSync(tries, String(n));
const passFrom = fs.existsSync(dir + '/pass-from') ? Number(fs.readFileSync(dir + '/pass-from', 'utf8')) : 1;
if (fs.existsSync(dir + '/hang')) setTimeout(() => {}, 60000);
else { process.stdout.write(JSON.stringify(process.argv.slice(2)) + '\\n'); process.exitCode = n >= passFrom ? 0 : 9; }
`);
  return file;
}

describe('a day-2 step\'s command line', () => {
  test('GIVEN a flux step with arguments after -- WHEN built THEN the connection flags come right after the command, before the --', () => {
    const step: Day2Step = { what: 'x', args: ['flux', 'flux-day2', '--', 'run', '-N2', 'hostname'] };
    expect(stepArgs(step, CONNECTION)).toEqual(['flux', '--kubeconfig', '/k/config', '--context', 'real-node', '-n', 'e2e-day2', 'flux-day2', '--', 'run', '-N2', 'hostname']);
  });

  test('GIVEN a check step on the case\'s objects THEN MANIFESTS_FILE becomes their file, and the report shows FILE', () => {
    const step: Day2Step = { what: 'x', args: ['check', '-f', MANIFESTS_FILE] };
    expect(stepArgs(step, CONNECTION).slice(-2)).toEqual(['-f', '/run/objects.yaml']);
    expect(stepCommand(step)).toBe('kubectl minicluster check -f FILE');
    expect(stepCommand({ what: 'x', args: ['flux', 'c', '--', 'resource', 'list', '-no', '{nnodes} up'] })).toBe("kubectl minicluster flux c -- resource list -no '{nnodes} up'");
  });
});

describe('judging a day-2 step', () => {
  const step: Day2Step = { what: 'x', args: ['status', 'c', '-o', 'json'], stdout: [/"state"/], json: (d) => (d.state === 'Up' ? [] : [`state ${d.state}`]) };

  test('GIVEN the expected exit, output and JSON THEN nothing is wrong', () => {
    expect(judgeStep(step, { code: 0, stdout: '{"state":"Up"}', stderr: '' })).toEqual([]);
  });

  test('GIVEN another exit code, output that does not match, JSON that is wrong or not JSON THEN each is named', () => {
    expect(judgeStep(step, { code: 4, stdout: '', stderr: 'unreachable' })).toEqual(['exited 4, expected 0', 'stdout does not match /"state"/']);
    expect(judgeStep(step, { code: 0, stdout: '{"state":"Starting"}', stderr: '' })).toEqual(['state Starting']);
    expect(judgeStep(step, { code: 0, stdout: 'state: Up', stderr: '' })).toEqual(['stdout does not match /"state"/', 'stdout is not JSON']);
    expect(judgeStep({ what: 'x', args: ['wait'], exit: 11, stderr: [/ImagePullBackOff/] }, { code: 11, stdout: '', stderr: 'ErrImagePull' })).toEqual(['stderr does not match /ImagePullBackOff/']);
  });
});

describe('what a step said, for the report', () => {
  test('GIVEN a command that failed THEN the line its error pattern matched, else the last line of its errors', () => {
    const r = { code: 11, stdout: 'x\n', stderr: 'warning\nkubectl-minicluster: error: stuck (ImagePullBackOff)\nhint\n\n' };
    expect(saidLine({ what: 'x', args: ['wait'], exit: 11, stderr: [/ImagePull/] }, r)).toBe('kubectl-minicluster: error: stuck (ImagePullBackOff)');
    expect(saidLine({ what: 'x', args: ['wait'], exit: 11 }, r)).toBe('hint');
  });

  test('GIVEN a command that succeeded THEN the line its output pattern matched (spaces squeezed), else its first line; JSON by its main fields', () => {
    const list = { code: 0, stdout: '     STATE NNODES NODELIST\n      free      2 c-[0-1]\n      down      2 c-[2-3]\n', stderr: '' };
    expect(saidLine({ what: 'x', args: ['flux'], stdout: [/^\s*down\s+2/m] }, list)).toBe('down 2 c-[2-3]');
    expect(saidLine({ what: 'x', args: ['flux'] }, list)).toBe('STATE NNODES NODELIST');
    const status = { code: 0, stdout: JSON.stringify({ kind: 'MiniClusterStatus', state: 'Up', brokers: { up: 2, expected: 2 }, ranks: [] }, null, 2), stderr: '' };
    expect(saidLine({ what: 'x', args: ['status'], json: () => [] }, status)).toBe('{"state":"Up","brokers":{"up":2,"expected":2}}');
    expect(saidLine({ what: 'x', args: ['status'] }, { code: 0, stdout: 'x'.repeat(300), stderr: '' })).toHaveLength(201);
  });
});

describe('a failed step\'s output in its problem', () => {
  test('GIVEN a long output THEN each stream is shown once, its first lines and how many more there were', () => {
    const text = shownOutput({ code: 0, stdout: Array.from({ length: 50 }, (_, i) => `l${i}`).join('\n'), stderr: 'e' }, 3);
    expect(text).toBe('\n    stdout:\n    | l0\n    | l1\n    | l2\n    | (47 more lines)\n    stderr:\n    | e');
  });
});

describe('running day-2 steps', () => {
  test('GIVEN steps that pass, then one that exits otherwise THEN the steps run in order up to the failing one, which is the problem, and the rest do not run', async () => {
    const plugin = fakePlugin();
    const { problems, results } = await runDay2Steps([
      { what: 'status', args: ['status', 'c'], stdout: [/"-n","e2e-day2","c"/] },
      { what: 'refused', args: ['scale', 'c', '--size', '9'], exit: 7 },
      { what: 'logs', args: ['logs', 'c'] },
    ], { ...CONNECTION, plugin });
    expect(results.map((r) => [r.what, r.exit, r.wanted, r.pass, r.tries])).toEqual([['status', 0, 0, true, 1], ['refused', 0, 7, false, 1]]);
    expect(results[1].command).toBe('kubectl minicluster scale c --size 9');
    expect(problems).toEqual([expect.stringMatching(/^day-2 'refused' \(kubectl minicluster scale c --size 9\): exited 0, expected 7\n    stdout:\n    \| \["scale","--kubeconfig"/), 'day-2: the 1 step(s) after it did not run']);
  });

  test('GIVEN a step that may settle WHEN it fails first THEN it is run again until it passes, and the tries are kept', async () => {
    const plugin = fakePlugin();
    fs.writeFileSync(path.join(dir, 'pass-from'), '2');
    const { problems, results } = await runDay2Steps([{ what: 'resource list', args: ['flux', 'c', '--', 'resource', 'list'], retry: true, timeoutSeconds: 30 }], { ...CONNECTION, plugin });
    expect(problems).toEqual([]);
    expect(results[0]).toMatchObject({ exit: 0, tries: 2, pass: true });
  });

  test('GIVEN a step that does not settle THEN it is not run again, and its failure is kept', async () => {
    const plugin = fakePlugin();
    fs.writeFileSync(path.join(dir, 'pass-from'), '2');
    const { problems, results } = await runDay2Steps([{ what: 'scale', args: ['scale', 'c', '--size', '4'] }], { ...CONNECTION, plugin });
    expect(results[0]).toMatchObject({ exit: 9, tries: 1, pass: false });
    expect(problems).toHaveLength(1);
  });

  test('GIVEN a command that never exits THEN it is killed at the step\'s time limit and fails', async () => {
    const plugin = fakePlugin();
    fs.writeFileSync(path.join(dir, 'hang'), '');
    const { problems, results } = await runDay2Steps([{ what: 'wait', args: ['wait', 'c', '--for', 'up'], timeoutSeconds: 1 }], { ...CONNECTION, plugin });
    expect(results[0]).toMatchObject({ exit: null, pass: false });
    expect(problems[0]).toMatch(/exited null, expected 0\n    stdout:[\s\S]*\n    stderr:\n    \| \(killed after 1 s\)/);
  });
});

describe('the day-2 cases', () => {
  const up = (ranks: Array<[number, string, boolean]>, size: number) => ({
    state: 'Up', elastic: true, size: { current: size, min: 2, max: 4 }, brokers: { up: size, expected: size }, problems: [],
    ranks: ranks.map(([rank, phase, ready]) => ({ rank, pod: `c-${rank}`, phase, ready, flux: phase === 'Running' ? 'running' : 'terminated: exit 0' })),
  });

  test('GIVEN status of an elastic cluster at 2 with both ranks Ready THEN statusShows(2) finds nothing', () => {
    expect(statusShows(2, { min: 2, max: 4 })(up([[0, 'Running', true], [1, 'Running', true]], 2))).toEqual([]);
  });

  test('GIVEN a rank beyond the size still running, or a rank not Ready THEN statusShows names it', () => {
    expect(statusShows(2)(up([[0, 'Running', true], [1, 'Running', true], [3, 'Running', true]], 2))).toEqual(['rank 3 (c-3) still Running at size 2']);
    expect(statusShows(2)(up([[0, 'Running', true], [1, 'Running', false]], 2))).toEqual(['rank 1: Running, ready false, flux running, expected Running, Ready, flux running']);
    expect(statusShows(4, { min: 2, max: 4 })(up([[0, 'Running', true]], 2))).toEqual(expect.arrayContaining(['brokers 2/2, expected 4/4', 'size.current 2, expected 4', 'rank 1: no pod, expected Running, Ready, flux running']));
  });

  test('GIVEN the case that scales its cluster to 4 with kubectl minicluster scale THEN its CPU requests are fitted for 4 pods, not the 2 it starts with', () => {
    const grow = day2Cases().find((c) => c.id.includes('scale up'))!;
    expect(grownSize(grow)).toBe(4);
    expect(grownSize(day2Cases().find((c) => c.id.includes('cannot be pulled'))!)).toBeUndefined();
    // 500m a container: 2 pods fit 80% of 2 CPUs, 4 do not.
    const asking = () => {
      const docs = readDocs(grow.synth(dir));
      for (const c of indexedJob(docs).spec.template.spec.containers) c.resources = { requests: { cpu: '500m' } };
      return docs;
    };
    expect(fitCpuRequests(asking(), 2000)).toBeUndefined();
    expect(fitCpuRequests(asking(), 2000, grownSize(grow))).toMatch(/^CPU requests scaled down for 4 pods on 2 allocatable CPUs/);
  });

  test('GIVEN every case with day-2 commands THEN podemu skips it with a reason, and it is among the cases npm run e2e runs', () => {
    const ids = allCases().cases.map((c) => c.id);
    for (const c of allCases().cases.filter((x) => x.day2)) expect(c.podemu?.skip).toMatch(/API server/);
    for (const c of day2Cases()) expect(ids).toContain(c.id);
  });

  test('GIVEN the case whose image cannot be pulled THEN --list-images does not ask for that image', () => {
    expect(meantToFail('registry.invalid/no-such-image:1')).toBe(true);
    expect(meantToFail('registry.invalid:5000/x')).toBe(true);
    expect(meantToFail('ghcr.io/invalid/x:1')).toBe(false);
    const images = imagesOf(day2Cases());
    expect(images).toContain('ubuntu:noble');
    expect(images.some((i) => i.includes('registry.invalid'))).toBe(false);
  });
});

describe('the report\'s Day-2 section', () => {
  test('GIVEN a real cluster\'s run of a day-2 case, skipped on the emulator THEN the row says why it was skipped, and each step shows its command, the exit expected and got, its time and tries; a step not run says so', () => {
    const { cases, rejected } = allCases();
    const c = day2Cases().find((x) => x.id.includes('cannot be pulled'))!;
    const steps = c.day2!.afterApply;
    const kube: RunRecord = {
      target: 'kube', date: '2026-11-26', seconds: 40, results: [{
        id: c.id, status: 'fail', problems: ['x'], day2: [
          { what: steps[0].what, command: stepCommand(steps[0]), exit: 3, wanted: 3, seconds: 0.8, tries: 1, pass: true, said: "kubectl-minicluster: error: no MiniCluster 'no-such-cluster'" },
          { what: steps[1].what, command: stepCommand(steps[1]), exit: 9, wanted: 11, seconds: 180.2, tries: 1, pass: false, said: 'timed out | 0/2 up' },
        ],
      }],
    };
    const podemu: RunRecord = { target: 'podemu', date: '2026-11-26', seconds: 0, results: [{ id: c.id, status: 'skip', problems: [c.podemu!.skip!] }] };
    const text = e2eReport(cases, rejected, podemu, kube);
    expect(text).toMatch(new RegExp(`\\| ${c.id} \\|[^\\n]*\\| skip \\|[^\\n]*emulator: the day-2 commands need an API server`));
    expect(text).toContain('## Day-2 commands');
    expect(text).toContain(`### ${c.id}\n\nReal cluster: fail.`);
    expect(text).toContain(`| ${steps[0].what} | \`kubectl minicluster wait no-such-cluster --for up --timeout 10s\` | 3 | 3 | 0.8 | \`kubectl-minicluster: error: no MiniCluster 'no-such-cluster'\` | pass |`);
    expect(text).toContain('| 11 | 9 | 180.2 | `timed out \\| 0/2 up` | fail |');
    expect(text).toMatch(new RegExp(`\\| ${steps[2].what} \\| [^\\n]* \\| 0 \\| – \\| – \\| – \\| not run \\|`));
    expect(text).toMatch(/`kubectl minicluster` commands \(wait, status\): see Day-2 commands/);
  });
});

/**
 * autoscale-agent.sh, run for real with bash against a test double of the flux CLI: what it reports
 * of Flux's state, and which drains, undrains and release markers it makes for the autoscaler.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AUTOSCALE_AGENT_SCRIPT_KEY } from '../../lib/scripts/render';
import { renderTemplate } from '../../lib/scripts/template';

/** The flux double: prints the files the test writes, records every call, changes nothing. */
const FAKE_FLUX = `#!/bin/bash
printf '%s\\n' "$*" >> "$FAKE/calls"
case "$1 $2" in
  'job stats') cat "$FAKE/stats" ;;
  'resource status') cat "$FAKE/status" ;;
  'resource list') if [[ " $* " == *' -s all '* ]]; then echo '4|8'; else cat "$FAKE/allocated"; fi ;;
  'jobs -A') cat "$FAKE/jobs" ;;
esac
`;

let root: string;
let agent: ChildProcess | undefined;
let output = '';
const file = (name: string) => path.join(root, name);
const write = (name: string, text: string) => fs.writeFileSync(file(name), text);
const calls = () => (fs.existsSync(file('fake/calls')) ? fs.readFileSync(file('fake/calls'), 'utf8').split('\n').filter(Boolean) : []);
const MARKER = '/mnt/flux/config/released';

/** Resolves once `test` holds, checking every 50 ms (the agent runs every second); rejects after 20 s. */
async function until(what: string, test: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (test()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}; calls: ${calls().join(' | ')}; output: ${output}`);
}

function start(): void {
  const text = renderTemplate(AUTOSCALE_AGENT_SCRIPT_KEY, {
    values: { QUIET: 'false', FLUX_VIEW_FILE: file('flux-view.sh'), AUTOSCALE_DIR: file('channel'), PERIOD_SECONDS: 1, DRAIN_REASON: 'autoscale', RELEASED_MARKER: MARKER },
    flags: {},
  });
  write('agent.sh', text);
  agent = spawn('bash', [file('agent.sh')], { env: { ...process.env, FAKE: file('fake') }, stdio: ['ignore', 'pipe', 'pipe'] });
  agent.stdout!.on('data', (d) => (output += d));
  agent.stderr!.on('data', (d) => (output += d));
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'autoscale-agent-'));
  fs.mkdirSync(file('fake/bin'), { recursive: true });
  fs.mkdirSync(file('channel'));
  write('fake/bin/flux', FAKE_FLUX);
  fs.chmodSync(file('fake/bin/flux'), 0o755);
  write('flux-view.sh', `export PATH=${file('fake/bin')}:$PATH\nfluxsocket=local:///run/flux/local\n`);
  write('fake/stats', '{"job_states":{"sched":0,"run":0,"inactive":0,"total":0}}\n');
  write('fake/status', 'avail|0-3|\n');
  write('fake/allocated', '\n');
  write('fake/jobs', '');
  output = '';
});

afterEach(() => {
  agent?.kill('SIGKILL');
  agent = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

const state = () => JSON.parse(fs.readFileSync(file('channel/state.json'), 'utf8'));

describe('autoscale-agent.sh', () => {
  test('GIVEN Flux with a busy rank and two jobs waiting, one held THEN the snapshot has the ranks and the one waiting job', async () => {
    write('fake/status', 'avail|0-1|\navail*|2-3|\n');
    write('fake/allocated', '1\n');
    write('fake/jobs', '12|3||16\n13|2||0\n14||5|16\n');
    start();
    await until('a snapshot', () => fs.existsSync(file('channel/state.json')));
    expect(state()).toMatchObject({
      up: '0-1', allocated: '1', drained: '', draining: '', autoscaleDrained: '', released: '', coresPerNode: 2,
      pending: [{ id: '12', nnodes: '3', ncores: '' }, { id: '14', nnodes: '', ncores: '5' }],
    });
    // AND the state is read through the broker's local socket, with no drain made
    expect(calls().filter((c) => c.startsWith('resource drain') || c.startsWith('resource undrain'))).toEqual([]);
  });

  test('GIVEN the autoscaler names ranks 2-3 THEN they are drained; once drained and idle they are marked released', async () => {
    write('channel/drain', '2-3\n');
    start();
    await until('the drain', () => calls().includes('resource drain 2,3 autoscale'));
    // WHEN Flux shows them drained and idle
    write('fake/status', 'avail|0-1|\ndrained|2-3|autoscale\n');
    await until('the release markers', () => calls().includes(`exec -n -r 2,3 touch -- ${MARKER}`));
    await until('a snapshot with them released', () => state().released === '2,3');
    expect(state()).toMatchObject({ drained: '2-3', autoscaleDrained: '2-3' });
  });

  test('GIVEN a rank still running a job (draining) THEN it is not marked released', async () => {
    write('channel/drain', '3\n');
    write('fake/status', 'avail|0-2|\ndraining|3|autoscale\n');
    start();
    // (the agent applies the drains right after a snapshot, and looks again at the next period)
    await until('a snapshot and the period after it', () => fs.existsSync(file('channel/state.json')) && calls().filter((c) => c === 'job stats').length >= 2);
    expect(calls().filter((c) => c.startsWith('exec'))).toEqual([]);
    expect(state()).toMatchObject({ draining: '3', released: '' });
  });

  test("GIVEN the autoscaler no longer names its drained ranks THEN it undrains them, never another's drain", async () => {
    write('fake/status', 'avail|0-1|\ndrained|2|autoscale\ndrained|3|maintenance by the admin\n');
    write('channel/drain', '\n');
    start();
    await until('the undrain', () => calls().includes('resource undrain 2'));
    expect(calls().filter((c) => c.includes('undrain')).every((c) => c === 'resource undrain 2')).toBe(true);
    // AND the admin's drain is reported as drained, not as the autoscaler's
    expect(state()).toMatchObject({ drained: '2,3', autoscaleDrained: '2' });
  });

  test("GIVEN a decision of the autoscaler THEN the lead's log says it once", async () => {
    write('channel/decision', '2026-11-26T15:43:08Z grow 1 -> 3: 1 job(s) wait for 3 node(s)\n');
    start();
    await until('the decision in the log', () => output.includes('autoscale-agent: autoscaler: 2026-11-26T15:43:08Z grow 1 -> 3'));
    await until('two more periods', () => calls().filter((c) => c === 'job stats').length >= 3);
    expect(output.split('grow 1 -> 3')).toHaveLength(2);
  });
});

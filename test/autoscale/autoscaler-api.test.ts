import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AUTOSCALE_ANNOTATION } from '../../lib/core/day2-contract';
import { Autoscaler } from '../../lib/runtime/autoscale/autoscaler';
import { AutoscaleConfig, ConfigError, readConfig } from '../../lib/runtime/autoscale/config';
import { jobApi } from '../../lib/runtime/autoscale/job-api';
import { KubeApiServer } from '../support/kube-api-server';

const NS = 'hpc';
const JOB = 'flux-auto';
const NOW = 1_800_000_000;

let server: KubeApiServer;
let dir: string;
let config: AutoscaleConfig;

function snapshot(s: Record<string, unknown>): void {
  const full = { time: NOW, up: '0', allocated: '', drained: '', draining: '', autoscaleDrained: '', released: '', coresPerNode: 2, lastJobEvent: 0, pending: [], ...s };
  fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify(full));
}

beforeEach(async () => {
  server = new KubeApiServer();
  const url = await server.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autoscale-'));
  fs.mkdirSync(path.join(dir, 'token'));
  // The projected volume's files, as the kubelet writes them.
  fs.writeFileSync(path.join(dir, 'token', 'token'), 'not-a-secret\n');
  config = readConfig({
    AUTOSCALE_JOB_NAME: JOB, AUTOSCALE_NAMESPACE: NS, AUTOSCALE_MIN_SIZE: '1', AUTOSCALE_MAX_SIZE: '4', AUTOSCALE_IDLE_SECONDS: '30',
    AUTOSCALE_PERIOD_SECONDS: '2', AUTOSCALE_DIR: dir, AUTOSCALE_TOKEN_DIR: path.join(dir, 'token'), AUTOSCALE_API_URL: url, JOB_COMPLETION_INDEX: '0',
  });
  server.put('jobs', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: JOB, namespace: NS, annotations: { 'flux-framework.org/max-size': '4' } }, spec: { parallelism: 1, completions: 1 }, status: {} });
});

afterEach(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function autoscaler(clock: () => number, lines: string[] = []): Autoscaler {
  return new Autoscaler(config, jobApi(config), (l) => lines.push(l), clock);
}

describe('the autoscaler against an API server', () => {
  test('a waiting job grows the Job: one merge patch of parallelism, completions and the decision annotation', async () => {
    // GIVEN one broker up and a -N3 job waiting
    snapshot({ pending: [{ id: '7', nnodes: '3', ncores: '' }] });
    const lines: string[] = [];
    // WHEN the autoscaler takes a step
    const d = await autoscaler(() => NOW, lines).step();
    // THEN the Job's parallelism and completions are both 3
    const job = server.get('jobs', NS, JOB)!;
    expect([job.spec.parallelism, job.spec.completions]).toEqual([3, 3]);
    // AND its annotation says what was decided, when and why
    const recorded = JSON.parse(job.metadata.annotations[AUTOSCALE_ANNOTATION]);
    expect(recorded).toEqual({ time: '2027-01-15T08:00:00Z', action: 'grow', from: 1, to: 3, reason: d!.reason });
    expect(job.metadata.annotations['flux-framework.org/max-size']).toBe('4');
    // AND the only requests were a get and a patch of this Job
    expect(server.requests.map((r) => `${r.verb} ${r.resource} ${r.name}`)).toEqual([`get jobs ${JOB}`, `patch jobs ${JOB}`]);
    // AND the decision is in the log and in the file the Flux agent repeats in the lead's log
    expect(lines).toEqual([`2027-01-15T08:00:00Z grow 1 -> 3: ${d!.reason}`]);
    expect(fs.readFileSync(path.join(dir, 'decision'), 'utf8')).toBe(`${lines[0]}\n`);
    expect(fs.readFileSync(path.join(dir, 'drain'), 'utf8')).toBe('\n');
  });

  test('a shrink drains first, patches only the annotation, then shrinks the Job once the ranks are released', async () => {
    server.update('jobs', NS, JOB, (j) => Object.assign(j.spec, { parallelism: 4, completions: 4 }));
    let now = NOW;
    const a = autoscaler(() => now);
    // GIVEN 4 idle brokers, seen first at NOW
    snapshot({ up: '0-3' });
    expect((await a.step())!.action).toBe('none');
    // WHEN they have been idle for idleSeconds
    now += 31;
    snapshot({ time: now, up: '0-3' });
    const drain = await a.step();
    // THEN ranks 1-3 are to be drained, the Job keeps 4 and its annotation says so
    expect([drain!.action, drain!.to]).toEqual(['drain', 1]);
    expect(fs.readFileSync(path.join(dir, 'drain'), 'utf8')).toBe('1-3\n');
    let job = server.get('jobs', NS, JOB)!;
    expect([job.spec.parallelism, JSON.parse(job.metadata.annotations[AUTOSCALE_ANNOTATION]).action]).toEqual([4, 'drain']);
    // WHEN the agent drained and released them
    now += 2;
    snapshot({ time: now, up: '0-3', drained: '1-3', autoscaleDrained: '1-3', released: '1-3' });
    await a.step();
    // THEN the Job shrinks to 1, parallelism and completions together
    job = server.get('jobs', NS, JOB)!;
    expect([job.spec.parallelism, job.spec.completions]).toEqual([1, 1]);
    expect(JSON.parse(job.metadata.annotations[AUTOSCALE_ANNOTATION])).toMatchObject({ action: 'shrink', from: 4, to: 1 });
  });

  test('an unchanged decision is not written again', async () => {
    snapshot({});
    const a = autoscaler(() => NOW);
    await a.step();
    await a.step();
    // THEN one patch (the first decision, so that status shows the autoscaler runs), two gets
    expect(server.requests.map((r) => r.verb)).toEqual(['get', 'patch', 'get']);
  });

  test('a stale or missing snapshot decides nothing and calls no API', async () => {
    const lines: string[] = [];
    const a = autoscaler(() => NOW, lines);
    expect(await a.step()).toBeUndefined();
    snapshot({ time: NOW - 31, pending: [{ id: '7', nnodes: '3', ncores: '' }] });
    expect(await a.step()).toBeUndefined();
    expect(server.requests).toEqual([]);
    expect(lines).toEqual([
      `waiting for the Flux agent's first snapshot (${path.join(dir, 'state.json')})`,
      "the Flux agent's snapshot is 31 s old (over 30 s): not deciding until it is fresh",
    ]);
  });

  test("a refused patch fails the step with the API server's message; the Job is unchanged", async () => {
    server.forbidden.add('patch jobs');
    snapshot({ pending: [{ id: '7', nnodes: '3', ncores: '' }] });
    await expect(autoscaler(() => NOW).step()).rejects.toThrow(/PATCH .*\/apis\/batch\/v1\/namespaces\/hpc\/jobs\/flux-auto: 403 .*forbidden/);
    expect(server.get('jobs', NS, JOB)!.spec.parallelism).toBe(1);
  });

  test('a wrong token is refused (401) and no decision is recorded', async () => {
    fs.writeFileSync(path.join(dir, 'token', 'token'), 'another-token');
    snapshot({ pending: [{ id: '7', nnodes: '3', ncores: '' }] });
    await expect(autoscaler(() => NOW).step()).rejects.toThrow(/GET .*: 401/);
    expect(fs.existsSync(path.join(dir, 'decision'))).toBe(false);
  });
});

describe('the autoscaler configuration', () => {
  test('every missing or bad setting is reported at once', () => {
    let error: unknown;
    try {
      readConfig({ AUTOSCALE_MIN_SIZE: '4', AUTOSCALE_MAX_SIZE: '4', AUTOSCALE_IDLE_SECONDS: '-1', JOB_COMPLETION_INDEX: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const m of [/AUTOSCALE_JOB_NAME is not set/, /AUTOSCALE_NAMESPACE is not set/, /AUTOSCALE_MIN_SIZE \(4\) must be below AUTOSCALE_MAX_SIZE \(4\)/,
      /AUTOSCALE_IDLE_SECONDS must be an integer >= 0, got '-1'/, /AUTOSCALE_PERIOD_SECONDS is not set/, /KUBERNETES_SERVICE_HOST is not set/]) {
      expect(message).toMatch(m);
    }
  });

  test('the API server is KUBERNETES_SERVICE_HOST and PORT over TLS', () => {
    const c = readConfig({
      AUTOSCALE_JOB_NAME: JOB, AUTOSCALE_NAMESPACE: NS, AUTOSCALE_MIN_SIZE: '1', AUTOSCALE_MAX_SIZE: '4', AUTOSCALE_IDLE_SECONDS: '30',
      AUTOSCALE_PERIOD_SECONDS: '2', JOB_COMPLETION_INDEX: '0', KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443',
    });
    expect([c.apiUrl, c.tokenDir, c.dir]).toEqual(['https://[fd00::1]:443', '/var/run/secrets/flux-autoscaler', '/mnt/flux-autoscale']);
  });
});

import { decide, Limits, Memory, NO_MEMORY } from '../../lib/runtime/autoscale/decide';
import { FluxState, nodesNeeded, parseFluxState } from '../../lib/runtime/autoscale/flux-state';
import { formatIdset, parseIdset } from '../../lib/core/idset';

const LIMITS: Limits = { minSize: 1, maxSize: 4, idleSeconds: 60 };
const NOW = 1_000_000;

/** A snapshot: every field empty unless given. */
function state(s: Partial<FluxState> = {}): FluxState {
  return { time: NOW, up: [0], allocated: [], drained: [], draining: [], autoscaleDrained: [], released: [], coresPerNode: 2, lastJobEvent: 0, pending: [], ...s };
}
const job = (parallelism: number, ended = false) => ({ parallelism, ended });
/** Memory in which ranks 0..n-1 were last busy `ago` seconds before NOW. */
const idleFor = (n: number, ago: number): Memory => ({ lastBusy: Object.fromEntries(Array.from({ length: n }, (_, r) => [r, NOW - ago])) });
const pending = (...nnodes: number[]) => nnodes.map((n, i) => ({ id: String(i + 1), nnodes: n, ncores: 0 }));

describe('decide: grow', () => {
  test('a job waiting for more nodes than the Job has grows the Job to them', () => {
    // GIVEN one broker up and a -N3 job waiting
    const d = decide(state({ pending: pending(3) }), job(1), LIMITS, NO_MEMORY, NOW);
    // THEN the Job grows to 3, with nothing to drain
    expect([d.action, d.from, d.to, d.drain]).toEqual(['grow', 1, 3, []]);
    expect(d.reason).toMatch(/1 job\(s\) wait for 3 node\(s\).*growing 1 -> 3/);
  });

  test('waiting jobs are added to the busy nodes, and the Job never grows above maxSize', () => {
    // GIVEN -N3 and -N4 waiting while rank 0 runs a job
    const d = decide(state({ up: [0, 1, 2], allocated: [0], pending: pending(3, 4) }), job(3), LIMITS, NO_MEMORY, NOW);
    // THEN the Job grows to maxSize 4, not 8, and says it was capped
    expect([d.action, d.to]).toEqual(['grow', 4]);
    expect(d.reason).toMatch(/capped at maxSize 4/);
  });

  test('a job larger than maxSize is not grown for, and the reason says it never runs', () => {
    const d = decide(state({ pending: pending(5) }), job(1), LIMITS, NO_MEMORY, NOW);
    expect([d.action, d.to]).toEqual(['none', 1]);
    expect(d.reason).toMatch(/1 pending job\(s\) need more than maxSize 4 nodes and never run/);
  });

  test('jobs that fit the brokers the Job already has do not grow it', () => {
    // GIVEN 4 brokers, all busy, and a -N2 job waiting for two of them
    const d = decide(state({ up: [0, 1, 2, 3], allocated: [0, 1, 2, 3], pending: pending(2) }), job(4), LIMITS, NO_MEMORY, NOW);
    expect([d.action, d.to]).toEqual(['none', 4]);
  });

  test('a job given in cores counts the nodes those cores need', () => {
    // GIVEN 2 cores per node and a -n5 job (no -N)
    expect(nodesNeeded({ id: '1', nnodes: 0, ncores: 5 }, 2)).toBe(3);
    expect(nodesNeeded({ id: '1', nnodes: 0, ncores: 0 }, 2)).toBe(1);
    const d = decide(state({ pending: [{ id: '1', nnodes: 0, ncores: 5 }] }), job(1), LIMITS, NO_MEMORY, NOW);
    expect([d.action, d.to]).toEqual(['grow', 3]);
  });

  test('a job that arrives during a shrink cancels it: the ranks are undrained', () => {
    // GIVEN ranks 1-3 drained for a shrink, and a job for 2 nodes arrives
    const s = state({ up: [0, 1, 2, 3], drained: [1, 2, 3], autoscaleDrained: [1, 2, 3], pending: pending(2) });
    const d = decide(s, job(4), LIMITS, idleFor(4, 120), NOW);
    // THEN nothing is drained any more and the Job keeps its 4 brokers
    expect([d.action, d.to, d.drain]).toEqual(['undrain', 4, []]);
  });
});

describe('decide: shrink', () => {
  test('idle top ranks are drained first, not removed', () => {
    // GIVEN 4 brokers up, idle for longer than idleSeconds, nothing drained yet
    const d = decide(state({ up: [0, 1, 2, 3] }), job(4), LIMITS, idleFor(4, 61), NOW);
    // THEN ranks 1-3 are drained and the Job keeps its size for now
    expect([d.action, d.from, d.to, d.drain]).toEqual(['drain', 4, 1, [1, 2, 3]]);
  });

  test('the Job shrinks once the ranks are drained, idle and released', () => {
    const s = state({ up: [0, 1, 2, 3], drained: [1, 2, 3], autoscaleDrained: [1, 2, 3], released: [1, 2, 3] });
    const d = decide(s, job(4), LIMITS, idleFor(4, 61), NOW);
    expect([d.action, d.to, d.drain]).toEqual(['shrink', 1, [1, 2, 3]]);
  });

  test('a drained rank that still runs a job (draining) is never given up', () => {
    // GIVEN rank 3 drained while a job still runs there
    const s = state({ up: [0, 1, 2, 3], drained: [1, 2], draining: [3], autoscaleDrained: [1, 2, 3], released: [1, 2] });
    const d = decide(s, job(4), LIMITS, idleFor(4, 61), NOW);
    // THEN the Job keeps 4: only ranks above the highest busy one could go, and there are none
    expect([d.action, d.to]).not.toContain('shrink');
    expect(d.to).toBe(4);
    // AND ranks 1-2, below the busy rank, are undrained (an Indexed Job gives up its top indexes only)
    expect(d.drain).toEqual([]);
    expect(d.action).toBe('undrain');
  });

  test('drained but not yet released ranks are waited for', () => {
    const s = state({ up: [0, 1, 2, 3], drained: [1, 2, 3], autoscaleDrained: [1, 2, 3], released: [1, 2] });
    const d = decide(s, job(4), LIMITS, idleFor(4, 61), NOW);
    expect([d.action, d.to]).toEqual(['drain', 1]);
  });

  test('only ranks above the highest busy one go, and never below minSize', () => {
    // GIVEN rank 1 busy, minSize 1: ranks 2-3 may go
    const busy = decide(state({ up: [0, 1, 2, 3], allocated: [1] }), job(4), LIMITS, idleFor(4, 61), NOW);
    expect([busy.action, busy.to, busy.drain]).toEqual(['drain', 2, [2, 3]]);
    // GIVEN nothing busy but minSize 3: only rank 3 may go
    const floor = decide(state({ up: [0, 1, 2, 3] }), job(4), { ...LIMITS, minSize: 3 }, idleFor(4, 61), NOW);
    expect([floor.action, floor.to, floor.drain]).toEqual(['drain', 3, [3]]);
  });

  test('ranks idle for less than idleSeconds stay', () => {
    const d = decide(state({ up: [0, 1, 2, 3] }), job(4), LIMITS, idleFor(4, 59), NOW);
    expect([d.action, d.to, d.drain]).toEqual(['none', 4, []]);
    expect(d.reason).toMatch(/ranks 1-3 go once idle 60 s/);
  });

  test('the idle time counts from the last job event, even for a job never seen allocated', () => {
    // GIVEN ranks last seen busy long ago, but a job ended 10 s ago
    const d = decide(state({ up: [0, 1, 2, 3], lastJobEvent: NOW - 10 }), job(4), LIMITS, idleFor(4, 600), NOW);
    expect([d.action, d.to]).toEqual(['none', 4]);
    expect(d.memory.lastBusy[3]).toBe(NOW - 10);
  });

  test('a rank seen busy restarts its idle time; a rank that joins starts it', () => {
    const d = decide(state({ up: [0, 1], allocated: [1] }), job(3), LIMITS, { lastBusy: { 0: NOW - 100, 1: NOW - 100 } }, NOW);
    expect(d.memory.lastBusy).toEqual({ 0: NOW - 100, 1: NOW, 2: NOW });
  });

  test('after the shrink, ranks whose brokers are still up stay drained until they leave', () => {
    // GIVEN the Job already shrunk to 1, rank 2's pod not gone yet
    const d = decide(state({ up: [0, 2], drained: [2], autoscaleDrained: [1, 2, 3] }), job(1), LIMITS, idleFor(1, 120), NOW);
    expect([d.action, d.to, d.drain]).toEqual(['none', 1, [2]]);
  });

  test('an ended Job is left alone', () => {
    const d = decide(state({ pending: pending(3) }), job(1, true), LIMITS, NO_MEMORY, NOW);
    expect([d.action, d.to, d.reason]).toEqual(['none', 1, 'the Job has ended']);
  });
});

describe('the Flux agent snapshot', () => {
  test('is parsed from what autoscale-agent.sh writes', () => {
    // GIVEN a snapshot as the agent prints it (empty fields for jobs given in cores or nodes)
    const text = '{"time":100,"up":"0,1-2","allocated":"2","drained":"","draining":"","autoscaleDrained":"3","released":"","coresPerNode":2,"lastJobEvent":90,'
      + '"pending":[{"id":"12","nnodes":"3","ncores":""},{"id":"13","nnodes":"","ncores":"5"}]}';
    const s = parseFluxState(text);
    expect(s.up).toEqual([0, 1, 2]);
    expect(s.autoscaleDrained).toEqual([3]);
    expect(s.pending).toEqual([{ id: '12', nnodes: 3, ncores: 0 }, { id: '13', nnodes: 0, ncores: 5 }]);
  });

  test.each([
    ['not JSON', '{', /not JSON/],
    ['a rank list that is not an idset', '{"time":1,"up":"0-x","allocated":"","drained":"","draining":"","autoscaleDrained":"","released":"","coresPerNode":1,"lastJobEvent":0,"pending":[]}', /not an idset/],
    ['no pending list', '{"time":1,"up":"","allocated":"","drained":"","draining":"","autoscaleDrained":"","released":"","coresPerNode":1,"lastJobEvent":0}', /no pending list/],
    ['a missing time', '{"up":"","allocated":"","drained":"","draining":"","autoscaleDrained":"","released":"","coresPerNode":1,"lastJobEvent":0,"pending":[]}', /time is not a number/],
  ])('%s is refused with the reason', (_, text, message) => {
    expect(() => parseFluxState(text)).toThrow(message);
  });

  test('idsets round-trip', () => {
    expect(parseIdset('0,2-4,7')).toEqual([0, 2, 3, 4, 7]);
    expect(formatIdset([7, 0, 3, 2, 4])).toBe('0,2-4,7');
    expect(formatIdset([])).toBe('');
    expect(parseIdset('')).toEqual([]);
  });
});


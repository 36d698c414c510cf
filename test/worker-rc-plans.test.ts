/** The worker brokers' rc1 and rc3 as steps of modules, from a plan's precedence graph. */
import { loadSteps, removeSteps, WORKER_RC_PLANS, WorkerRcPlan } from '../lib/core/worker-rc-plans';

const plan = (after: Record<string, string[]>): WorkerRcPlan => ({ name: 'p', fingerprint: '1-2', after });

describe('loadSteps and removeSteps', () => {
  test('GIVEN the verified plan for flux-core 0.88 THEN rc1 loads in four steps and rc3 removes in the reverse four', () => {
    const [verified] = WORKER_RC_PLANS;
    expect(loadSteps(verified)).toEqual([['content', 'heartbeat', 'job-info', 'job-ingest'], ['kvs'], ['kvs-watch'], ['resource']]);
    expect(removeSteps(verified)).toEqual([['heartbeat', 'job-info', 'job-ingest', 'resource'], ['kvs-watch'], ['kvs'], ['content']]);
  });

  test('GIVEN a module after two others of different depths THEN it waits for the later one', () => {
    // c after a and b; b after a: c is two steps after a
    const p = plan({ c: ['a', 'b'], b: ['a'], a: [] });
    expect(loadSteps(p)).toEqual([['a'], ['b'], ['c']]);
    expect(removeSteps(p)).toEqual([['c'], ['b'], ['a']]);
  });

  test('GIVEN a module nobody comes after THEN rc3 removes it in the first step, whenever it was loaded', () => {
    const p = plan({ a: [], b: ['a'], c: ['b'], d: ['a'] });
    expect(loadSteps(p)).toEqual([['a'], ['b', 'd'], ['c']]);
    expect(removeSteps(p)).toEqual([['c', 'd'], ['b'], ['a']]);
  });

  test.each([
    ['a predecessor that is not in the plan', { kvs: ['content'] }],
    ['a loop', { a: ['b'], b: ['a'] }],
    ['a module after itself', { a: ['a'] }],
  ])('GIVEN %s THEN no steps', (_, after) => {
    expect(loadSteps(plan(after))).toBeUndefined();
    expect(removeSteps(plan(after))).toBeUndefined();
  });
});

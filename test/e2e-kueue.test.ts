/**
 * The e2e runner's Kueue driver (e2e/kube/kueue.ts): it follows the Job's admissions, preempts the
 * cluster as planned after each one, and says what Kueue did that a case does not allow.
 */
import { allCases } from '../e2e/cases';
import { KueueDriver, NO_KUEUE, queueNameOf } from '../e2e/kube/kueue';

function fakeTarget(created: any[]): any {
  return { batch: { createNamespacedJob: async (o: any) => created.push(o.body) } };
}

function job(suspend: boolean, failed = false): any {
  return { spec: { suspend }, status: { conditions: failed ? [{ type: 'Failed', status: 'True' }] : [] } };
}

describe('the e2e Kueue driver', () => {
  test('GIVEN two planned preemptions WHEN the Job is admitted, preempted and readmitted THEN each preemption follows its own admission, and the run is settled after the last readmission', async () => {
    // GIVEN a clock and a driver with preemptions 1 s and 3 s after the 1st and 2nd admissions
    let t = 0;
    const created: any[] = [];
    const lines: string[] = [];
    const d = new KueueDriver(fakeTarget(created), 'ns', { podsQuota: 2, preemptAfterAdmission: [1, 3] }, 'lq', (l) => lines.push(l), () => t);
    // WHEN the Job stays suspended (queued): nothing happens
    await d.poll(job(true), false);
    expect(created).toHaveLength(0);
    // WHEN it is admitted at 0 and polled at 0.5 and 1
    await d.poll(job(false), true);
    t = 0.5;
    await d.poll(job(false), true);
    expect(created).toHaveLength(0);
    t = 1;
    await d.poll(job(false), true);
    // THEN the first preemptor, of the high priority class on the case's queue, takes the quota
    expect(created.map((j) => [j.metadata.name, j.metadata.labels['kueue.x-k8s.io/queue-name'], j.metadata.labels['kueue.x-k8s.io/priority-class']]))
      .toEqual([['preemptor-1', 'lq', 'cdk8s-minicluster-e2e-high']]);
    // WHEN Kueue suspends the Job, and it stays running meanwhile: no second preemption before a new admission
    t = 2;
    await d.poll(job(false), true);
    await d.poll(job(true), true);
    t = 10;
    await d.poll(job(true), true);
    expect(created).toHaveLength(1);
    expect(d.settled()).toBe(false);
    // WHEN readmitted at 10: the second preemption 3 s later
    await d.poll(job(false), true);
    t = 13;
    await d.poll(job(false), true);
    expect(created).toHaveLength(2);
    expect(d.problems()).toEqual(['the Job was admitted 2 times, not again after each of the 2 preemptions']);
    // WHEN suspended and readmitted once more
    await d.poll(job(true), true);
    t = 20;
    await d.poll(job(false), true);
    // THEN the run is settled, with nothing wrong, and both preemptions are recorded
    expect(d.settled()).toBe(true);
    expect(d.problems()).toEqual([]);
    expect(d.records().map((r) => [r.fault, r.at])).toEqual([['preempt', 1], ['preempt', 13]]);
    expect(d.summary()).toBe('admitted 3 time(s) at +0.0, +10.0, +20.0 s; preempted at +1.0, +13.0 s');
  });

  test('GIVEN a Job that turned Failed while preempted THEN the driver says so', async () => {
    const d = new KueueDriver(fakeTarget([]), 'ns', { podsQuota: 2, preemptAfterAdmission: [0] }, 'lq', () => undefined, () => 0);
    await d.poll(job(false), true);
    await d.poll(job(true, true), true);
    expect(d.problems()).toContain('the Job turned Failed while it was preempted and readmitted');
  });

  test('GIVEN a Job never admitted THEN the driver says so', () => {
    const d = new KueueDriver(fakeTarget([]), 'ns', { podsQuota: 2 }, 'lq', () => undefined, () => 0);
    expect(d.problems()).toEqual(['Kueue never admitted the Job']);
  });

  test('the queue a case needs is the one its Job names', () => {
    expect(queueNameOf({ metadata: { labels: { 'kueue.x-k8s.io/queue-name': 'team-a-queue' } } })).toBe('team-a-queue');
    expect(queueNameOf({ metadata: {} })).toBeUndefined();
  });

  test('GIVEN every case queued by Kueue THEN podemu, which has no API server, skips it with the reason', () => {
    const queued = allCases().cases.filter((c) => c.kueue);
    expect(queued.length).toBeGreaterThan(0);
    for (const c of queued) expect({ id: c.id, skip: c.podemu?.skip }).toEqual({ id: c.id, skip: NO_KUEUE });
  });
});

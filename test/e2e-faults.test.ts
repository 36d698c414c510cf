/**
 * The fault cases' checker (e2e/faults.ts): when the exec steps may start after a fault, and the
 * time from the fault to recovery or to the Job's end. A wrong answer here would pass a fault case
 * that did not recover, or time it from the wrong moment.
 */
import { FaultPlan } from '../e2e/case';
import { faultOutcome, faultsSettled } from '../e2e/faults';
import { PodRecord, Summary } from '../e2e/podemu';

/** A pod of index `index` whose broker was up at `up` (rank 0 listening, others connected at each of `connects`). */
function pod(index: number, name: string, up: number | null, connects: number[] = [], end: number | null = 40): PodRecord {
  return {
    index,
    pod: name,
    phase: 'Failed',
    times: { end },
    broker: { rank: String(index), first_seen: 1, listen: index === 0 ? up : null, connected_to_parent: index > 0 ? up : null, up, connects: index > 0 && up !== null ? [up, ...connects] : [] },
    containers: [],
  };
}

function summary(pods: PodRecord[], faultAt = 15): Summary {
  return {
    result: 'Interrupted', reason: null, wall_time_s: null, flux_instance_up_s: 20, pods,
    faults: [{ at: faultAt, fault: 'evict', index: 2, pod: 'c-2-aaaaa', outcome: 'pod Failed' }],
  };
}

const EVICT_2: FaultPlan = { evict: ['2@15'], outcome: 'recovers', boundSeconds: 30 };
const FIRST_PODS = [pod(0, 'c-0-aaaaa', 2), pod(1, 'c-1-aaaaa', 3), pod(2, 'c-2-aaaaa', 3), pod(3, 'c-3-aaaaa', 3)];

describe('faultOutcome', () => {
  test('GIVEN an evicted worker whose replacement connected 4 s later THEN recovery took 4 s, from the fault and not from the start', () => {
    const s = summary([...FIRST_PODS, pod(2, 'c-2-bbbbb', 19)]);
    expect(faultOutcome(EVICT_2, s)).toEqual({ seconds: 4, problems: [] });
  });

  test('GIVEN a lead replaced and workers that reconnected to it THEN recovery is their last connection', () => {
    const s = summary([pod(0, 'c-0-aaaaa', 2), pod(1, 'c-1-aaaaa', 3, [21.5]), pod(2, 'c-2-aaaaa', 3, [22]), pod(3, 'c-3-aaaaa', 3, [21]), pod(0, 'c-0-bbbbb', 17)]);
    expect(faultOutcome({ ...EVICT_2, evict: ['0@15'] }, s)).toEqual({ seconds: 7, problems: [] });
  });

  test('GIVEN a replacement whose broker never came up THEN the index is named and nothing is timed', () => {
    const s = summary([...FIRST_PODS, pod(2, 'c-2-bbbbb', null)]);
    expect(faultOutcome(EVICT_2, s)).toEqual({ seconds: null, problems: ['after the faults, the brokers of index 2 never came up'] });
  });

  test('GIVEN recovery slower than the bound THEN it is a problem', () => {
    const s = summary([...FIRST_PODS, pod(2, 'c-2-bbbbb', 50)]);
    expect(faultOutcome(EVICT_2, s).problems).toEqual(['recovery took 35.0 s after the fault, over its bound of 30 s']);
  });

  test('GIVEN a fault before every broker was up THEN the case says to move it, though a replacement came up later', () => {
    const s = summary([pod(0, 'c-0-aaaaa', 2), pod(1, 'c-1-aaaaa', 3), pod(2, 'c-2-aaaaa', null), pod(3, 'c-3-aaaaa', 16), pod(2, 'c-2-bbbbb', 17)]);
    expect(faultOutcome(EVICT_2, s).problems).toEqual(['the first fault (+15.0 s) came before every broker was up (never): give the case a later fault time']);
    expect(faultOutcome({ ...EVICT_2, afterBringUp: false }, s).problems).toEqual([]);
  });

  test('GIVEN a Job that must end THEN the time is to the last pod\'s end, and a pod that never ended is a problem', () => {
    const ends: FaultPlan = { crash: ['2@15'], outcome: 'ends', boundSeconds: 30 };
    expect(faultOutcome(ends, summary(FIRST_PODS.map((p, i) => ({ ...p, times: { end: 16 + i } }))))).toEqual({ seconds: 4, problems: [] });
    expect(faultOutcome(ends, summary([...FIRST_PODS.slice(1), { ...FIRST_PODS[0], times: { end: null } }])).problems).toEqual(['the Job ended with pods that never ended']);
  });

  test('GIVEN a fault podemu could not carry out THEN it says so', () => {
    const s = { ...summary(FIRST_PODS), faults: [{ at: 15, fault: 'evict' as const, index: 2, pod: null, outcome: 'no running pod of index 2' }] };
    expect(faultOutcome(EVICT_2, s)).toEqual({ seconds: null, problems: ['podemu carried out 0 of 1 faults: evict 2: no running pod of index 2'] });
  });
});

describe('faultsSettled', () => {
  const lines = (...l: string[]) => l.map((x) => `[  ${x}`).join('\n');
  test('GIVEN an eviction THEN the run is settled only once a new pod of that index has its broker up', () => {
    const before = lines('3.000] c-2-aaaaa: flux-broker (rank 2) connected to its parent', '15.000] fault: evict c-2-aaaaa (DisruptionTarget: EvictionByEvictionAPI, grace 30s)');
    expect(faultsSettled(EVICT_2, before)).toBe(false);
    expect(faultsSettled(EVICT_2, `${before}\n${lines('16.000] c-3-aaaaa: flux-broker (rank 3) connected to its parent')}`)).toBe(false);
    expect(faultsSettled(EVICT_2, `${before}\n${lines('16.500] c-2-bbbbb: flux-broker (rank 2) connected to its parent')}`)).toBe(true);
  });

  test('GIVEN a crash THEN the run is settled once it acted', () => {
    const plan: FaultPlan = { crash: ['1@15:flux-handshake'], outcome: 'ends', boundSeconds: 30 };
    expect(faultsSettled(plan, lines('3.000] c-1-aaaaa: flux-broker (rank 1) connected to its parent'))).toBe(false);
    expect(faultsSettled(plan, lines('15.000] fault: crash c-1-aaaaa/flux-handshake (SIGKILL of its PID 1, exit 137)'))).toBe(true);
  });
});

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

describe('node faults', () => {
  const lines = (...l: string[]) => l.map((x) => `[  ${x}`).join('\n');
  const onNode = (p: PodRecord, node: string, gone?: number): PodRecord => ({ ...p, node, times: { ...p.times, ...(gone !== undefined ? { gone } : {}) } });
  const LOST_DELETED: FaultPlan = { nodes: [{ index: 2, atSeconds: 15, kind: 'lose', then: 'delete', thenAfterSeconds: 60 }], outcome: 'recovers', boundSeconds: 90 };
  const lost = (actions: Array<{ action: string; at: number; outcome: string; bound: boolean }>) => ({
    at: 15, fault: 'lose' as const, index: 2, pod: 'c-2-aaaaa', node: 'kn2', podsOnNode: ['c-2-aaaaa'], outcome: 'lost', actions,
  });
  const pods = (replacementNode: string, gone?: number) => [
    onNode(pod(0, 'c-0-aaaaa', 2), 'kn0'), onNode(pod(1, 'c-1-aaaaa', 3), 'kn1'), onNode(pod(2, 'c-2-aaaaa', 3), 'kn2', gone), onNode(pod(3, 'c-3-aaaaa', 3), 'kn1'),
    onNode(pod(2, 'c-2-bbbbb', 100), replacementNode),
  ];

  test('GIVEN a lost node deleted 60 s later THEN recovery counts from the deletion, not from the loss', () => {
    const s: Summary = { ...summary(pods('kn1', 80)), faults: [lost([{ action: 'delete', at: 75, outcome: 'done: Node deleted', bound: true }])] };
    expect(faultOutcome(LOST_DELETED, s)).toEqual({ seconds: 25, problems: [] });
  });

  test('GIVEN the platform\'s action was never taken THEN it is named', () => {
    const s: Summary = { ...summary(pods('kn1', 80)), faults: [lost([])] };
    expect(faultOutcome(LOST_DELETED, s).problems).toContain("lose kn2: 'delete' 60 s after it was not carried out");
  });

  test('GIVEN the lost pod still in the API, and a replacement on the lost node THEN both are problems', () => {
    const s: Summary = { ...summary(pods('kn2')), faults: [lost([{ action: 'delete', at: 75, outcome: 'done: Node deleted', bound: true }])] };
    expect(faultOutcome(LOST_DELETED, s).problems).toEqual([
      'index 2: its replacement c-2-bbbbb ran on kn2 again, the node the fault took',
      'pod c-2-aaaaa on the lost node kn2 was still in the API at the end (deleted Node or out-of-service taint should have removed it)',
    ]);
  });

  test('GIVEN two live brokers of one rank seen at a poll, or a node not back after the run THEN each is a problem', () => {
    const s: Summary = { ...summary(pods('kn1', 80)), faults: [lost([{ action: 'delete', at: 75, outcome: 'done: Node deleted', bound: true }])], double_brokers: ['rank 2 had 2 live brokers at once: c-2-aaaaa on kn2, c-2-bbbbb on kn1'], node_cleanup: ['cleanup: node(s) kn2 not Ready 120 s after the run'] };
    expect(faultOutcome(LOST_DELETED, s).problems).toEqual(['rank 2 had 2 live brokers at once: c-2-aaaaa on kn2, c-2-bbbbb on kn1', 'cleanup: node(s) kn2 not Ready 120 s after the run']);
  });

  test('GIVEN a batch Job that ended while the lost pod stays Terminating on its node THEN the Job\'s end is timed without that pod', () => {
    const plan: FaultPlan = { nodes: [{ index: 2, atSeconds: 15, kind: 'lose' }], outcome: 'ends', boundSeconds: 120 };
    const ended = FIRST_PODS.map((p) => ({ ...p, times: { end: p.index === 2 ? null : 60 } }));
    expect(faultOutcome(plan, { ...summary(ended), faults: [lost([])] })).toEqual({ seconds: 45, problems: [] });
  });

  test('GIVEN a drain THEN the run is settled once the drained pod\'s index has a new broker up', () => {
    const plan: FaultPlan = { nodes: [{ index: 2, atSeconds: 15, kind: 'drain' }], outcome: 'recovers', boundSeconds: 60 };
    // (while the drain still evicts, its first pods on the timeline are not all it takes: the lead's
    // eviction came after the exec steps had started, on a real cluster)
    const started = lines('15.000] fault: drain kn2 (index 2, pod c-2-aaaaa)', '15.100] fault: node-pod c-2-aaaaa (on kn2, drain)');
    expect(faultsSettled(plan, `${started}\n${lines('20.000] c-2-bbbbb: flux-broker (rank 2) connected to its parent')}`)).toBe(false);
    const drained = `${started}\n${lines('15.200] fault: node-pod c-0-aaaaa (on kn2, drain)', '15.210] fault: drained kn2')}`;
    expect(faultsSettled(plan, drained)).toBe(false);
    expect(faultsSettled(plan, `${drained}\n${lines('20.000] c-2-bbbbb: flux-broker (rank 2) connected to its parent')}`)).toBe(false);
    expect(faultsSettled(plan, `${drained}\n${lines('20.000] c-2-bbbbb: flux-broker (rank 2) connected to its parent', '21.000] c-0-bbbbb: flux-broker (rank 0) listening')}`)).toBe(true);
  });

  test('GIVEN a lost node THEN the run is settled only after the platform\'s action and the replacement; with nobody acting, once it was lost', () => {
    const loss = lines('15.000] fault: lose kn2 (index 2, pod c-2-aaaaa)', '15.000] fault: node-pod c-2-aaaaa (on kn2, lose)');
    const replaced = lines('80.000] c-2-bbbbb: flux-broker (rank 2) connected to its parent');
    expect(faultsSettled(LOST_DELETED, `${loss}\n${replaced}`)).toBe(false);
    expect(faultsSettled(LOST_DELETED, `${loss}\n${lines('75.000] fault: node kn2 delete')}`)).toBe(false);
    expect(faultsSettled(LOST_DELETED, `${loss}\n${lines('75.000] fault: node kn2 delete')}\n${replaced}`)).toBe(true);
    expect(faultsSettled({ ...LOST_DELETED, nodes: [{ index: 2, atSeconds: 15, kind: 'lose' }] }, loss)).toBe(true);
  });
});

/** Flux's own phases on a real cluster: the lead broker's changes of state in its log, as bench:scale's table. */
import { fluxDurations, fluxPhaseCells } from '../bench/scale/flux-phases';
import { leadPhases } from '../e2e/kube/lead-phases';

// The lines of a real lead's `flux dmesg` (flux-core 0.88.0, 4 brokers), with others between them.
const LOG = [
  '2026-11-28T11:10:06.478697Z broker.info[0]: builtins-success: load-builtins->join 77.8326ms',
  '2026-11-28T11:10:06.478721Z broker.info[0]: parent-none: join->config-sync 0.012879ms',
  '2026-11-28T11:10:06.478734Z broker.info[0]: sync-none: config-sync->init 0.011106ms',
  '2026-11-28T11:10:06.827131Z job-manager.info[0]: restart: 0 jobs',
  '2026-11-28T11:10:06.869056Z broker.info[0]: rc1.0: flux modprobe rc1 Exited (rc=0) 0.4s',
  '2026-11-28T11:10:06.869127Z broker.info[0]: rc1-success: init->quorum 0.39039s',
  '2026-11-28T11:10:06.971909Z broker.info[0]: online: flux-scale-0 (ranks 0)',
  '2026-11-28T11:10:07.217961Z broker.info[0]: quorum-full: quorum->run 0.348826s',
  '2026-11-28T11:10:07.634036Z broker.info[0]: rc2-success: run->cleanup 0.416071s',
  '2026-11-28T11:10:07.634155Z broker.info[0]: cleanup-none: cleanup->shutdown 0.111225ms',
  '2026-11-28T11:10:07.760073Z broker.info[0]: children-complete: shutdown->finalize 0.125908s',
  '2026-11-28T11:10:08.089395Z broker.info[0]: rc3-success: finalize->goodbye 0.329314s',
  '2026-11-28T11:10:08.089541Z broker.info[0]: goodbye: goodbye->unload-builtins 0.140018ms',
].join('\n');

const t0 = Date.parse('2026-11-28T11:10:05.000Z');

test('GIVEN a lead\'s log WHEN read THEN each phase is dated by the change of state that ends it, in seconds from the first pod', () => {
  // WHEN
  const s = leadPhases(LOG, t0);
  // THEN
  expect(s).toEqual({ started: 1.48, rc1Done: 1.87, programStart: 2.22, programEnd: 2.63, childrenDone: 2.76, rc3Done: 3.09 });
});

test('GIVEN a worker\'s changes of state, a line of another module and a restarted lead WHEN read THEN only rank 0\'s broker counts, its first change of each kind', () => {
  // GIVEN rank 1's lines, a module that logs a look-alike, and the same change twice
  const log = [
    '2026-11-28T11:10:06.000000Z broker.info[1]: rc1-success: init->quorum 0.2s',
    '2026-11-28T11:10:06.100000Z job-manager.info[0]: note: init->quorum 0.1s',
    '2026-11-28T11:10:07.000000Z broker.info[0]: rc1-success: init->quorum 0.4s',
    '2026-11-28T11:10:09.000000Z broker.info[0]: rc1-success: init->quorum 0.3s',
  ].join('\n');
  // WHEN
  const s = leadPhases(log, t0);
  // THEN
  expect(s).toEqual({ rc1Done: 2 });
});

test('GIVEN no log WHEN read THEN no phase is dated', () => {
  expect(leadPhases('', t0)).toEqual({});
});

test('GIVEN a run\'s phases and its Job success WHEN turned into durations THEN each is the span between its two ends, and a phase missing an end has none', () => {
  // GIVEN the phases above, the Job successful at 6.5 s
  const full = fluxDurations({ lead_phases: leadPhases(LOG, t0), wall_time_s: 6.5 });
  // GIVEN a run whose log lost the children's shutdown, and one without a verdict
  const gap = fluxDurations({ lead_phases: { started: 1, rc1Done: 2, programStart: 3, programEnd: 4, rc3Done: 6 }, wall_time_s: null });
  // THEN
  expect(full).toEqual({ rc1: 0.39, waitForBrokers: 0.35, program: 0.41, childrenShutdown: 0.13, rc3: 0.33, toSuccess: 3.41 });
  expect(gap).toEqual({ rc1: 1, waitForBrokers: 1, program: 1, childrenShutdown: undefined, rc3: undefined, toSuccess: undefined });
});

test('GIVEN three runs WHEN the table\'s cells are made THEN each is the median of the runs that dated it, and a dash where none did', () => {
  // GIVEN
  const runs = [
    { rc1: 0.4, waitForBrokers: 1, program: 3, rc3: 0.5, toSuccess: 20 },
    { rc1: 0.6, waitForBrokers: 2, program: 5, rc3: 0.7, toSuccess: 30 },
    { rc1: 0.5, waitForBrokers: 9, program: 4 },
  ];
  // WHEN
  const cells = fluxPhaseCells(runs);
  // THEN
  expect(cells).toBe('0.50 | 2.00 | 4.00 | – | 0.60 | 25.00');
});

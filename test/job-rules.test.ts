/**
 * What the Job's rules do with the faults a cluster meets (docs/reliability.md), evaluated as the Job
 * controller evaluates podFailurePolicy: each row is a path the fault cases of `npm run e2e` take.
 */
import { Chart, Testing } from 'cdk8s';
import { MiniCluster } from '../lib';
import { STOPPED_EXIT_CODE } from '../lib/core/runner-exit-codes';
import { podFailureAction } from './support/pod-failure-policy';

function job(kubernetesVersion = '1.34'): any {
  const chart = new Chart(Testing.app(), 'test');
  new MiniCluster(chart, 'flux-sample', { size: 4, kubernetesVersion, containers: [{ image: 'ubuntu:noble', command: 'true' }] });
  return Testing.synth(chart).find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample');
}

describe('the Job rules on faults', () => {
  test.each([
    ['an evicted pod (the entrypoint exits 75 after SIGTERM)', 'Ignore', { exitCodes: { 'flux-sample': 75, 'flux-handshake': 0 }, conditions: ['DisruptionTarget'] }],
    ['an evicted pod whose broker was SIGKILLed at the grace period', 'Ignore', { exitCodes: { 'flux-sample': 137 }, conditions: ['DisruptionTarget'] }],
    ['a Flux container OOM-killed (137)', 'FailJob', { exitCodes: { 'flux-sample': 137 } }],
    ['a lead whose Flux job failed', 'FailJob', { exitCodes: { 'flux-sample': 1 } }],
    ['a pod deleted without an eviction (kubectl delete pod, or a Job suspended by Kueue)', 'Ignore', { exitCodes: { 'flux-sample': 75, 'flux-handshake': 0 } }],
    ['a pod of a Job suspended while its view was being copied', undefined, { exitCodes: { 'flux-view': 143 } }],
    ['a program whose tasks Flux cancelled (SIGTERM to the tasks)', 'FailJob', { exitCodes: { 'flux-sample': 143 } }],
    ['a handshake past its deadline', 'FailJob', { exitCodes: { 'flux-handshake': 81, 'flux-sample': 81 } }],
    ['an init container (the view copy) that failed', undefined, { exitCodes: { 'flux-view': 1 } }],
  ])('GIVEN %s THEN the action is %s', (_, action, pod) => {
    expect(podFailureAction(job(), pod)).toBe(action);
  });

  test('GIVEN an eviction THEN the replacement waits for the old pod to be terminal, and the failure is not counted', () => {
    const spec = job().spec;
    expect(spec.podReplacementPolicy).toBe('Failed');
    expect(spec.podFailurePolicy.rules[0]).toEqual({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] });
  });

  test('GIVEN a pod stopped from outside THEN the exit code the entrypoint keeps for it is the one the Job ignores, and nothing else is', () => {
    const rules = job().spec.podFailurePolicy.rules;
    expect(rules[1]).toEqual({ action: 'Ignore', onExitCodes: { containerName: 'flux-sample', operator: 'In', values: [STOPPED_EXIT_CODE] } });
    expect(rules.filter((r: any) => r.action === 'Ignore')).toHaveLength(2);
  });

  test('GIVEN failures no rule matched THEN 3 in all are retried, then the Job fails; no per-index limit holds a failed pod\'s finalizer', () => {
    const spec = job().spec;
    expect(spec.backoffLimit).toBe(3);
    // backoffLimitPerIndex keeps a failed pod's finalizer until its replacement exists, which a
    // namespace being deleted refuses: `kubectl delete namespace` hung (docs/reliability.md).
    expect(spec.backoffLimitPerIndex).toBeUndefined();
    expect(spec.maxFailedIndexes).toBeUndefined();
  });

  test('GIVEN a user\'s backoffLimit THEN it is kept', () => {
    const chart = new Chart(Testing.app(), 'test');
    new MiniCluster(chart, 'flux-sample', { size: 2, backoffLimit: 7, containers: [{ image: 'ubuntu:noble', command: 'true' }] });
    expect(Testing.synth(chart).find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample').spec.backoffLimit).toBe(7);
  });

  test('GIVEN a handshake failure THEN the Flux container exits with its code, which a rule of its own names before the catch-all', () => {
    const rules = job().spec.podFailurePolicy.rules;
    const handshake = rules.findIndex((r: any) => r.onExitCodes?.operator === 'In' && r.onExitCodes.values.includes(81));
    expect(rules[handshake].onExitCodes.containerName).toBe('flux-sample');
    expect(handshake).toBeGreaterThan(0);
    expect(handshake).toBeLessThan(rules.length - 1);
    expect(rules.at(-1).onExitCodes).toEqual({ containerName: 'flux-sample', operator: 'NotIn', values: [0] });
  });
});

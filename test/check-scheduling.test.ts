/** `check`'s reading of required pod (anti-)affinity terms: which ones select the pod itself. */
import { requiredSelfTerms, selectorMatches } from '../lib/cli/check/scheduling';

const labels = { 'flux-framework.org/minicluster': 'flux-sample', team: 'a' };
const own = { matchExpressions: [{ key: 'flux-framework.org/minicluster', operator: 'In', values: ['flux-sample'] }] };
const spec = (terms: object[]) => ({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: terms } } });

describe('required pod affinity terms that select the pod itself', () => {
  test('GIVEN label selectors THEN matchLabels and matchExpressions are both required', () => {
    expect(selectorMatches(own, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { team: 'a' }, matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { team: 'b' } }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: 'flux-framework.org/minicluster', operator: 'NotIn', values: ['flux-sample'] }] }, labels)).toBe(false);
    // a term without a selector selects no pod
    expect(selectorMatches(undefined, labels)).toBe(false);
  });

  test('GIVEN namespaces and namespace selectors THEN a term counts when it covers the pod\'s own namespace', () => {
    const keys = (term: object) => requiredSelfTerms('podAntiAffinity', spec([{ labelSelector: own, topologyKey: 'kubernetes.io/hostname', ...term }]), labels, 'hpc');
    // neither set: the pod's own namespace
    expect(keys({})).toEqual(['kubernetes.io/hostname']);
    expect(keys({ namespaces: ['hpc', 'other'] })).toEqual(['kubernetes.io/hostname']);
    expect(keys({ namespaces: ['other'] })).toEqual([]);
    // {} selects every namespace; another selector depends on the namespace's labels, which check does not hold
    expect(keys({ namespaceSelector: {} })).toEqual(['kubernetes.io/hostname']);
    expect(keys({ namespaces: ['other'], namespaceSelector: { matchLabels: { tier: 'hpc' } } })).toEqual([]);
    // another workload's pods
    expect(keys({ labelSelector: { matchLabels: { app: 'db' } } })).toEqual([]);
    // the other kind of term is not read
    expect(requiredSelfTerms('podAffinity', spec([{ labelSelector: own, topologyKey: 'kubernetes.io/hostname' }]), labels, 'hpc')).toEqual([]);
  });
});

/**
 * Props `placement`: each choice's pod affinity terms and topology spread constraint, valid for the
 * API server of every target; the default is the Flux Operator's soft rules, unchanged; and
 * `network.disableAffinity` means no rule, refused beside a choice that asks for one.
 */
import { Chart, Testing } from 'cdk8s';
import { BrokersPerNode, MiniCluster, MiniClusterProps, PlacementOptions, ZonePlacement } from '../lib';
import { validateManifests } from './support/k8s-validate';

const hello: MiniClusterProps = { size: 4, containers: [{ image: 'ubuntu:noble', command: 'hostname' }] };

function synth(props: Partial<MiniClusterProps>): { docs: any[]; pod: any } {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
  new MiniCluster(chart, 'flux-sample', { ...hello, ...props });
  const docs = Testing.synth(chart);
  const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample');
  return { docs, pod: job.spec.template.spec };
}

function errorOf(props: Partial<MiniClusterProps>): string {
  try {
    synth(props);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a validation error');
}

const labelSelector = { matchExpressions: [{ key: 'flux-framework.org/minicluster', operator: 'In', values: ['flux-sample'] }] };
const term = (topologyKey: string) => ({ labelSelector, topologyKey });
const preferred = (topologyKey: string) => ({ weight: 100, podAffinityTerm: term(topologyKey) });
const HOST = 'kubernetes.io/hostname';
const ZONE = 'topology.kubernetes.io/zone';

describe('placement', () => {
  test('GIVEN no placement THEN the pods get the operator\'s soft rules, and placement {} or the defaults spelled out write the same YAML', () => {
    // WHEN
    const { docs, pod } = synth({});
    // THEN one zone preferred, one pod per node preferred, nothing else
    expect(pod.affinity).toEqual({
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(ZONE)] },
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(HOST)] },
    });
    expect(pod.topologySpreadConstraints).toBeUndefined();
    // AND the same objects, key order included, from the defaults given explicitly
    const yaml = (d: any[]) => JSON.stringify(d);
    expect(yaml(synth({ placement: {} }).docs)).toBe(yaml(docs));
    expect(yaml(synth({ placement: { brokersPerNode: BrokersPerNode.ONE_PREFERRED, zones: ZonePlacement.SAME_PREFERRED } }).docs)).toBe(yaml(docs));
    expect(yaml(synth({ network: { disableAffinity: false } }).docs)).toBe(yaml(docs));
  });

  test.each<[BrokersPerNode, object | undefined]>([
    [BrokersPerNode.ONE_PREFERRED, { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(HOST)] } }],
    [BrokersPerNode.ONE_REQUIRED, { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(HOST)] } }],
    [BrokersPerNode.PACKED, { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(HOST)] } }],
    [BrokersPerNode.ANY, undefined],
  ])('GIVEN brokersPerNode %s (zones ANY) THEN the pods get its rule, and the API server takes it', (brokersPerNode, affinity) => {
    // WHEN
    const { docs, pod } = synth({ placement: { brokersPerNode, zones: ZonePlacement.ANY } });
    // THEN
    expect(pod.affinity).toEqual(affinity);
    expect(pod.topologySpreadConstraints).toBeUndefined();
    expect(validateManifests(docs)).toEqual([]);
  });

  test.each<[ZonePlacement, object | undefined, object[] | undefined]>([
    [ZonePlacement.SAME_PREFERRED, { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(ZONE)] } }, undefined],
    [ZonePlacement.SAME_REQUIRED, { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(ZONE)] } }, undefined],
    [ZonePlacement.SPREAD, undefined, [{
      maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'ScheduleAnyway', labelSelector, matchLabelKeys: ['batch.kubernetes.io/controller-uid'],
    }]],
    [ZonePlacement.ANY, undefined, undefined],
  ])('GIVEN zones %s (brokersPerNode ANY) THEN the pods get its rule, and the API server takes it', (zones, affinity, spread) => {
    // WHEN
    const { docs, pod } = synth({ placement: { brokersPerNode: BrokersPerNode.ANY, zones } });
    // THEN
    expect(pod.affinity).toEqual(affinity);
    expect(pod.topologySpreadConstraints).toEqual(spread);
    expect(validateManifests(docs)).toEqual([]);
  });

  test('GIVEN choices of both kinds and a node affinity THEN their rules sit side by side, zone terms first', () => {
    // WHEN packed in a preferred zone
    const packed = synth({ placement: { brokersPerNode: BrokersPerNode.PACKED }, pod: { nodeAffinity: { pool: ['hpc'] } } }).pod;
    // THEN both preferred affinity terms, and the node affinity untouched
    expect(packed.affinity).toEqual({
      podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(ZONE), preferred(HOST)] },
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['hpc'] }] }] } },
    });
    // WHEN one per node, required, spread over zones
    const spread = synth({ placement: { brokersPerNode: BrokersPerNode.ONE_REQUIRED, zones: ZonePlacement.SPREAD } }).pod;
    expect(spread.affinity).toEqual({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(HOST)] } });
    expect(spread.topologySpreadConstraints).toHaveLength(1);
    // WHEN both required
    const required = synth({ placement: { brokersPerNode: BrokersPerNode.PACKED, zones: ZonePlacement.SAME_REQUIRED } }).pod;
    expect(required.affinity.podAffinity).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: [term(ZONE)],
      preferredDuringSchedulingIgnoredDuringExecution: [preferred(HOST)],
    });
  });

  test('GIVEN every pair of choices THEN the output is valid for the oldest, the default and the newest target', () => {
    for (const brokersPerNode of Object.values(BrokersPerNode)) {
      for (const zones of Object.values(ZonePlacement)) {
        for (const kubernetesVersion of ['1.27', '1.34', '1.36']) {
          const { docs } = synth({ placement: { brokersPerNode, zones }, kubernetesVersion });
          expect([brokersPerNode, zones, kubernetesVersion, validateManifests(docs, { kubernetesVersion })]).toEqual([brokersPerNode, zones, kubernetesVersion, []]);
        }
      }
    }
  });

  test('GIVEN network.disableAffinity THEN no rule, as with both ANY, which it may be combined with', () => {
    const none = synth({ network: { disableAffinity: true } }).pod;
    expect(none.affinity).toBeUndefined();
    expect(none.topologySpreadConstraints).toBeUndefined();
    const both = synth({ network: { disableAffinity: true }, placement: { brokersPerNode: BrokersPerNode.ANY, zones: ZonePlacement.ANY } }).pod;
    expect(both).toEqual(none);
  });

  test('GIVEN network.disableAffinity and a placement that asks for a rule THEN one error names both properties, for each choice', () => {
    // WHEN
    const message = errorOf({ network: { disableAffinity: true }, placement: { brokersPerNode: BrokersPerNode.ONE_REQUIRED, zones: ZonePlacement.SPREAD } });
    // THEN
    expect(message).toMatch(/^invalid MiniCluster 'flux-sample' \(2 problems\):/);
    expect(message).toContain('- placement.brokersPerNode = "one-required": asks for a rule, but network.disableAffinity is true, which means no placement rule at all '
      + "(the Flux Operator's field): drop network.disableAffinity, or set brokersPerNode to BrokersPerNode.ANY");
    expect(message).toContain('- placement.zones = "spread": asks for a rule, but network.disableAffinity is true');
    // AND the defaults, unset, ask for nothing beside it
    expect(() => synth({ network: { disableAffinity: true }, placement: { zones: ZonePlacement.ANY } })).not.toThrow();
  });

  test('GIVEN a value outside the enums (from plain JavaScript) THEN it is named with the values allowed', () => {
    const message = errorOf({ placement: { brokersPerNode: 'two' as BrokersPerNode, zones: 'SPREAD' as ZonePlacement } as PlacementOptions });
    expect(message).toContain('- placement.brokersPerNode = "two": must be one of one-preferred, one-required, packed, any (BrokersPerNode)');
    expect(message).toContain('- placement.zones = "SPREAD": must be one of same-preferred, same-required, spread, any (ZonePlacement)');
  });
});

/**
 * OperatorConverter and MiniClusterDefaults: the jsii-visible forms (static members) of the
 * conversion functions and constants, which Python, Go, Java and .NET users call. Each must behave
 * exactly as the TypeScript function or constant it stands for.
 */
import { Chart, Testing } from 'cdk8s';
import {
  CRD_FIELDS, DEFAULT_FLUX_VIEW_IMAGE, DEFAULT_KUBERNETES_VERSION, DEFAULT_NODE_IMAGE, MIN_KUBERNETES_MINOR,
  MINICLUSTER_API_VERSION, MINICLUSTER_KIND, MiniCluster, MiniClusterDefaults, OperatorConverter, REMOVED_FIELDS,
  convertCustomResource, formatProblems, miniClusterFromCustomResource, problemLine, propsFromCustomResource,
} from '../../lib';

const hello = {
  apiVersion: 'flux-framework.org/v1alpha2',
  kind: 'MiniCluster',
  metadata: { name: 'flux-sample' },
  spec: { size: 4, logging: { quiet: true }, flux: { minimalService: true }, containers: [{ image: 'ubuntu:noble', command: 'echo hello world' }] },
};
const broken = { ...hello, spec: { ...hello.spec, size: 0, tasks: 'many' } };

function synth(build: (chart: Chart) => void): string {
  const chart = Testing.chart();
  build(chart);
  return JSON.stringify(Testing.synth(chart));
}

describe('OperatorConverter', () => {
  test('convert returns what convertCustomResource returns: props and warnings, or every problem, never throwing', () => {
    // WHEN
    const ok = OperatorConverter.convert(hello);
    const bad = OperatorConverter.convert(broken);
    // THEN
    expect(ok).toEqual(convertCustomResource(hello));
    expect(ok.converted?.props.size).toBe(4);
    expect(OperatorConverter.problemLines(ok.warnings)).toEqual([expect.stringMatching(/^spec\.flux\.minimalService = true: no effect: /)]);
    expect(bad).toEqual(convertCustomResource(broken));
    expect(bad.converted).toBeUndefined();
    expect(bad.problems.map((p) => p.path)).toEqual(['spec.tasks', 'spec.size']);
  });

  test('convert passes the options on', () => {
    const converted = OperatorConverter.convert(hello, { namespace: 'hpc', kubernetesVersion: '1.29', ttlSecondsAfterFinished: 60 }).converted;
    expect(converted?.namespace).toBe('hpc');
    expect(converted?.props).toMatchObject({ namespace: 'hpc', kubernetesVersion: '1.29', ttlSecondsAfterFinished: 60 });
  });

  test('toProps returns what propsFromCustomResource returns, warnings as lines, and throws the same error', () => {
    expect(OperatorConverter.toProps(hello, { namespace: 'hpc' })).toEqual(propsFromCustomResource(hello, { namespace: 'hpc' }));
    expect(OperatorConverter.toProps(hello).warnings).toEqual(OperatorConverter.problemLines(OperatorConverter.convert(hello).warnings));
    expect(() => OperatorConverter.toProps(broken)).toThrow(/^invalid MiniCluster resource 'flux-sample' \(2 problems\):\n {2}- spec\.tasks = "many": /);
  });

  test('toMiniCluster adds the same cluster as miniClusterFromCustomResource and MiniCluster.fromCustomResource', () => {
    // WHEN
    const viaConverter = synth((chart) => OperatorConverter.toMiniCluster(chart, 'flux-sample', hello, { kubernetesVersion: '1.30' }));
    // THEN
    expect(viaConverter).toBe(synth((chart) => miniClusterFromCustomResource(chart, 'flux-sample', hello, { kubernetesVersion: '1.30' })));
    expect(viaConverter).not.toBe(synth((chart) => MiniCluster.fromCustomResource(chart, 'flux-sample', hello)));
    expect(synth((chart) => OperatorConverter.toMiniCluster(chart, 'flux-sample', hello)))
      .toBe(synth((chart) => MiniCluster.fromCustomResource(chart, 'flux-sample', hello)));
    expect(() => OperatorConverter.toMiniCluster(Testing.chart(), 'flux-sample', broken)).toThrow(/spec\.tasks = "many"/);
  });

  test('the field tables and names are the constants, as copies a caller cannot change', () => {
    // WHEN
    const fields = OperatorConverter.crdFields();
    const removed = OperatorConverter.removedFields();
    fields.pop();
    delete removed['spec.users'];
    // THEN
    expect(OperatorConverter.crdFields()).toEqual(CRD_FIELDS);
    expect(OperatorConverter.removedFields()).toEqual(REMOVED_FIELDS);
    expect(OperatorConverter.API_VERSION).toBe(MINICLUSTER_API_VERSION);
    expect(OperatorConverter.KIND).toBe(MINICLUSTER_KIND);
  });

  test('formatProblems and problemLines word problems as the functions do', () => {
    const { problems } = OperatorConverter.convert(broken);
    expect(OperatorConverter.formatProblems('flux-sample', problems)).toBe(formatProblems('flux-sample', problems));
    expect(OperatorConverter.problemLines(problems)).toEqual(problems.map(problemLine));
    expect(OperatorConverter.problemLines([])).toEqual([]);
  });
});

describe('MiniClusterDefaults', () => {
  test('holds the default Kubernetes versions and images', () => {
    expect(MiniClusterDefaults.KUBERNETES_VERSION).toBe(DEFAULT_KUBERNETES_VERSION);
    expect(MiniClusterDefaults.MIN_KUBERNETES_MINOR).toBe(MIN_KUBERNETES_MINOR);
    expect(MiniClusterDefaults.FLUX_VIEW_IMAGE).toBe(DEFAULT_FLUX_VIEW_IMAGE);
    expect(MiniClusterDefaults.NODE_IMAGE).toBe(DEFAULT_NODE_IMAGE);
  });

  test('a cluster without kubernetesVersion or images uses them', () => {
    const containers = [{ image: 'ubuntu:noble', command: 'hostname' }];
    const plain = synth((chart) => new MiniCluster(chart, 'c', { containers }));
    expect(plain).toBe(synth((chart) => new MiniCluster(chart, 'c', { containers, kubernetesVersion: MiniClusterDefaults.KUBERNETES_VERSION })));
    expect(plain).toContain(JSON.stringify(MiniClusterDefaults.FLUX_VIEW_IMAGE));
    expect(plain).toContain(JSON.stringify(MiniClusterDefaults.NODE_IMAGE));
  });
});

import { OperatorConverter } from '../../lib';
import { cli, yamlDocuments } from '../operator/support/run-cli';

const ELASTIC = `apiVersion: flux-framework.org/v1alpha2
kind: MiniCluster
metadata:
  name: flux-elastic
spec:
  size: 1
  maxSize: 4
  interactive: true
  containers:
    - image: ubuntu:noble
`;

describe('the converter: autoscale', () => {
  test('the autoscale option gives an elastic resource the autoscaler', () => {
    const { props } = OperatorConverter.toProps(yamlDocuments(ELASTIC)[0], { autoscale: { idleSeconds: 30 } });
    expect(props.autoscale).toEqual({ idleSeconds: 30 });
  });

  test('synth --autoscale: the Job gets the sidecar, and the RBAC is written', () => {
    // WHEN the command converts the resource with --autoscale
    const run = cli(['synth', '-f', '-', '--stdout', '--autoscale', '--autoscale-idle-seconds', '45'], { input: ELASTIC });
    expect(run.stderr).toBe('');
    const docs = yamlDocuments(run.stdout);
    // THEN the Role may get and patch the one Job, and the sidecar has the idle time
    expect(docs.find((d) => d.kind === 'Role' && d.metadata.name === 'flux-elastic-autoscaler').rules)
      .toEqual([{ apiGroups: ['batch'], resources: ['jobs'], resourceNames: ['flux-elastic'], verbs: ['get', 'patch'] }]);
    const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'flux-elastic');
    const sidecar = job.spec.template.spec.initContainers.find((c: any) => c.name === 'flux-autoscaler');
    expect(sidecar.env).toContainEqual({ name: 'AUTOSCALE_IDLE_SECONDS', value: '45' });
  });

  test('synth --autoscale of a resource that is not elastic names the option and the rule; bad options are refused', () => {
    const run = cli(['synth', '-f', '-', '--stdout', '--autoscale'], { input: ELASTIC.replace('  maxSize: 4\n', '') });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('(option --autoscale) = "(set)": the cluster is not elastic: maxSize (1) must be above minSize or size (1)');
    const bad = cli(['synth', '-f', '-', '--stdout', '--autoscale-idle-seconds', 'soon'], { input: ELASTIC });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--autoscale-idle-seconds 'soon': must be a whole number of seconds");
    expect(bad.stderr).toContain('--autoscale-idle-seconds needs --autoscale');
  });
});

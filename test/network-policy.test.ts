import { Chart, Testing } from 'cdk8s';
import { MiniCluster, MiniClusterProps, NetworkPolicyOptions } from '../lib';
import { clusterPorts } from '../lib/constructs/private/network-policy';
import { expectValidManifests } from './support/k8s-validate';

/** Whether a LabelSelector (matchLabels and matchExpressions, as the API server evaluates them) selects `labels`. */
function selects(selector: any, labels: Record<string, string>): boolean {
  const matchLabels = Object.entries<string>(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const matchExpressions = (selector.matchExpressions ?? []).every((e: any) => {
    switch (e.operator) {
      case 'In': return e.key in labels && e.values.includes(labels[e.key]);
      case 'NotIn': return !(e.key in labels) || !e.values.includes(labels[e.key]);
      case 'Exists': return e.key in labels;
      case 'DoesNotExist': return !(e.key in labels);
      default: throw new Error(`unknown operator ${e.operator}`);
    }
  });
  return matchLabels && matchExpressions;
}

const props = (networkPolicy: NetworkPolicyOptions = {}): MiniClusterProps => ({
  size: 2, networkPolicy, containers: [{ image: 'ubuntu:noble', command: 'hostname' }],
});

/** Two MiniClusters in one namespace (one name a prefix of the other), each with a policy. */
function synthTwo(options: NetworkPolicyOptions = {}) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
  const a = new MiniCluster(chart, 'flux', props(options));
  const b = new MiniCluster(chart, 'flux-sample', props(options));
  const docs = Testing.synth(chart);
  const of = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name);
  return { docs, a, b, policyA: of('NetworkPolicy', 'flux'), policyB: of('NetworkPolicy', 'flux-sample'), podLabels: (name: string) => of('Job', name).spec.template.metadata.labels };
}

describe('NetworkPolicy', () => {
  test('off by default', () => {
    const chart = new Chart(Testing.app(), 'test');
    new MiniCluster(chart, 'flux', { containers: [{ image: 'ubuntu:noble' }] });
    expect(Testing.synth(chart).filter((d) => d.kind === 'NetworkPolicy')).toEqual([]);
  });

  test('its pod selector and peer selectors match exactly this cluster\'s pods, not another cluster\'s in the namespace, nor the certificate Job\'s', () => {
    // GIVEN two clusters in one namespace
    const { docs, policyA, policyB, podLabels } = synthTwo();
    const certPod = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'flux-curve-cert').spec.template.metadata.labels;
    for (const [policy, own, other] of [[policyA, 'flux', 'flux-sample'], [policyB, 'flux-sample', 'flux']] as const) {
      const selectors = [
        policy.spec.podSelector,
        ...policy.spec.ingress.flatMap((r: any) => r.from.map((p: any) => p.podSelector)),
        ...policy.spec.egress.filter((r: any) => r.to).flatMap((r: any) => r.to.map((p: any) => p.podSelector)),
      ];
      expect(selectors).toHaveLength(3);
      for (const s of selectors) {
        // THEN each selects its own cluster's pod template labels and nothing else
        expect(selects(s, podLabels(own))).toBe(true);
        expect(selects(s, podLabels(other))).toBe(false);
        expect(selects(s, certPod)).toBe(false);
      }
      // AND peers are pods of the policy's namespace only (no namespaceSelector, no ipBlock)
      for (const rule of [...policy.spec.ingress.flatMap((r: any) => r.from), ...policy.spec.egress.flatMap((r: any) => r.to ?? [])]) {
        expect(Object.keys(rule)).toEqual(['podSelector']);
      }
    }
    expect(policyA.metadata.namespace).toBe('hpc');
    expectValidManifests(docs);
    for (const version of ['1.27', '1.36']) expectValidManifests([policyA, policyB], { kubernetesVersion: version });
  });

  test('default: ingress only from the cluster\'s pods on any port; egress to them and DNS', () => {
    const { policyA } = synthTwo();
    expect(policyA.spec).toEqual({
      podSelector: { matchLabels: { 'flux-framework.org/minicluster': 'flux' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { 'flux-framework.org/minicluster': 'flux' } } }] }],
      egress: [
        { to: [{ podSelector: { matchLabels: { 'flux-framework.org/minicluster': 'flux' } } }] },
        { ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
      ],
    });
    expect(policyA.metadata.labels['app.kubernetes.io/instance']).toBe('flux');
  });

  test('fluxPortsOnly: the broker port and every port a container declares; allowAllEgress leaves egress open', () => {
    const chart = new Chart(Testing.app(), 'test');
    new MiniCluster(chart, 'flux', {
      network: { brokerPort: 9000 },
      networkPolicy: { fluxPortsOnly: true, allowAllEgress: true },
      containers: [{ image: 'a', runFlux: true }, { image: 'nginx', name: 'web', ports: [8080, 80] }],
    });
    const policy = Testing.synth(chart).find((d) => d.kind === 'NetworkPolicy');
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    expect(policy.spec.egress).toBeUndefined();
    expect(policy.spec.ingress).toEqual([{
      from: [{ podSelector: { matchLabels: { 'flux-framework.org/minicluster': 'flux' } } }],
      ports: [{ protocol: 'TCP', port: 80 }, { protocol: 'TCP', port: 8060 }, { protocol: 'TCP', port: 8080 }, { protocol: 'TCP', port: 9000 }],
    }]);
  });

  test('the port list covers ports a sidecar init container declares (the hosts handshake\'s)', () => {
    const pod = {
      initContainers: [{ name: 'handshake', image: 'node', restartPolicy: 'Always', ports: [{ containerPort: 8060, name: 'handshake' }] }],
      containers: [{ name: 'app', image: 'x', ports: [{ containerPort: 5000, protocol: 'UDP' }, { containerPort: 8050 }] }],
    };
    expect(clusterPorts(pod, 8050)).toEqual([{ protocol: 'UDP', port: 5000 }, { protocol: 'TCP', port: 8050 }, { protocol: 'TCP', port: 8060 }]);
  });

  test('with a hashed Job name, the policy follows the run: its name and selector are the Job\'s', () => {
    const chart = new Chart(Testing.app(), 'test');
    const cluster = new MiniCluster(chart, 'flux', { ...props(), gitOps: { hashJobName: true } });
    const docs = Testing.synth(chart);
    const policy = docs.find((d) => d.kind === 'NetworkPolicy');
    const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === cluster.jobName);
    expect(policy.metadata.name).toBe(cluster.jobName);
    expect(selects(policy.spec.podSelector, job.spec.template.metadata.labels)).toBe(true);
    expect(policy.spec.podSelector.matchLabels).toEqual(cluster.selector);
  });

  describe('the lead\'s way to the API server (the autoscaler patches its Job)', () => {
    const elastic = (networkPolicy: NetworkPolicyOptions): MiniClusterProps => ({
      size: 1, maxSize: 3, interactive: true, autoscale: {}, networkPolicy, containers: [{ image: 'ubuntu:noble' }],
    });
    const policies = (p: MiniClusterProps) => {
      const chart = new Chart(Testing.app(), 'test', { namespace: 'hpc' });
      new MiniCluster(chart, 'guarded', p);
      const docs = Testing.synth(chart);
      return { docs, job: docs.find((d) => d.kind === 'Job' && d.metadata.name === 'guarded'), all: docs.filter((d) => d.kind === 'NetworkPolicy') };
    };
    const leadLabels = (job: any) => ({ ...job.spec.template.metadata.labels, 'batch.kubernetes.io/job-completion-index': '0' });
    const workerLabels = (job: any) => ({ ...job.spec.template.metadata.labels, 'batch.kubernetes.io/job-completion-index': '1' });

    test('GIVEN autoscale and the default policy THEN the lead alone may reach any address on 443 and 6443, beside the cluster\'s own rules', () => {
      const { docs, job, all } = policies(elastic({}));
      const api = all.find((d) => d.metadata.name === 'guarded-apiserver');
      expect(api.spec).toEqual({
        podSelector: { matchLabels: { 'flux-framework.org/minicluster': 'guarded', 'batch.kubernetes.io/job-completion-index': '0' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }, { ipBlock: { cidr: '::/0' } }], ports: [{ protocol: 'TCP', port: 443 }, { protocol: 'TCP', port: 6443 }] }],
      });
      // THEN it selects the lead's pod, not a worker's, and the cluster policy still selects both
      expect(selects(api.spec.podSelector, leadLabels(job))).toBe(true);
      expect(selects(api.spec.podSelector, workerLabels(job))).toBe(false);
      const own = all.find((d) => d.metadata.name === 'guarded');
      expect(selects(own.spec.podSelector, leadLabels(job)) && selects(own.spec.podSelector, workerLabels(job))).toBe(true);
      expect(api.metadata.labels).toEqual(own.metadata.labels);
      expectValidManifests(docs);
    });

    test('GIVEN apiServerCidrs and apiServerPorts THEN the rule names only those', () => {
      const { all } = policies(elastic({ apiServerCidrs: ['10.87.0.1/32', 'fd00::1/128'], apiServerPorts: [6443] }));
      expect(all.find((d) => d.metadata.name === 'guarded-apiserver').spec.egress).toEqual([
        { to: [{ ipBlock: { cidr: '10.87.0.1/32' } }, { ipBlock: { cidr: 'fd00::1/128' } }], ports: [{ protocol: 'TCP', port: 6443 }] },
      ]);
    });

    test('GIVEN no autoscaler THEN there is no API rule, unless apiServerCidrs asks for one', () => {
      expect(policies(props()).all.map((d) => d.metadata.name)).toEqual(['guarded']);
      const asked = policies({ ...props({ apiServerCidrs: ['10.0.0.0/8'] }) }).all;
      expect(asked.map((d) => d.metadata.name).sort()).toEqual(['guarded', 'guarded-apiserver']);
    });

    test('GIVEN allowAllEgress THEN no API rule: an Egress policy would close the lead\'s open egress', () => {
      expect(policies(elastic({ allowAllEgress: true })).all.map((d) => d.metadata.name)).toEqual(['guarded']);
    });

    test('bad CIDRs and ports are named, all at once', () => {
      const error = (() => {
        try {
          policies(elastic({ apiServerCidrs: ['10.0.0.0/33', 'nonsense', '::1/129'], apiServerPorts: [0, 70000] }));
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      })();
      for (const bad of ['apiServerCidrs[0] = "10.0.0.0/33"', 'apiServerCidrs[1] = "nonsense"', 'apiServerCidrs[2] = "::1/129"', 'apiServerPorts[0] = 0', 'apiServerPorts[1] = 70000']) {
        expect(error).toContain(`networkPolicy.${bad}`);
      }
      expect(() => policies(elastic({ allowAllEgress: true, apiServerPorts: [443] }))).toThrow(/networkPolicy.allowAllEgress = true: leaves egress open already/);
      expect(() => policies(elastic({ apiServerCidrs: [] }))).toThrow(/networkPolicy.apiServerCidrs = \[\]: must list at least one CIDR/);
    });
  });
});

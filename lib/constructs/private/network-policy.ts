/** The NetworkPolicy that isolates one MiniCluster's pods. */
import type { PodSpec } from 'kubernetes-types-1.30/core/v1';
import type { NetworkPolicy, NetworkPolicyPort } from 'kubernetes-types-1.30/networking/v1';
import { NetworkPolicyOptions } from '../props/security';

/** Inputs of the policy. */
export interface NetworkPolicyInput {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** The labels that select exactly this cluster's pods. */
  readonly selector: Record<string, string>;
  /** The pods' spec: its declared container ports are Flux ports too. */
  readonly pod: PodSpec;
  readonly brokerPort: number;
  readonly options: NetworkPolicyOptions;
}

/**
 * The ports the cluster's pods serve each other: the broker port, which the runner does not declare,
 * and every port a container or init container (sidecar) of the pod declares. This is the one place
 * the list comes from: a sidecar that declares its containerPort (the hosts handshake) is covered.
 */
export function clusterPorts(pod: PodSpec, brokerPort: number): NetworkPolicyPort[] {
  const seen = new Map<string, NetworkPolicyPort>();
  const put = (protocol: string, port: number) => seen.set(`${protocol}/${port}`, { protocol, port });
  put('TCP', brokerPort);
  for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
    for (const p of c.ports ?? []) put(p.protocol ?? 'TCP', p.containerPort);
  }
  return [...seen.values()].sort((a, b) => (a.port as number) - (b.port as number) || (a.protocol! < b.protocol! ? -1 : 1));
}

/** The NetworkPolicy manifest. */
export function networkPolicyManifest(input: NetworkPolicyInput): NetworkPolicy {
  const o = input.options;
  const peers = [{ podSelector: { matchLabels: input.selector } }];
  const ports = o.fluxPortsOnly ? clusterPorts(input.pod, input.brokerPort) : undefined;
  const withPorts = <T extends object>(rule: T) => (ports ? { ...rule, ports } : rule);
  const restrictEgress = !(o.allowAllEgress ?? false);
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: input.name, namespace: input.namespace, labels: input.labels },
    spec: {
      podSelector: { matchLabels: input.selector },
      policyTypes: restrictEgress ? ['Ingress', 'Egress'] : ['Ingress'],
      // Only this cluster's pods, in this namespace (no namespaceSelector), reach its pods.
      ingress: [withPorts({ from: peers })],
      ...(restrictEgress ? {
        egress: [
          withPorts({ to: peers }),
          // DNS anywhere: kube-dns pods, NodeLocal DNSCache on a link-local host address, or a
          // resolver outside the cluster cannot all be matched by one selector.
          { ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
        ],
      } : {}),
    },
  };
}

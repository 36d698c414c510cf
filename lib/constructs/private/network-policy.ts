/** The NetworkPolicy that isolates one MiniCluster's pods. */
import type { PodSpec } from 'kubernetes-types-1.30/core/v1';
import type { NetworkPolicy, NetworkPolicyPort } from 'kubernetes-types-1.30/networking/v1';
import { COMPLETION_INDEX_LABEL } from '../../core/day2-contract';
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

/** The default API server ports: the `kubernetes` Service's own, and kubeadm's and k3s's endpoint port. */
export const DEFAULT_API_SERVER_PORTS = [443, 6443];

/**
 * The policy that lets the lead's pod (completion index 0) reach the API server, for clusters that
 * call it (the autoscaler): policies add up, so the lead gets this egress beside the cluster's own.
 */
export function apiServerPolicyManifest(input: Omit<NetworkPolicyInput, 'pod' | 'brokerPort'>): NetworkPolicy {
  const o = input.options;
  const cidrs = o.apiServerCidrs ?? ['0.0.0.0/0', '::/0'];
  const ports = (o.apiServerPorts ?? DEFAULT_API_SERVER_PORTS).map((port) => ({ protocol: 'TCP', port }));
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: `${input.name}-apiserver`, namespace: input.namespace, labels: input.labels },
    spec: {
      podSelector: { matchLabels: { ...input.selector, [COMPLETION_INDEX_LABEL]: '0' } },
      policyTypes: ['Egress'],
      egress: [{ to: cidrs.map((cidr) => ({ ipBlock: { cidr } })), ports }],
    },
  };
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

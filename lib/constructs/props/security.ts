/** Security props of a MiniCluster: the Pod Security Standards level and the NetworkPolicy. */

/**
 * A Pod Security Standards level (https://kubernetes.io/docs/concepts/security/pod-security-standards/).
 * The MiniCluster rejects props its pods could not meet at the level, and at RESTRICTED it also
 * hardens every container it emits.
 */
export enum PodSecurityLevel {
  /**
   * No checks: host namespaces, hostPath volumes, privileged containers and any capability are
   * allowed (for example a container that runs Singularity, or a hostPath scratch directory).
   */
  PRIVILEGED = 'privileged',
  /**
   * Rejects props that break the baseline level (host namespaces, privileged, capabilities outside
   * the baseline set, hostPath volumes, AppArmor overrides). The pods are emitted as configured.
   */
  BASELINE = 'baseline',
  /**
   * Baseline, plus every container (init, sidecar, application) runs as a non-root user with no
   * privilege escalation, all capabilities dropped, the RuntimeDefault seccomp profile and a
   * read-only root filesystem (writable emptyDir volumes for /tmp and Flux's paths).
   */
  RESTRICTED = 'restricted',
}

/**
 * A NetworkPolicy that isolates the cluster's pods: only they reach each other (the Flux broker
 * port included), and, unless egress is left open, they reach only each other and DNS.
 */
export interface NetworkPolicyOptions {
  /**
   * Limit traffic between the cluster's own pods to the Flux ports (the broker port, and every
   * port a container of the pod declares, such as a handshake sidecar's). Leave it off for MPI and
   * other programs whose ranks open ports of their own between pods.
   * @default false - the cluster's pods reach each other on every port
   */
  readonly fluxPortsOnly?: boolean;
  /**
   * Let the pods open connections anywhere. When false, their egress is limited to the cluster's
   * own pods and DNS (port 53, UDP and TCP).
   * @default false - egress is restricted
   */
  readonly allowAllEgress?: boolean;
  /**
   * Where the lead may reach the Kubernetes API server when the cluster calls it (the autoscaler
   * patches its Job): CIDRs of the API server's endpoints. Most policy engines see a connection to
   * the `kubernetes` Service after it was rewritten to an endpoint, so the rule names the endpoints'
   * addresses and ports, not the Service's ClusterIP. Only the lead's pod (completion index 0) gets
   * the rule, in a NetworkPolicy of its own, `<job>-apiserver`.
   * @default - any address (0.0.0.0/0 and ::/0), on apiServerPorts, with autoscale; nothing otherwise
   */
  readonly apiServerCidrs?: string[];
  /**
   * The API server endpoints' TCP ports, for apiServerCidrs.
   * @default [443, 6443] - the Service's port and the usual endpoint port (kubeadm, k3s)
   */
  readonly apiServerPorts?: number[];
}

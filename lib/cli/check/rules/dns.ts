/** Cluster DNS: the brokers find each other by the headless Service's names. */
import { cannotTell, Rule } from './context';

export const CLUSTER_DNS: Rule = {
  id: 'cluster-dns',
  checks: 'cluster DNS is installed: the kube-dns Service in kube-system (the name CoreDNS has on kubeadm, EKS, GKE and AKS)',
  run: (ctx) => {
    const dns = ctx.facts.dns;
    if (!dns.ok) return [cannotTell('cluster-dns', 'whether cluster DNS is installed (get services kube-dns in kube-system)', dns.why, 'Service/kube-dns', 'kube-system')];
    if (dns.value) return [];
    return [{ rule: 'cluster-dns', severity: 'error', object: 'Service/kube-dns', namespace: 'kube-system',
      message: "does not exist: no cluster DNS, so the brokers' names (<pod>.<service>.<namespace>.svc) never resolve and the hosts handshake times out",
      fix: 'install CoreDNS with its Service kube-dns in kube-system (kubeadm and managed clusters do), or name the Service your DNS has kube-dns' }];
  },
};

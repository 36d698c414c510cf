/** Labels every MiniCluster object carries. */

/** The pod label that selects exactly one MiniCluster's pods (Service, affinity, NetworkPolicy). */
export const CLUSTER_LABEL = 'flux-framework.org/minicluster';

/** Standard labels of an object of the cluster, for `kubectl get/delete -l`. */
export function commonLabels(clusterName: string, component: string): Record<string, string> {
  return {
    'app.kubernetes.io/component': component,
    'app.kubernetes.io/instance': clusterName,
    'app.kubernetes.io/managed-by': 'cdk8s-minicluster',
    'app.kubernetes.io/name': 'minicluster',
  };
}

/** Labels of the pods: the common ones, the selector label and the user's. */
export function podLabels(clusterName: string, user: Record<string, string> = {}): Record<string, string> {
  return sortKeys({ ...user, ...commonLabels(clusterName, 'broker'), [CLUSTER_LABEL]: clusterName });
}

/** A copy of `obj` with keys in sorted order (deterministic YAML whatever the input order). */
export function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

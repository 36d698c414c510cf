/** Builds a MiniCluster construct from a Flux Operator MiniCluster resource. */
import { ApiObject, ApiObjectProps } from 'cdk8s';
import { Construct } from 'constructs';
import { curveCertLabels, curveCertSecret } from '../cert';
import { MiniCluster } from '../constructs/mini-cluster';
import { ConvertedMiniCluster, CustomResourceOptions, propsFromCustomResource } from './to-props';

/**
 * The MiniCluster of a `flux-framework.org/v1alpha2` MiniCluster resource (as parsed YAML): the same
 * cluster as `new MiniCluster(scope, id, propsFromCustomResource(resource).props)`, plus the Secret
 * of an inline `flux.curveCert`. Throws one error listing every problem of the resource.
 */
export function miniClusterFromCustomResource(scope: Construct, id: string, resource: unknown, options: CustomResourceOptions = {}): MiniCluster {
  return miniClusterFromConverted(scope, id, propsFromCustomResource(resource, options));
}

/** The MiniCluster of an already converted resource. */
export function miniClusterFromConverted(scope: Construct, id: string, converted: ConvertedMiniCluster): MiniCluster {
  const cluster = new MiniCluster(scope, id, converted.props);
  if (converted.inlineCertificate !== undefined) {
    // Interim until CertificateSource.insecureInline exists: the props name this Secret.
    new ApiObject(cluster, 'InlineCurveCert', curveCertSecret({
      secretName: cluster.certificateSecretName,
      namespace: cluster.namespace,
      labels: curveCertLabels(cluster.jobName),
      certificate: converted.inlineCertificate,
    }) as unknown as ApiObjectProps);
  }
  return cluster;
}

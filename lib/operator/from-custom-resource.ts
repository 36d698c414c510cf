/** Builds a MiniCluster construct from a Flux Operator MiniCluster resource. */
import { Construct } from 'constructs';
import { MiniCluster } from '../constructs/mini-cluster';
import { ConvertedMiniCluster, CustomResourceOptions, propsFromCustomResource } from './to-props';

/**
 * The MiniCluster of a `flux-framework.org/v1alpha2` MiniCluster resource (as parsed YAML): the same
 * cluster as `new MiniCluster(scope, id, propsFromCustomResource(resource).props)`. An inline
 * `flux.curveCert` becomes CertificateSource.insecureInline. Throws one error listing every problem.
 * @jsii ignore other languages: OperatorConverter.toMiniCluster (jsii publishes no free functions)
 */
export function miniClusterFromCustomResource(scope: Construct, id: string, resource: unknown, options: CustomResourceOptions = {}): MiniCluster {
  return miniClusterFromConverted(scope, id, propsFromCustomResource(resource, options));
}

/** The MiniCluster of an already converted resource. */
export function miniClusterFromConverted(scope: Construct, id: string, converted: ConvertedMiniCluster): MiniCluster {
  return new MiniCluster(scope, id, converted.props);
}

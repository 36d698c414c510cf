/**
 * The conversion of Flux Operator MiniCluster resources as static methods of one class, so that
 * Python, Go, Java and .NET users (through jsii, which publishes classes but not free functions or
 * constants) have all of it, warnings included.
 */
import { Construct } from 'constructs';
import { MiniCluster } from '../constructs/mini-cluster';
import { CRD_FIELDS, CrdField, MINICLUSTER_API_VERSION, MINICLUSTER_KIND, REMOVED_FIELDS } from './crd-fields';
import { miniClusterFromCustomResource } from './from-custom-resource';
import { Problem, formatProblems, problemLine } from './problems';
import {
  ConvertedMiniCluster, CustomResourceConversion, CustomResourceOptions, convertCustomResource, propsFromCustomResource,
} from './to-props';

/**
 * Converts Flux Operator MiniCluster resources (`flux-framework.org/v1alpha2`, as parsed YAML or
 * JSON: a dict in Python, a map in Go and Java) into MiniCluster props or constructs.
 *
 * Every field is mapped, rejected or warned about (`crdFields()`); problems and warnings carry the
 * field path. TypeScript also has these as functions (`convertCustomResource`,
 * `propsFromCustomResource`, `miniClusterFromCustomResource`, `formatProblems`, `problemLine`) and
 * constants (`CRD_FIELDS`, `REMOVED_FIELDS`, `MINICLUSTER_API_VERSION`, `MINICLUSTER_KIND`).
 *
 * @example
 * const conversion = OperatorConverter.convert(resource);
 * OperatorConverter.problemLines(conversion.warnings).forEach((line) => console.log(line));
 * if (conversion.converted) new MiniCluster(chart, 'flux-sample', conversion.converted.props);
 */
export class OperatorConverter {
  /** The only apiVersion converted: `flux-framework.org/v1alpha2`. */
  public static readonly API_VERSION: string = MINICLUSTER_API_VERSION;

  /** The kind converted: `MiniCluster`. */
  public static readonly KIND: string = MINICLUSTER_KIND;

  /**
   * Converts a resource into props, returning every problem and warning instead of throwing.
   *
   * `converted` is set when there are no problems.
   * @param resource a parsed `flux-framework.org/v1alpha2` MiniCluster
   * @param options what the resource cannot say about itself
   */
  public static convert(resource: any, options: CustomResourceOptions = {}): CustomResourceConversion {
    return convertCustomResource(resource, options);
  }

  /**
   * Converts a resource into props and its warnings; throws one error listing every problem.
   * @param resource a parsed `flux-framework.org/v1alpha2` MiniCluster
   * @param options what the resource cannot say about itself
   */
  public static toProps(resource: any, options: CustomResourceOptions = {}): ConvertedMiniCluster {
    return propsFromCustomResource(resource, options);
  }

  /**
   * Adds the MiniCluster of a resource to `scope`; throws one error listing every problem.
   *
   * The same cluster as `new MiniCluster(scope, id, OperatorConverter.toProps(resource).props)`;
   * an inline `flux.curveCert` becomes `CertificateSource.insecureInline`.
   * @param scope the chart (or construct) to add the MiniCluster to
   * @param id the construct id
   * @param resource a parsed `flux-framework.org/v1alpha2` MiniCluster
   * @param options what the resource cannot say about itself
   */
  public static toMiniCluster(scope: Construct, id: string, resource: any, options: CustomResourceOptions = {}): MiniCluster {
    return miniClusterFromCustomResource(scope, id, resource, options);
  }

  /** Every field of the MiniCluster v1alpha2 schema with the converter's decision, in schema order. */
  public static crdFields(): CrdField[] {
    return [...CRD_FIELDS];
  }

  /** Fields that v1alpha2 removed or renamed (path to what to do instead). */
  public static removedFields(): { [path: string]: string } {
    return { ...REMOVED_FIELDS };
  }

  /**
   * All problems as one message, as the thrown errors word them.
   * @param resourceName the resource's `metadata.name`, to name it in the message
   * @param problems the problems of a conversion
   */
  public static formatProblems(resourceName: string, problems: Problem[]): string {
    return formatProblems(resourceName, problems);
  }

  /**
   * Problems or warnings as lines of `path = value: rule`.
   *
   * Takes a list (in Python a struct argument would have to be spelled out as keyword arguments).
   * @param problems the problems or warnings of a conversion
   */
  public static problemLines(problems: Problem[]): string[] {
    return problems.map(problemLine);
  }

  private constructor() {}
}

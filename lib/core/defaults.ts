import { DEFAULT_FLUX_VIEW_IMAGE, DEFAULT_NODE_IMAGE } from './images';
import { DEFAULT_KUBERNETES_VERSION, MIN_KUBERNETES_MINOR } from './kubernetes-version';

/**
 * The library's default images and Kubernetes versions, as constants for every language.
 *
 * jsii publishes static class members but not module constants, so Python, Go, Java and .NET read
 * them here; TypeScript also has `DEFAULT_KUBERNETES_VERSION`, `MIN_KUBERNETES_MINOR`,
 * `DEFAULT_FLUX_VIEW_IMAGE` and `DEFAULT_NODE_IMAGE`.
 */
export class MiniClusterDefaults {
  /** The Kubernetes version targeted when `kubernetesVersion` is not set (`1.35`). */
  public static readonly KUBERNETES_VERSION: string = DEFAULT_KUBERNETES_VERSION;

  /** The oldest Kubernetes minor version that can be targeted (27, i.e. 1.27). */
  public static readonly MIN_KUBERNETES_MINOR: number = MIN_KUBERNETES_MINOR;

  /** The Flux view image (flux-core and flux-sched), as in the Flux Operator. */
  public static readonly FLUX_VIEW_IMAGE: string = DEFAULT_FLUX_VIEW_IMAGE;

  /** The stock Node.js image that runs the handshake sidecar and the certificate Job. */
  public static readonly NODE_IMAGE: string = DEFAULT_NODE_IMAGE;

  private constructor() {}
}

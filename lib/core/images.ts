/**
 * Default container images. Every one is a prop of the construct that uses it, so users can pin
 * a digest (`name@sha256:…`) or point at a mirror.
 */

/**
 * Stock Node.js image that runs the bundled runtime programs (certificate job, handshake sidecar).
 * @jsii ignore other languages: MiniClusterDefaults.NODE_IMAGE (jsii publishes no module constants)
 */
export const DEFAULT_NODE_IMAGE = 'docker.io/library/node:22.11.0-alpine3.20';

/**
 * The Flux view image the Flux Operator uses by default (Spack view of flux-core and flux-sched).
 * @jsii ignore other languages: MiniClusterDefaults.FLUX_VIEW_IMAGE
 */
export const DEFAULT_FLUX_VIEW_IMAGE = 'ghcr.io/converged-computing/flux-view-ubuntu:tag-noble';

/**
 * Whether `reference` is one of the flux view images converged-computing/flux-views publishes (any
 * tag or digest), whose layout (opt/software, and opt/views/view with bin/flux) the view's image
 * volume mounts are made for. Their pods need no init container to check the layout.
 */
export function isFluxViewsImage(reference: string): boolean {
  return /^ghcr\.io\/converged-computing\/flux-view-[a-z0-9]+(?:[._-][a-z0-9]+)*(?:[:@]|$)/.test(reference);
}

export * from './constructs/mini-cluster';
export * from './constructs/mini-cluster-props';
export * from './constructs/flux-broker-config';
export * from './constructs/certificate';
export * from './constructs/props/container';
export * from './constructs/props/flux';
export * from './constructs/props/pod';
export { DEFAULT_KUBERNETES_VERSION, MIN_KUBERNETES_MINOR } from './core/kubernetes-version';
export { DEFAULT_FLUX_VIEW_IMAGE, DEFAULT_NODE_IMAGE } from './core/images';

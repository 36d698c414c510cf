/**
 * The parts of the official Kubernetes client (@kubernetes/client-node) the day-2 commands use.
 * The build (tools/bundle-runtime.js) replaces this file's output with one bundled file, so the
 * package ships about 1.6 MB of client instead of the client's 67 MB of dependencies; kube.ts
 * requires it only when a day-2 command runs.
 */
export { BatchV1Api, CoreV1Api, CustomObjectsApi, Exec, KubeConfig, Log, PatchStrategy, VersionApi, Watch, setHeaderOptions } from '@kubernetes/client-node';

/**
 * References to objects a MiniCluster uses by name. Each is an interface with just `name`, so any
 * object that has one fits structurally: the cdk8s-plus `Secret`, `ConfigMap`,
 * `PersistentVolumeClaim` and `ServiceAccount` of every cdk8s-plus-2x version (their `name` is that
 * of the object they synthesize, including `Secret.fromSecretName(...)` and the like), a cdk8s
 * `ApiObject`, or a literal `{ name: 'my-secret' }`. No cdk8s-plus version is a dependency.
 *
 * Why separate props, not `string | ISecretReference` in the existing ones: the name props keep
 * working as they are, and a union in a prop does not translate to jsii's other languages. Setting a
 * reference and its name prop to different names is an error.
 */

/** A Secret, by its `name` (a cdk8s-plus `Secret` or `ISecret` fits). */
export interface ISecretReference {
  /** Name of the Secret. */
  readonly name: string;
}

/** A ConfigMap, by its `name` (a cdk8s-plus `ConfigMap` or `IConfigMap` fits). */
export interface IConfigMapReference {
  /** Name of the ConfigMap. */
  readonly name: string;
}

/** A PersistentVolumeClaim, by its `name` (a cdk8s-plus `PersistentVolumeClaim` fits). */
export interface IPersistentVolumeClaimReference {
  /** Name of the PersistentVolumeClaim. */
  readonly name: string;
}

/** A ServiceAccount, by its `name` (a cdk8s-plus `ServiceAccount` or `IServiceAccount` fits). */
export interface IServiceAccountReference {
  /** Name of the ServiceAccount. */
  readonly name: string;
}

/** Conversion of Flux Operator MiniCluster resources (flux-framework.org/v1alpha2) to MiniClusters. */
export { CRD_FIELDS, FieldDecision, FieldType, MINICLUSTER_API_VERSION, MINICLUSTER_KIND, REMOVED_FIELDS } from './crd-fields';
export type { CrdField } from './crd-fields';
export { convertCustomResource, propsFromCustomResource } from './to-props';
export type { ConvertedMiniCluster, CustomResourceConversion, CustomResourceOptions } from './to-props';
export { miniClusterFromCustomResource } from './from-custom-resource';
export { formatProblems, problemLine } from './problems';
export type { PathSegment, Problem } from './problems';
export { OperatorConverter } from './converter';

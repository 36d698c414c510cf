/**
 * CURVE certificates for Flux brokers: key pairs, Z85, and the certificate file that flux-core
 * accepts (writer and validating parser). Node built-ins only, so runtime programs can bundle it.
 */
export { Z85_ALPHABET, z85Decode, z85Encode, z85Problem } from './z85';
export { CURVE_KEY_BYTES, curveKeyPairFromSecret, curvePublicKey, generateCurveKeyPair } from './keypair';
export type { CurveKeyPair } from './keypair';
export { CERT_LINE_BUFFER_BYTES, CURVE_KEY_TEXT_LENGTH } from './format-rules';
export { CurveCertError, curveCertProblems, parseCurveCert } from './parse';
export type { ParseCurveCertOptions, ParsedCurveCert } from './parse';
export { curveCertMetadataProblems, formatCurveCert } from './write';
export type { CurveCertMetadata } from './write';
export { createCurveCert } from './create';
export type { CreateCurveCertOptions } from './create';
export { curveCertLabels, curveCertSecret } from './secret-manifest';
export type { CurveCertSecretOptions } from './secret-manifest';

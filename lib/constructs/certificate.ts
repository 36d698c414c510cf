import { defaultCertificateSecretName } from '../core/certificate-contract';

/** Where a MiniCluster's CURVE certificate comes from. */
export enum CertificateSourceKind {
  /** A Secret that already exists or that something else creates (SealedSecrets, SOPS, External Secrets). */
  EXISTING_SECRET = 'existing-secret',
}

/**
 * The CURVE certificate every broker loads. The pods mount it from a Secret read-only and copy it
 * to a private 0600 file; until the Secret exists they wait in ContainerCreating.
 */
export class CertificateSource {
  /**
   * Use a Secret created outside this chart; it must hold the certificate under key `curve.cert`.
   * @param secretName the Secret's name (default `<cluster>-curve`)
   */
  public static fromExistingSecret(secretName?: string): CertificateSource {
    return new CertificateSource(CertificateSourceKind.EXISTING_SECRET, secretName);
  }

  private constructor(
    /** The kind of source. */
    public readonly kind: CertificateSourceKind,
    private readonly explicitSecretName?: string,
  ) {}

  /** The Secret the pods mount, for a cluster named `clusterName`. */
  public secretNameFor(clusterName: string): string {
    return this.explicitSecretName ?? defaultCertificateSecretName(clusterName);
  }
}

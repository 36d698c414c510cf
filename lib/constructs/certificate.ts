import { defaultCertificateSecretName } from '../core/certificate-contract';
import { ISecretReference } from './props/references';

/** Where a MiniCluster's CURVE certificate comes from. */
export enum CertificateSourceKind {
  /** A one-off Job generates it inside the cluster into a Secret, once (CurveCertJob). */
  GENERATED_IN_CLUSTER = 'generated-in-cluster',
  /** A Secret that already exists or that something else creates (SealedSecrets, SOPS, External Secrets). */
  EXISTING_SECRET = 'existing-secret',
  /** The certificate text is written into a Secret in the synthesized YAML: the private key is in git. */
  INSECURE_INLINE = 'insecure-inline',
}

/** Options of an in-cluster generated certificate. */
export interface GeneratedCertificateOptions {
  /** Image that runs the certificate program with node. @default DEFAULT_NODE_IMAGE */
  readonly image?: string;
  /** Delete the finished certificate Job after this many seconds (the Secret stays). @default - kept */
  readonly ttlSecondsAfterFinished?: number;
  /** Name of the Secret the Job creates. @default - the MiniCluster's `<name>-curve` */
  readonly secretName?: string;
}

/**
 * The CURVE certificate every broker loads. The pods mount it from a Secret read-only (0400) and
 * copy it to a private 0600 file; until the Secret exists they wait in ContainerCreating.
 */
export class CertificateSource {
  /**
   * Generate the certificate inside the cluster, at apply time, with a one-off Job (the default).
   * No private key is in the synthesized YAML, and re-applying never rotates it.
   */
  public static generatedInCluster(options: GeneratedCertificateOptions = {}): CertificateSource {
    return new CertificateSource(CertificateSourceKind.GENERATED_IN_CLUSTER, options.secretName, undefined, options);
  }

  /**
   * Use a Secret created outside this chart; it must hold the certificate under key `curve.cert`
   * (`npx cdk8s-minicluster cert --secret NAME` writes one).
   * @param secretName the Secret's name (default `<cluster>-curve`)
   */
  public static fromExistingSecret(secretName?: string): CertificateSource {
    return new CertificateSource(CertificateSourceKind.EXISTING_SECRET, secretName);
  }

  /**
   * Use a Secret created outside this chart, as an object: a cdk8s-plus `Secret` of any version
   * fits (for example one whose data a SealedSecret or External Secret fills). As fromExistingSecret.
   * @param secret the Secret; only its `name` is used
   */
  public static fromSecret(secret: ISecretReference): CertificateSource {
    if (typeof secret?.name !== 'string') {
      throw new Error(`CertificateSource.fromSecret: secret.name = ${JSON.stringify(secret?.name)}: must be the Secret's name (a string)`);
    }
    return CertificateSource.fromExistingSecret(secret.name);
  }

  /**
   * INSECURE: write this certificate text into a Secret of the synthesized YAML, so the private key
   * ends up wherever the YAML goes (git, CI logs). For throwaway clusters and tests.
   * @param certificate a CURVE certificate (`npx cdk8s-minicluster cert` prints one)
   * @param secretName the Secret's name (default `<cluster>-curve`)
   */
  public static insecureInline(certificate: string, secretName?: string): CertificateSource {
    return new CertificateSource(CertificateSourceKind.INSECURE_INLINE, secretName, certificate);
  }

  private constructor(
    /** The kind of source. */
    public readonly kind: CertificateSourceKind,
    private readonly explicitSecretName?: string,
    /** The inline certificate text (INSECURE_INLINE only). */
    public readonly inlineCertificate?: string,
    /** Options of the generator Job (GENERATED_IN_CLUSTER only). */
    public readonly generated?: GeneratedCertificateOptions,
  ) {}

  /** The Secret the pods mount, for a cluster named `clusterName`. */
  public secretNameFor(clusterName: string): string {
    return this.explicitSecretName ?? defaultCertificateSecretName(clusterName);
  }
}

/** Validation of the production props (security level, GitOps, Kueue, image references), reported with the others. */
import { imageReferenceError } from '../../core/image-reference';
import { CertificateSourceKind } from '../certificate';
import { MiniClusterProps } from '../mini-cluster-props';
import { gitOpsViolations } from './gitops';
import { podSecurityViolations } from './pod-security';
import type { ValidationContext, Violation } from './validate-mini-cluster-props';

/** Every problem of the production props. */
export function hardeningViolations(props: MiniClusterProps, ctx: ValidationContext): Violation[] {
  return [...podSecurityViolations(props), ...gitOpsViolations(props, ctx.name), ...imageViolations(props)];
}

/** Image references, including pins by digest; blank or spaced images are reported by the container rules. */
function imageViolations(props: MiniClusterProps): Violation[] {
  const images: [string, unknown][] = [
    ...(Array.isArray(props.containers) ? props.containers : []).map((c, i): [string, unknown] => [`containers[${i}].image`, c?.image]),
    ['flux.container.image', props.flux?.container?.image],
    ['handshake.image', props.handshake?.image],
    ['autoscale.image', props.autoscale?.image],
  ];
  if (props.certificate?.kind === CertificateSourceKind.GENERATED_IN_CLUSTER) images.push(['certificate.image', props.certificate.generated?.image]);
  const out: Violation[] = [];
  for (const [path, image] of images) {
    if (typeof image !== 'string' || image.trim() === '' || /\s/.test(image)) continue;
    const e = imageReferenceError(image);
    if (e) out.push({ path, value: image, rule: e });
  }
  return out;
}

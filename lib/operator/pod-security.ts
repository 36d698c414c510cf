/**
 * The Flux Operator enforces no Pod Security level, so a resource may use host namespaces, hostPath
 * volumes or privileged containers. Such a resource converts at PodSecurityLevel.PRIVILEGED (the
 * operator's behaviour), with a warning for each reason; every other resource keeps the default,
 * baseline, and its checks.
 */
import { MiniClusterProps } from '../constructs/mini-cluster-props';
import { podSecurityFindings } from '../constructs/private/pod-security';
import { PodSecurityLevel } from '../constructs/props/security';

/** `props` at the level the resource needs, and a note (prop path, value, text) for each reason. */
export function operatorPodSecurity(props: MiniClusterProps, warn: (propPath: string, value: unknown, note: string) => void): MiniClusterProps {
  const findings = podSecurityFindings(props, PodSecurityLevel.BASELINE);
  for (const f of findings) {
    warn(f.path, f.value, `${f.what} at the default Pod Security level, baseline (${f.control}): converted with podSecurity: PodSecurityLevel.PRIVILEGED, as the operator enforces no level`);
  }
  return findings.length > 0 ? { ...props, podSecurity: PodSecurityLevel.PRIVILEGED } : props;
}

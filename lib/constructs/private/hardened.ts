/** The securityContext of the containers that run this library's own programs. */
import type { SecurityContext } from 'kubernetes-types-1.30/core/v1';

/**
 * No privileges, no capabilities, a read-only root and a non-root user: what the certificate Job
 * and the autoscaler run with, whatever the pod's security level. `extra` adds to it (a user, a
 * seccomp profile).
 */
export function hardenedSecurityContext(extra: SecurityContext = {}): SecurityContext {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    privileged: false,
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
    ...extra,
  };
}

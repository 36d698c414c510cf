/** The image volume by Kubernetes version: where it runs, and what the output promises before. */
import { IMAGE_VOLUMES_MINOR } from '../../lib/core/kubernetes-version';

/** The first Kubernetes version with image volumes on by default. */
export const VERSION = `1.${IMAGE_VOLUMES_MINOR}`;

/**
 * On an API server before 1.35 the image volume is accepted and dropped (its ImageVolume gate is
 * off): what the output promises there is the view check failing every pod at once with 78, saying
 * so, and the Job failing by its podFailurePolicy before any broker starts. With a flux-views image
 * the check is the runner's (`container`: by default the runner, whatever its name), with another
 * the flux view init container's.
 */
export function droppedBefore135(container?: string) {
  return {
    minor: IMAGE_VOLUMES_MINOR,
    why: 'the API server accepts and drops the image volume (ImageVolume gate off): the view check fails the pods with 78 naming the API server, and the Job fails at once',
    expect: {
      result: 'Failed' as const,
      reason: new RegExp(`PodFailurePolicy: Container ${container ?? '\\S+'} for pod \\S+ failed with exit code 78 matching FailJob rule`),
      noBrokers: true,
      leadExit: undefined,
      leadOutputExactly: undefined,
      leadOutput: undefined,
      terminationMessages: [{
        index: 0,
        container,
        patterns: [/^flux-view-check: the pod has no flux view image volume at .*: the API server dropped the image volume \S+ and its mounts/, /run on Kubernetes 1\.35 or newer/],
      }],
    },
  };
}

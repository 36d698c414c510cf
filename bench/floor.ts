/**
 * The floor under a MiniCluster's start-up (issue 37): a bare Indexed Job of the same size whose
 * pods run `true` in the image the MiniCluster's runner runs. What the same cluster needs to run N
 * pods at all; bench:bringup and bench:scale measure it beside each MiniCluster, round by round.
 */
import { indexedJob, jobFacts } from '../e2e/manifests';

/**
 * A benchmark's bare Indexed Job: completions = parallelism = `size`, pods that never restart and
 * have no service account token, `pod` added to that (the floor's, the gang floor's).
 */
export function bareIndexedJob(name: string, namespace: string, size: number, pod: object, spec: object = {}): any {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace },
    // No retry: a failed pod is a broken cluster, not a slower floor.
    spec: { completionMode: 'Indexed', completions: size, parallelism: size, backoffLimit: 0, ...spec, template: { spec: { restartPolicy: 'Never', automountServiceAccountToken: false, ...pod } } },
  };
}

/** The floor Job: completions = parallelism = `size`, one container running `true`. */
export function floorJob(name: string, namespace: string, size: number, image: string): any {
  return bareIndexedJob(name, namespace, size, {
    containers: [{
      name: 'floor',
      image,
      imagePullPolicy: 'IfNotPresent',
      command: ['true'],
      // Small enough that N pods fit wherever the MiniCluster's N pods do.
      resources: { requests: { cpu: '5m' } },
    }],
  });
}

/** The image of the MiniCluster's Flux runner among its synthesized documents: the floor's image. */
export function runnerImage(docs: any[]): string {
  const { name, runner } = jobFacts(docs);
  const image = indexedJob(docs).spec.template.spec.containers.find((c: any) => c.name === runner)?.image;
  if (typeof image !== 'string') throw new Error(`Job ${name}: the runner ${runner} has no image`);
  return image;
}

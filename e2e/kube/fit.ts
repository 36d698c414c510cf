/**
 * A case whose pods ask for more CPU than the cluster has (the production and mpi examples ask for
 * 2 CPUs per pod, the elastic one a 4-CPU limit, which is its request) would never be scheduled on
 * a small node: its CPU requests are scaled down for that run, and the report says so.
 */
import { podRequests } from '../../lib/cli/check/scheduling';
import { ceilMilliValue, parseQuantity } from '../../lib/core/k8s-formats';
import { E2eCase } from '../case';
import { indexedJob } from '../manifests';

/** Millicores of a Kubernetes CPU quantity (`2`, `500m`, `0.5`), rounded up as the API server does. */
export function cpuMillis(q: string | number | undefined): number | undefined {
  const parsed = q === undefined ? undefined : parseQuantity(q);
  return parsed ? Number(ceilMilliValue(parsed)) : undefined;
}

/** A pod's CPU request as the scheduler counts it (`check`'s arithmetic), of the containers `keep` selects. */
function podCpu(spec: any, keep: (c: any) => boolean = () => true): number {
  const only = (cs: any[] | undefined) => cs?.map((c) => (keep(c) ? c : { ...c, resources: undefined }));
  return Number(podRequests({ ...spec, initContainers: only(spec.initContainers), containers: only(spec.containers) }).get('cpu') ?? 0n);
}

/** Share of the cluster's allocatable CPU the case's pods may ask for together. */
const SHARE = 0.8;
/** Millicores at or below which a request is left as it is. */
const SMALL = 100;

/**
 * Lowers the CPU requests of the Job's containers (a limit without a request counts as the request)
 * so that `parallelism` pods (or `growTo`, when the run grows the Job) ask for at most SHARE of
 * `allocatableMillis`; returns what changed.
 */
export function fitCpuRequests(docs: any[], allocatableMillis: number, growTo?: number): string | undefined {
  const job = indexedJob(docs);
  const spec = job.spec.template.spec;
  const request = (c: any) => cpuMillis(c.resources?.requests?.cpu) ?? cpuMillis(c.resources?.limits?.cpu) ?? 0;
  const running = [...(spec.initContainers ?? []).filter((c: any) => c.restartPolicy === 'Always'), ...spec.containers];
  const perPod = podCpu(spec);
  // A Job the run grows must fit at its largest.
  const pods = Math.max(job.spec.parallelism ?? 1, growTo ?? 0);
  if (perPod * pods <= allocatableMillis * SHARE) return undefined;
  // Small requests (the handshake's 10m) stay and the large ones share what is left; when the small
  // ones alone are too many (128 pods of 20m on 2 CPUs), every request shares it, 1m at the least.
  const small = podCpu(spec, (c) => request(c) <= SMALL);
  const room = (allocatableMillis * SHARE) / pods;
  const keepSmall = small < room && running.some((c: any) => request(c) > SMALL);
  const floor = keepSmall ? SMALL : 1;
  const factor = keepSmall ? (room - small) / (perPod - small) : room / perPod;
  const changes: string[] = [];
  for (const c of [...spec.initContainers ?? [], ...spec.containers]) {
    const before = request(c);
    if (!before || (keepSmall && before <= SMALL)) continue;
    const after = Math.max(floor, Math.floor(before * factor));
    c.resources = { ...c.resources, requests: { ...c.resources?.requests, cpu: `${after}m` } };
    changes.push(`${c.name} ${before}m → ${after}m`);
  }
  return `CPU requests scaled down for ${pods} pods on ${allocatableMillis / 1000} allocatable CPUs: ${changes.join(', ')}`;
}

/** The most pods a case's Job runs at once when the run grows it (itself, or with `kubectl minicluster scale`); undefined when it never grows. */
export function grownSize(c: E2eCase): number | undefined {
  return Math.max(c.kube?.grow?.to ?? 0, c.day2?.largestSize ?? 0) || undefined;
}

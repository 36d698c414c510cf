/**
 * The output `check` holds against a cluster: the objects of the YAML files (as `kubectl apply -f`
 * reads them), with each namespaced object's namespace resolved, and what they say about the
 * MiniClusters in them.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { JOB_SELECTOR, KUBERNETES_VERSION_ANNOTATION } from '../../core/day2-contract';
import { parseKubernetesVersion } from '../../core/kubernetes-version';
import { ENV_SECRET_NAME } from '../../runtime/certgen/contract';
import { Day2Error } from '../day2/errors';
import { sizeLimits } from '../day2/model';
import { CHECK_EXIT } from './findings';

/** A Kubernetes object as written in YAML. */
export type Obj = Record<string, any>;

/** Kinds without a namespace; every other kind is namespaced (as most are). */
const CLUSTER_SCOPED = new Set(['Namespace', 'Node', 'PersistentVolume', 'StorageClass', 'PriorityClass', 'ClusterRole', 'ClusterRoleBinding',
  'CustomResourceDefinition', 'IngressClass', 'RuntimeClass', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ClusterQueue', 'ResourceFlavor']);

/** A pod template of the output: whose it is and its spec. */
export interface PodTemplate {
  /** `Kind/name`. */
  readonly owner: string;
  readonly namespace: string;
  readonly spec: Obj;
}

/** A MiniCluster's Job (the Indexed Job of brokers) in the output. */
export interface BrokerJob {
  readonly name: string;
  readonly namespace: string;
  readonly job: Obj;
  readonly pod: PodTemplate;
  /** Pods the Job starts (parallelism). */
  readonly size: number;
  /** Pods it may grow to (maxSize; = size when not elastic). */
  readonly maxSize: number;
  /** Brokers Flux waits for before the job starts (minSize; = size when the Job does not record one). */
  readonly quorum: number;
  /** The minor of its target Kubernetes version, or null when the Job does not record one. */
  readonly targetMinor: number | null;
}

export interface Manifest {
  readonly files: string[];
  readonly objects: Obj[];
  readonly brokerJobs: BrokerJob[];
  readonly podTemplates: PodTemplate[];
  /** `Kind/namespace/name` of every object the output creates, and of Secrets its Jobs create. */
  readonly creates: Map<string, string>;
}

/** The key of an object in `Manifest.creates`. */
export function objectKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** Reads FILEs (a directory: its .yaml, .yml and .json files; `-`: stdin) as kubectl apply -f does. */
export function readManifest(inputs: string[], defaultNamespace: string): Manifest {
  const files = inputs.flatMap((f) => (f !== '-' && fs.existsSync(f) && fs.statSync(f).isDirectory()
    ? fs.readdirSync(f).filter((n) => /\.(ya?ml|json)$/.test(n)).sort().map((n) => path.join(f, n))
    : [f]));
  const objects: Obj[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (e) {
      throw new Day2Error(CHECK_EXIT.USAGE, `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    for (const doc of parseAllDocuments(text)) {
      if (doc.errors.length) throw new Day2Error(CHECK_EXIT.USAGE, `${file}: not YAML: ${doc.errors[0].message}`);
      const value = doc.toJS() as Obj | null;
      for (const o of value?.kind === 'List' ? value.items ?? [] : value ? [value] : []) {
        if (typeof o?.kind !== 'string' || typeof o?.metadata?.name !== 'string') {
          throw new Day2Error(CHECK_EXIT.USAGE, `${file}: a document without kind and metadata.name is not a Kubernetes object`);
        }
        if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace ??= defaultNamespace;
        objects.push(o);
      }
    }
  }
  if (objects.length === 0) throw new Day2Error(CHECK_EXIT.USAGE, `no Kubernetes object in ${inputs.join(', ')}`);
  const podTemplates = objects.flatMap(podTemplateOf);
  const brokerJobs = objects.filter(isBrokerJob).map((job) => brokerJob(job, podTemplates));
  if (brokerJobs.length === 0) {
    throw new Day2Error(CHECK_EXIT.USAGE, `no MiniCluster Job in ${inputs.join(', ')} (a Job labelled ${JOB_SELECTOR}): is it cdk8s-minicluster's output?`);
  }
  return { files, objects, brokerJobs, podTemplates, creates: createdObjects(objects) };
}

function podTemplateOf(o: Obj): PodTemplate[] {
  const spec = o.kind === 'Pod' ? o.spec : o.kind === 'CronJob' ? o.spec?.jobTemplate?.spec?.template?.spec : o.spec?.template?.spec;
  return spec?.containers ? [{ owner: `${o.kind}/${o.metadata.name}`, namespace: o.metadata.namespace, spec }] : [];
}

function isBrokerJob(o: Obj): boolean {
  const labels = o.metadata?.labels ?? {};
  return o.kind === 'Job' && JOB_SELECTOR.split(',').every((t) => labels[t.split('=')[0]] === t.split('=')[1]);
}

function brokerJob(job: Obj, templates: PodTemplate[]): BrokerJob {
  const name = job.metadata.name;
  const size = job.spec?.parallelism ?? 1;
  const target = job.metadata.annotations?.[KUBERNETES_VERSION_ANNOTATION];
  const minor = target === undefined ? null : parseKubernetesVersion(String(target));
  const limits = sizeLimits(job);
  return {
    name,
    namespace: job.metadata.namespace,
    job,
    pod: templates.find((t) => t.owner === `Job/${name}` && t.namespace === job.metadata.namespace)!,
    size,
    maxSize: Math.max(size, limits.max ?? size),
    quorum: Math.min(size, limits.min ?? size),
    targetMinor: typeof minor === 'number' ? minor : null,
  };
}

/** What applying the output creates: its objects, and the Secrets its certificate Jobs make (by the certgen contract). */
function createdObjects(objects: Obj[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of objects) out.set(objectKey(o.kind, o.metadata.namespace ?? '', o.metadata.name), `${o.kind}/${o.metadata.name}`);
  for (const o of objects.filter((x) => x.kind === 'Job')) {
    for (const c of o.spec?.template?.spec?.containers ?? []) {
      const secret = (c.env ?? []).find((e: Obj) => e.name === ENV_SECRET_NAME)?.value;
      if (typeof secret === 'string') out.set(objectKey('Secret', o.metadata.namespace, secret), `Job/${o.metadata.name}`);
    }
  }
  return out;
}

/** Reading and writing the synthesized YAML, and the facts of its MiniCluster Job. */
import * as fs from 'fs';
import { parseAllDocuments, stringify } from 'yaml';

/** The facts of a synthesized MiniCluster Job that a run needs. */
export interface JobFacts {
  readonly name: string;
  readonly namespace: string;
  /** Pods the Job runs (completions). */
  readonly pods: number;
  /** The Flux runner container (the one running entrypoint.sh). */
  readonly runner: string;
  /** Secret the pods mount the certificate from. */
  readonly certificateSecret?: string;
  /** The MiniCluster's name (the instance label; the Job name may carry a GitOps suffix). */
  readonly cluster: string;
}

/** Every document of the files, in order. */
export function readDocs(files: string[]): any[] {
  return files.flatMap((f) => parseAllDocuments(fs.readFileSync(f, 'utf8')).map((d) => d.toJS())).filter((d) => d);
}

/** Writes the documents as one YAML stream; returns the file. */
export function writeDocs(file: string, docs: any[]): string {
  fs.writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
  return file;
}

/** The MiniCluster's Indexed Job among synthesized documents. */
export function indexedJob(docs: any[]): any {
  const job = docs.find((d) => d?.kind === 'Job' && d.spec?.completionMode === 'Indexed');
  if (!job) throw new Error('no Indexed Job in the manifests');
  return job;
}

export function jobFacts(docs: any[]): JobFacts {
  const job = indexedJob(docs);
  const spec = job.spec.template.spec;
  const runner = spec.containers.find((c: any) => (c.command ?? []).some((a: string) => a.endsWith('/entrypoint.sh')));
  if (!runner) throw new Error(`Job ${job.metadata.name}: no container runs entrypoint.sh`);
  return {
    name: job.metadata.name,
    namespace: job.metadata.namespace ?? 'default',
    pods: job.spec.completions,
    runner: runner.name,
    certificateSecret: (spec.volumes ?? []).find((v: any) => v.name === 'flux-curve-cert')?.secret?.secretName,
    cluster: job.spec.template.metadata.labels?.['app.kubernetes.io/instance'] ?? job.metadata.name,
  };
}

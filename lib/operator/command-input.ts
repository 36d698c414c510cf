/**
 * What the `synth` and `validate` commands share: their input options, and reading, converting and
 * synthesizing every input in memory (so that nothing is written unless all of it is valid).
 */
import * as fs from 'fs';
import { Command } from 'commander';
import { FluxViewSource } from '../constructs/props/flux';
import { DEFAULT_KUBERNETES_VERSION, IMAGE_VOLUMES_MINOR, MIN_KUBERNETES_MINOR, parseKubernetesVersion } from '../core/kubernetes-version';
import { DNS1123_LABEL } from '../core/k8s-formats';
import { inInputOrder, readSourceFiles } from './resource-files';
import { SynthesizedCluster, synthesizeSources } from './synth-resources';

const VIEW_SOURCES: string[] = Object.values(FluxViewSource);

/** The input options of both commands. */
export interface InputOptions {
  /** Unset when no -f was given. */
  readonly filename?: string[];
  readonly namespace?: string;
  readonly kubernetesVersion?: string;
  readonly ttlSecondsAfterFinished?: string;
  readonly sidecar?: string[];
  readonly viewInMemory?: boolean;
  readonly viewSource?: string;
  readonly autoscale?: boolean;
  readonly autoscaleIdleSeconds?: string;
}

/** Adds the input options to `command`. */
export function withInputOptions(command: Command): Command {
  return command
    .option('-f, --filename <file>', 'a YAML file of MiniCluster resources (several documents allowed; - reads stdin); repeat for more files',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('-n, --namespace <namespace>', 'namespace of resources without metadata.namespace (default: "default")')
    .option('--kubernetes-version <version>', `Kubernetes minor version the manifests target, 1.${MIN_KUBERNETES_MINOR} or newer (default: ${DEFAULT_KUBERNETES_VERSION})`)
    .option('--sidecar <container>', 'run this container (not the Flux runner) as a native sidecar, stopped when Flux ends, '
      + 'so a server such as nginx does not keep the Job from completing (Kubernetes 1.29 or newer); repeat for more',
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('--view-in-memory', 'copy the Flux view into memory (emptyDir medium Memory) instead of onto the node\'s disk: '
      + 'pods start faster, and the copy counts as the pods\' memory (the same as --view-source copy-to-memory)')
    .option('--view-source <source>', `where the pods' Flux install comes from: ${VIEW_SOURCES.join(', ')}; image-volume mounts the view image `
      + `read-only with no copy (Kubernetes 1.${IMAGE_VOLUMES_MINOR} or newer, and a container runtime with image volumes) (default: copy-to-disk)`)
    .option('--autoscale', 'size each elastic MiniCluster (maxSize above size) from Flux\'s queue: grow up to maxSize when jobs wait for nodes, '
      + 'shrink to minSize once brokers are idle (adds a sidecar and a ServiceAccount that may only get and patch the Job; docs/production.md)')
    .option('--autoscale-idle-seconds <seconds>', 'with --autoscale: seconds a broker must be idle before the cluster gives it up (default: 60)');
}

/** Problems with the options themselves. */
export function inputOptionProblems(options: InputOptions): string[] {
  const problems: string[] = [];
  const files = options.filename ?? [];
  if (files.length === 0) problems.push('-f/--filename is required (give at least one file, or - for stdin)');
  if (files.filter((f) => f === '-').length > 1) problems.push('-f - (stdin) can be given only once');
  if (options.namespace !== undefined && !(DNS1123_LABEL.test(options.namespace) && options.namespace.length <= 63)) {
    problems.push(`--namespace '${options.namespace}': must be a DNS-1123 label`);
  }
  if (options.kubernetesVersion !== undefined) {
    const v = parseKubernetesVersion(options.kubernetesVersion);
    if (typeof v === 'string') problems.push(`--kubernetes-version '${options.kubernetesVersion}': ${v}`);
  }
  if (options.ttlSecondsAfterFinished !== undefined && !/^\d{1,9}$/.test(options.ttlSecondsAfterFinished)) {
    problems.push(`--ttl-seconds-after-finished '${options.ttlSecondsAfterFinished}': must be a whole number of seconds`);
  }
  if (options.viewSource !== undefined && !VIEW_SOURCES.includes(options.viewSource)) {
    problems.push(`--view-source '${options.viewSource}': must be one of ${VIEW_SOURCES.join(', ')}`);
  }
  if (options.autoscaleIdleSeconds !== undefined && !/^\d{1,5}$/.test(options.autoscaleIdleSeconds)) {
    problems.push(`--autoscale-idle-seconds '${options.autoscaleIdleSeconds}': must be a whole number of seconds`);
  }
  if (options.autoscaleIdleSeconds !== undefined && !options.autoscale) problems.push('--autoscale-idle-seconds needs --autoscale');
  for (const name of options.sidecar ?? []) {
    if (!(DNS1123_LABEL.test(name) && name.length <= 63)) problems.push(`--sidecar '${name}': must be a container name (a DNS-1123 label)`);
  }
  return problems;
}

/** The clusters of every input, or every problem of every stage in input order. */
export interface LoadedInputs {
  readonly clusters: SynthesizedCluster[];
  readonly problems: string[];
  readonly warnings: string[];
}

/** Reads, converts and synthesizes every input. */
export function loadInputs(options: InputOptions): LoadedInputs {
  const read = readSourceFiles(options.filename ?? [], () => fs.readFileSync(0, 'utf8'));
  const result = synthesizeSources(read.documents, {
    namespace: options.namespace,
    kubernetesVersion: options.kubernetesVersion,
    ttlSecondsAfterFinished: options.ttlSecondsAfterFinished === undefined ? undefined : Number(options.ttlSecondsAfterFinished),
    sidecars: options.sidecar,
    viewInMemory: options.viewInMemory,
    viewSource: options.viewSource as FluxViewSource | undefined,
    autoscale: options.autoscale ? { idleSeconds: options.autoscaleIdleSeconds === undefined ? undefined : Number(options.autoscaleIdleSeconds) } : undefined,
  });
  const problems = inInputOrder([...read.problems, ...result.problems]);
  return { clusters: problems.length > 0 ? [] : result.clusters, problems, warnings: result.warnings };
}

/** Prints warnings, then fails the command with every problem (exit code 1). */
export function reportAndFail(command: Command, what: string, problems: string[], warnings: string[]): void {
  printWarnings(warnings);
  if (problems.length === 0) return;
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  command.error(`error: ${count}; ${what}:\n${problems.map((p) => `  ${p}`).join('\n')}`, { exitCode: 1 });
}

export function printWarnings(warnings: string[]): void {
  for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
}

/**
 * Converts and synthesizes MiniCluster resources in memory for the command line: every resource is
 * checked and rendered before anything is written, and the output layout (one file per cluster or
 * per object, optional kustomization.yaml) is computed here so that it is deterministic.
 */
import { App, Chart, Yaml } from 'cdk8s';
import { miniClusterFromConverted } from './from-custom-resource';
import { problemLine } from './problems';
import { InputProblem, SourceDocument } from './resource-files';
import { ConvertedMiniCluster, CustomResourceOptions, convertCustomResource } from './to-props';
import { KUSTOMIZATION_FILE, Kustomization } from '../core/kustomization';

/** One converted and synthesized MiniCluster. */
export interface SynthesizedCluster {
  readonly source: SourceDocument;
  readonly name: string;
  readonly namespace: string;
  /** The Kubernetes objects, in synthesis order. */
  readonly manifests: any[];
}

/** Result of synthesizeSources: clusters when there are no problems. */
export interface SynthesisResult {
  readonly clusters: SynthesizedCluster[];
  /** Every problem, each message starting with its location. */
  readonly problems: InputProblem[];
  readonly warnings: string[];
}

/** Converts and synthesizes every document; any problem anywhere means no clusters. */
export function synthesizeSources(documents: SourceDocument[], options: CustomResourceOptions = {}): SynthesisResult {
  const problems: InputProblem[] = [];
  const warnings: string[] = [];
  const clusters: SynthesizedCluster[] = [];
  const usedSidecars = new Set<string>();
  const seen = new Map<string, SourceDocument>();
  for (const source of documents) {
    const conversion = convertCustomResource(source.value, options);
    const label = describe(source, conversion.converted);
    const problem = (message: string) => problems.push({ fileIndex: source.fileIndex, documentIndex: source.index, message });
    for (const p of conversion.problems) problem(`${source.location(p.segments)}${label}: ${problemLine(p)}`);
    for (const w of conversion.warnings) warnings.push(`${source.location(w.segments)}${label}: ${problemLine(w)}`);
    const converted = conversion.converted;
    if (!converted) continue;
    const namespace = converted.namespace ?? 'default';
    const key = `${namespace}/${converted.name}`;
    const previous = seen.get(key);
    if (previous) {
      problem(`${source.location(['metadata', 'name'])}${label}: duplicates the MiniCluster of ${previous.location()} (same name and namespace)`);
      continue;
    }
    seen.set(key, source);
    try {
      // One chart per cluster, named after it: each output file carries its own runtime-program
      // ConfigMaps, named after the chart, so files of one namespace never hold the same object.
      const chart = new Chart(new App(), converted.name);
      miniClusterFromConverted(chart, converted.name, { ...converted, props: { ...converted.props, namespace } });
      clusters.push({ source, name: converted.name, namespace, manifests: chart.toJson() });
      for (const c of converted.props.containers) if (c.sidecar) usedSidecars.add(c.name!);
    } catch (e) {
      problem(`${source.location()}${label}: ${(e as Error).message}`);
    }
  }
  if (problems.length === 0) {
    for (const name of options.sidecars ?? []) {
      if (!usedSidecars.has(name)) {
        problems.push({ fileIndex: Number.MAX_SAFE_INTEGER, documentIndex: 0, message: `--sidecar '${name}': no MiniCluster has a container of that name beside its Flux runner` });
      }
    }
  }
  return { clusters: problems.length > 0 ? [] : clusters, problems, warnings };
}

/** ` (MiniCluster <name>)`, when the document says it is one and has a name. */
function describe(source: SourceDocument, converted?: ConvertedMiniCluster): string {
  const value = source.value as any;
  const name = converted?.name ?? value?.metadata?.name;
  return typeof name === 'string' && value?.kind === 'MiniCluster' ? ` (MiniCluster ${name})` : '';
}

/** How synthesized clusters become files. */
export interface OutputLayout {
  /** One file per Kubernetes object, in a folder per cluster, instead of one file per cluster. */
  readonly split?: boolean;
  /** Also write kustomization.yaml listing every file. */
  readonly kustomize?: boolean;
}

/** One output file: a path relative to the output directory, and its text. */
export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

/**
 * The files for `clusters`: `<cluster>.yaml`, or with split `<cluster>/<kind>-<name>.yaml`, where
 * `<cluster>` is the MiniCluster name, or `<namespace>.<name>` when two namespaces share the name
 * (or the name is `kustomization` and a kustomization.yaml is written).
 */
export function outputFiles(clusters: SynthesizedCluster[], layout: OutputLayout = {}): OutputFile[] {
  const names = new Map<string, number>();
  for (const c of clusters) names.set(c.name, (names.get(c.name) ?? 0) + 1);
  const files: OutputFile[] = [];
  for (const c of clusters) {
    // kustomization.yaml is taken when kustomizing.
    const qualify = names.get(c.name)! > 1 || (layout.kustomize && !layout.split && c.name === 'kustomization');
    const stem = qualify ? `${c.namespace}.${c.name}` : c.name;
    if (!layout.split) {
      files.push({ path: `${stem}.yaml`, content: Yaml.stringify(...c.manifests) });
      continue;
    }
    for (const m of c.manifests) {
      files.push({ path: `${stem}/${String(m.kind).toLowerCase()}-${m.metadata.name}.yaml`, content: Yaml.stringify(m) });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (layout.kustomize) {
    files.push({ path: KUSTOMIZATION_FILE, content: Kustomization.render(files.map((f) => f.path)) });
  }
  return files;
}

/** Every cluster's objects as one multi-document YAML stream, in input order. */
export function toYamlStream(clusters: SynthesizedCluster[]): string {
  return Yaml.stringify(...clusters.flatMap((c) => c.manifests));
}

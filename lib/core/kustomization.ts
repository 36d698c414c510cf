/**
 * kustomization.yaml files for synthesized output, so that `kubectl apply -k`, `kubectl kustomize`,
 * Argo CD and Flux CD's kustomize-controller take the output directory as it is.
 */
import * as fs from 'fs';
import * as path from 'path';
import { stringify } from 'yaml';

/** The file name kustomize looks for. */
export const KUSTOMIZATION_FILE = 'kustomization.yaml';

/** Options of {@link Kustomization.writeFiles}. */
export interface KustomizationOptions {
  /** Extension of the synthesized files to list (the App's outputFileExtension). @default '.k8s.yaml' */
  readonly fileExtension?: string;
}

/** Writes kustomization.yaml files for cdk8s output. */
export class Kustomization {
  /**
   * The text of a kustomization.yaml that lists `resources` (paths relative to it), in byte order.
   * Deterministic: the same resources, in any order, give the same text.
   */
  public static render(resources: string[]): string {
    const sorted = [...new Set(resources)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return stringify({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: sorted }, { lineWidth: 0 });
  }

  /**
   * Writes a kustomization.yaml into `outdir` and into each sub-directory that holds synthesized
   * files, after `app.synth()`. Each lists its directory's files and the sub-directories that got
   * one, so every output layout works: one file per chart (the default), one per app, one per
   * resource, or a folder per chart (`YamlOutputType.FOLDER_PER_CHART_FILE_PER_RESOURCE`, where a
   * GitOps tool can also point at one chart's folder). Returns the paths written, sorted.
   */
  public static writeFiles(outdir: string, options: KustomizationOptions = {}): string[] {
    const extension = options.fileExtension ?? '.k8s.yaml';
    const written: string[] = [];
    const visit = (dir: string): boolean => {
      const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const resources: string[] = [];
      for (const e of entries) {
        if (e.isDirectory() && visit(path.join(dir, e.name))) resources.push(e.name);
        else if (e.isFile() && e.name.endsWith(extension) && e.name !== KUSTOMIZATION_FILE) resources.push(e.name);
      }
      if (resources.length === 0) return false;
      const file = path.join(dir, KUSTOMIZATION_FILE);
      fs.writeFileSync(file, Kustomization.render(resources));
      written.push(file);
      return true;
    };
    if (!visit(outdir)) throw new Error(`no ${extension} files under ${outdir}: synthesize the app first`);
    return written.sort();
  }

  private constructor() {}
}

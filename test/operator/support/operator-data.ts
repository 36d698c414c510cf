/**
 * The Flux Operator's reference data (../shared/data/flux-operator: the CRD and the operator's test
 * MiniClusters). It is not part of the project: tests that need it skip, visibly, when it is absent.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { sharedCandidates } from '../../../e2e/repo-root';
import { describeIf } from '../../support/requires';

const CANDIDATES = sharedCandidates('data', 'flux-operator');

/** The data folder, or undefined when absent. */
export const OPERATOR_DATA = CANDIDATES.find((d) => fs.existsSync(path.join(d, 'miniclusters.crd.yaml')));

/** `describe`, or a visibly skipped block naming what is missing. */
export function describeWithOperatorData(name: string, body: () => void): void {
  describeIf({ met: OPERATOR_DATA !== undefined, why: `the Flux Operator data is absent (looked in ${CANDIDATES.join(', ')})` }, name, body);
}

/** The CRD's openAPIV3Schema. */
export function crdSchema(): any {
  const crd = parseAllDocuments(fs.readFileSync(path.join(OPERATOR_DATA!, 'miniclusters.crd.yaml'), 'utf8'))
    .map((d) => d.toJS()).find((d) => d?.kind === 'CustomResourceDefinition');
  return crd.spec.versions.find((v: any) => v.name === 'v1alpha2').schema.openAPIV3Schema;
}

/** Every YAML file under tests/ with its documents (none when the data is absent). */
export function operatorTestFiles(): { file: string; relative: string; documents: any[] }[] {
  if (!OPERATOR_DATA) return [];
  const root = path.join(OPERATOR_DATA!, 'tests');
  const out: { file: string; relative: string; documents: any[] }[] = [];
  for (const dir of fs.readdirSync(root).sort()) {
    const full = path.join(root, dir);
    if (!fs.statSync(full).isDirectory()) continue;
    for (const name of fs.readdirSync(full).filter((n) => /\.ya?ml$/.test(n)).sort()) {
      const file = path.join(full, name);
      out.push({ file, relative: `${dir}/${name}`, documents: parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS()).filter((d) => d) });
    }
  }
  return out;
}

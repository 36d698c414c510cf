/** The naive operator-style Job both bring-up benchmarks measure against: podemu's testdata/fluxtest.yaml. */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';

/** The naive Job's documents, resized from 4 to n pods (hosts, the job's -N, completions, parallelism). */
export function naiveDocs(testdata: string, n: number): any[] {
  const docs = parseAllDocuments(fs.readFileSync(path.join(testdata, 'fluxtest.yaml'), 'utf8')).map((d) => d.toJS()).filter((d) => d);
  for (const d of docs) {
    if (d.kind === 'Job') Object.assign(d.spec, { completions: n, parallelism: n });
    if (d.kind === 'ConfigMap') {
      const start = d.data['start.sh'] as string;
      if (!start.includes('fluxtest-[0-3]') || !start.includes('flux run -N4')) throw new Error('fluxtest.yaml changed: cannot resize it');
      d.data['start.sh'] = start.replace('fluxtest-[0-3]', `fluxtest-[0-${n - 1}]`).replace('flux run -N4', `flux run -N${n}`);
    }
  }
  return docs;
}

/** The naive Job's certificate Secret, made beforehand as podemu's testdata has it. */
export function naiveSecretFile(testdata: string): string {
  return path.join(testdata, 'fluxtest-curve-secret.yaml');
}

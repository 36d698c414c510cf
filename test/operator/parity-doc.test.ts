/**
 * docs/operator-parity.md lists every CRD field with the converter's decision; its table is
 * generated from CRD_FIELDS and must match it. UPDATE_PARITY_DOC=1 rewrites the table.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CRD_FIELDS } from '../../lib/operator';
import { fieldTableMarkdown } from '../../lib/operator/parity-table';

const DOC = path.resolve(__dirname, '..', '..', 'docs', 'operator-parity.md');
const BEGIN = '<!-- BEGIN FIELD TABLE: generated from lib/operator/crd-fields.ts; UPDATE_PARITY_DOC=1 npx jest test/operator/parity-doc.test.ts -->';
const END = '<!-- END FIELD TABLE -->';

describe('docs/operator-parity.md', () => {
  test('its field table is the converter\'s decision table, one row per CRD field', () => {
    // GIVEN
    const doc = fs.readFileSync(DOC, 'utf8');
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect([start >= 0, end > start]).toEqual([true, true]);
    const expected = `${BEGIN}\n${fieldTableMarkdown()}\n${END}`;
    if (process.env.UPDATE_PARITY_DOC === '1') fs.writeFileSync(DOC, doc.slice(0, start) + expected + doc.slice(end + END.length));
    // THEN
    const now = fs.readFileSync(DOC, 'utf8');
    const table = now.slice(now.indexOf(BEGIN), now.indexOf(END) + END.length);
    expect(table).toBe(expected);
    expect(table.split('\n').filter((l) => l.startsWith('| `')).length).toBe(CRD_FIELDS.length);
  });

  test('every rejected field is explained in the prose too', () => {
    const doc = fs.readFileSync(DOC, 'utf8');
    const prose = doc.slice(0, doc.indexOf(BEGIN));
    for (const field of ['spec.cleanup', 'spec.services', 'spec.flux.arch', 'spec.flux.mungeSecret', 'spec.flux.bursting', 'spec.pod.resources',
      'spec.flux.minimalService', 'spec.flux.noWaitSocket', 'spec.flux.container.imagePullSecret', 'spec.pod.securityContext']) {
      expect({ field, explained: prose.includes(`\`${field}\``) }).toEqual({ field, explained: true });
    }
  });
});

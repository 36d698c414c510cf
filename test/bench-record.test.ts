/** `--write-docs`: the benchmarks write their tables into docs/scale.md between markers, and only there. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SCALE_DOC, measuredOn, replaceSection, writeSection } from '../bench/record';

const PAGE = 'intro\n<!-- bench:scale-kube -->\nold table\n<!-- /bench:scale-kube -->\noutro\n';

test('GIVEN a page with the section WHEN it is replaced THEN only the text between the markers changes', () => {
  expect(replaceSection(PAGE, 'scale-kube', '| a |\n|---|\n')).toBe('intro\n<!-- bench:scale-kube -->\n| a |\n|---|\n<!-- /bench:scale-kube -->\noutro\n');
  // Written twice, the same text: the markers stay and nothing accumulates.
  const once = replaceSection(PAGE, 'scale-kube', 'x');
  expect(replaceSection(once, 'scale-kube', 'x')).toBe(once);
});

test.each([
  ['no markers', 'intro\n'],
  ['the closing marker first', '<!-- /bench:scale-kube -->\n<!-- bench:scale-kube -->\n'],
  ['the section twice', PAGE + PAGE],
])('GIVEN %s THEN an error naming the markers, and nothing written', (_, text) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-record-'));
  const file = path.join(dir, 'scale.md');
  fs.writeFileSync(file, text);
  expect(() => writeSection('scale-kube', ['x'], file)).toThrow("no single '<!-- bench:scale-kube -->' ... '<!-- /bench:scale-kube -->' section to write the results into");
  expect(fs.readFileSync(file, 'utf8')).toBe(text);
  fs.rmSync(dir, { recursive: true });
});

test('GIVEN docs/scale.md THEN it holds one section for each real-cluster benchmark to write', () => {
  const text = fs.readFileSync(SCALE_DOC, 'utf8');
  for (const id of ['bringup-kube', 'scale-kube', 'scale-kube-phases', 'scale-kube-flux']) expect(() => replaceSection(text, id, 'x')).not.toThrow();
});

test('GIVEN cordoned nodes THEN the line names them; without, it does not', () => {
  expect(measuredOn('2026-11-27', 'npm run bench:scale', 'API server v1.36.3', ['kn1', 'kn2']))
    .toBe('Measured 2026-11-27 by `npm run bench:scale` on API server v1.36.3 (cordoned, so no pod ran there: kn1, kn2).');
  expect(measuredOn('2026-11-27', 'x', 'y', [])).toBe('Measured 2026-11-27 by `x` on y.');
});

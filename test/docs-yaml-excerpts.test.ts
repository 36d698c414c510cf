/**
 * Every YAML block of README.md and docs/*.md says what it is (test/support/yaml-excerpts.ts): an
 * excerpt of a synthesized object in dist/, held against that object, or YAML the user writes. So
 * an excerpt cannot drift from the output unnoticed, and no unmarked block shows synthesized objects.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { excerptMismatches, FencedBlock, fencedBlocks, looksSynthesized, parseMarker } from './support/yaml-excerpts';

const ROOT = path.resolve(__dirname, '..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const YAML = new Set(['yaml', 'yml']);

type Obj = Record<string, any>;

const blocks: Array<FencedBlock & { file: string }> = DOCS.flatMap((file) => fencedBlocks(fs.readFileSync(path.join(ROOT, file), 'utf8')).map((b) => ({ ...b, file })));
const yamlBlocks = blocks.filter((b) => YAML.has(b.language));

function documents(text: string, where: string): Obj[] {
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length) throw new Error(`${where}: not YAML: ${d.errors[0].message}`);
    return d.toJS();
  }).filter((d) => d !== null);
}

/** The problems of one YAML block of the documentation, each naming the file and line. */
function problems(b: FencedBlock & { file: string }): string[] {
  const where = `${b.file}:${b.line}`;
  const marker = parseMarker(b.marker);
  if (typeof marker === 'string') {
    return [`${where}: the yaml block ${marker}; put '<!-- excerpt: dist/FILE Kind/name -->' (part of a synthesized object) or '<!-- not-synthesized: WHAT -->' on the line before it`];
  }
  if (marker.kind === 'not-synthesized') {
    return looksSynthesized(b.text) ? [`${where}: marked not-synthesized, but it carries app.kubernetes.io/managed-by: cdk8s-minicluster: mark it as an excerpt of the object it shows`] : [];
  }
  const file = path.resolve(ROOT, marker.file);
  if (!file.startsWith(path.join(ROOT, 'dist') + path.sep) || !fs.existsSync(file)) return [`${where}: excerpt of ${marker.file}, which is not a file in dist/`];
  const matches = documents(fs.readFileSync(file, 'utf8'), marker.file).filter((o) => o.kind === marker.objectKind && o.metadata?.name === marker.name);
  if (matches.length !== 1) return [`${where}: excerpt of ${marker.objectKind}/${marker.name}, of which ${marker.file} holds ${matches.length}`];
  const excerpt = documents(b.text, where);
  if (excerpt.length !== 1) return [`${where}: an excerpt must be one YAML document, it holds ${excerpt.length}`];
  return excerptMismatches(excerpt[0], matches[0]).map((m) => `${where}: excerpt of ${marker.file} ${marker.objectKind}/${marker.name}: ${m}`);
}

describe('subset match of an excerpt', () => {
  const job = {
    kind: 'Job',
    spec: {
      backoffLimit: 3,
      successPolicy: { rules: [{ succeededIndexes: '0' }] },
      podFailurePolicy: { rules: [{ action: 'Ignore', code: 75 }, { action: 'FailJob', values: [81, 82] }, { action: 'FailJob', values: [0] }] },
      template: { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } },
    },
  };

  test('GIVEN an excerpt with some keys, unnamed items in order and named items in any order WHEN matched THEN nothing', () => {
    const excerpt = {
      spec: {
        successPolicy: { rules: [{ succeededIndexes: '0' }] },
        podFailurePolicy: { rules: [{ action: 'Ignore' }, { action: 'FailJob', values: [0] }] },
        template: { spec: { containers: [{ name: 'b', image: 'y' }, { name: 'a' }] } },
      },
    };
    expect(excerptMismatches(excerpt, job)).toEqual([]);
  });

  test('GIVEN keys the output lacks, another value, a scalar of another type, a shorter scalar list, unknown and reordered items WHEN matched THEN each is named by its path', () => {
    const excerpt = {
      spec: {
        backoffLimitPerIndex: 3,
        backoffLimit: 4,
        successPolicy: { rules: [{ succeededIndexes: 0 }] },
        podFailurePolicy: { rules: [{ action: 'FailJob', values: [0] }, { action: 'Ignore' }, { action: 'FailJob', values: [81] }] },
        template: { spec: { containers: [{ name: 'c' }] } },
      },
    };
    expect(excerptMismatches(excerpt, job)).toEqual([
      'spec.backoffLimitPerIndex: not in the output',
      'spec.backoffLimit: 4 in the excerpt, 3 in the output',
      'spec.successPolicy.rules[0]: {"succeededIndexes":0} matches no item of the output after the ones before it',
      'spec.podFailurePolicy.rules[1]: {"action":"Ignore"} matches no item of the output after the ones before it',
      'spec.podFailurePolicy.rules[2]: {"action":"FailJob","values":[81]} matches no item of the output after the ones before it',
      'spec.template.spec.containers[name=c]: not in the output',
    ]);
    expect(excerptMismatches({ spec: { backoffLimit: { max: 3 } } }, job)).toEqual(['spec.backoffLimit: a mapping in the excerpt, 3 in the output']);
  });

  test('GIVEN Markdown with blocks WHEN read THEN each has its language, line and the comment before it, blank lines between allowed', () => {
    const md = 'text\n<!-- excerpt: dist/a.yaml Job/x -->\n\n```yaml\nspec: {}\n```\n\n```ts\nconst a = 1;\n```\n  ~~~YAML\n  kind: Pod\n  ~~~\n';
    expect(fencedBlocks(md)).toEqual([
      { line: 4, language: 'yaml', text: 'spec: {}', marker: 'excerpt: dist/a.yaml Job/x' },
      { line: 8, language: 'ts', text: 'const a = 1;', marker: undefined },
      { line: 11, language: 'yaml', text: '  kind: Pod', marker: undefined },
    ]);
    expect(parseMarker('excerpt: dist/a.yaml Job/x')).toEqual({ kind: 'excerpt', file: 'dist/a.yaml', objectKind: 'Job', name: 'x' });
    expect(parseMarker('not-synthesized: an Argo CD Application')).toEqual({ kind: 'not-synthesized', what: 'an Argo CD Application' });
    expect(parseMarker('excerpt of the Job')).toMatch(/neither 'excerpt: FILE Kind\/name' nor 'not-synthesized: WHAT'/);
    expect(parseMarker(undefined)).toBe('has no marker');
  });

  test('GIVEN a block marked not-synthesized that shows a synthesized object WHEN checked THEN it is refused', () => {
    const text = 'kind: ConfigMap\nmetadata:\n  labels:\n    app.kubernetes.io/managed-by: cdk8s-minicluster\n';
    expect(problems({ file: 'docs/x.md', line: 3, language: 'yaml', text, marker: 'not-synthesized: a ConfigMap' })).toEqual([
      'docs/x.md:3: marked not-synthesized, but it carries app.kubernetes.io/managed-by: cdk8s-minicluster: mark it as an excerpt of the object it shows',
    ]);
    expect(problems({ file: 'docs/x.md', line: 3, language: 'yaml', text: 'spec: {}', marker: 'excerpt: dist/none.k8s.yaml Job/x' }))
      .toEqual(['docs/x.md:3: excerpt of dist/none.k8s.yaml, which is not a file in dist/']);
  });
});

describe('YAML in README.md and docs/*.md', () => {
  test('GIVEN the documentation WHEN its yaml blocks are read THEN there are some, and some are excerpts (the test reads them)', () => {
    expect(yamlBlocks.length).toBeGreaterThan(0);
    expect(yamlBlocks.some((b) => /^excerpt:/.test(b.marker ?? ''))).toBe(true);
  });

  test('GIVEN every yaml block WHEN held against its marker THEN each excerpt is part of its synthesized object and the rest are not synthesized', () => {
    expect(yamlBlocks.flatMap(problems)).toEqual([]);
  });

  test('GIVEN blocks of any other language WHEN read THEN none shows a synthesized object (those are yaml excerpts)', () => {
    expect(blocks.filter((b) => !YAML.has(b.language) && looksSynthesized(b.text)).map((b) => `${b.file}:${b.line} (${b.language || 'no language'})`)).toEqual([]);
  });
});

/**
 * The documentation's links resolve: every relative link and #anchor of README.md, CHANGELOG.md and
 * docs/*.md, with GitHub's heading slugs. Also the README's promises: at most 12 KB, the hello
 * world's objects all named, the lead's log read from pod index 0, no Flux build script.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { anchors, brokenLinks, githubSlug } from './support/markdown-links';

const ROOT = path.resolve(__dirname, '..');
const DOCS = path.join(ROOT, 'docs');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function documentationFiles(): string[] {
  const top = ['README.md', 'CHANGELOG.md'].map((f) => path.join(ROOT, f));
  return [...top, ...fs.readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort().map((f) => path.join(DOCS, f))];
}

describe('GitHub heading anchors', () => {
  test.each([
    ['Start-up time: the view in memory', 'start-up-time-the-view-in-memory'],
    ['The runtime programs, once per namespace in a chart', 'the-runtime-programs-once-per-namespace-in-a-chart'],
    ['With real Flux: `npm run e2e` and `npm run bench:bringup`', 'with-real-flux-npm-run-e2e-and-npm-run-benchbringup'],
    ['Checks before ready (flux-runtime.md §3, §6)', 'checks-before-ready-flux-runtimemd-3-6'],
    ['The contract (`lib/core/handshake-contract.ts`)', 'the-contract-libcorehandshake-contractts'],
    ["jsii's warnings", 'jsiis-warnings'],
    ['Python, Go, Java and .NET: the [jsii](https://aws.github.io/jsii) packages', 'python-go-java-and-net-the-jsii-packages'],
    ['snake_case **stays**', 'snake_case-stays'],
  ])('GIVEN the heading %j THEN its anchor is %j', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  test('GIVEN repeated headings THEN the later ones get -1, -2; headings in code blocks are not headings', () => {
    const text = '# Tests\n## Tests\n```sh\n# Tests\n```\n### Tests\n\n    # not a heading\n';
    expect([...anchors(text)]).toEqual(['tests', 'tests-1', 'tests-2']);
  });
});

describe('link checker', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'links-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('GIVEN a missing file, a missing anchor and good links THEN exactly the broken ones are reported with their line', () => {
    fs.writeFileSync(path.join(dir, 'other.md'), '# Other page\n\n## A section: with punctuation\n');
    fs.mkdirSync(path.join(dir, 'folder'));
    fs.writeFileSync(path.join(dir, 'page.md'), [
      '# Page',
      '[ok](other.md) [ok](other.md#a-section-with-punctuation) [ok](#page) [ok](folder/) [web](https://example.com/x#y)',
      '[gone](missing.md)',
      '[bad anchor](other.md#a-section)',
      '`[in code](nowhere.md)`',
      '```',
      '[in a fence](nowhere.md)',
      '```',
      '[bad local](#nothing)',
    ].join('\n'));
    expect(brokenLinks(path.join(dir, 'page.md'), dir)).toEqual([
      'page.md:3: missing.md: missing.md does not exist',
      'page.md:4: other.md#a-section: no heading of other.md has the anchor #a-section',
      'page.md:9: #nothing: no heading of page.md has the anchor #nothing',
    ]);
  });
});

describe('documentation', () => {
  test('every relative link and #anchor of README.md, CHANGELOG.md and docs/*.md resolves', () => {
    const files = documentationFiles();
    expect(files.map((f) => path.relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/README.md']));
    expect(files.flatMap((f) => brokenLinks(f, ROOT))).toEqual([]);
  });

  test('README.md is at most 12 KB', () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(12 * 1024);
  });

  test('the README names every object of dist/hello-world.k8s.yaml', () => {
    const docs = parseAllDocuments(fs.readFileSync(path.join(ROOT, 'dist', 'hello-world.k8s.yaml'), 'utf8')).map((d) => d.toJS()).filter((d) => d);
    const table = README.split('\n## Apply and watch')[0];
    const missing = docs
      .map((d) => ({ kind: d.kind as string, name: (d.metadata.name as string).replace(/-[0-9a-f]{8}$/, '-<hash>') }))
      .filter(({ kind, name }) => !table.includes(`\`${kind}/${name}\``) && !(table.includes(`\`${kind}\``) && table.includes(`(all \`${name}\`)`)));
    expect(missing).toEqual([]);
  });

  test('the README reads the lead\'s log from pod index 0 and its Flux container, with labels the synthesized Job has', () => {
    const docs = parseAllDocuments(fs.readFileSync(path.join(ROOT, 'dist', 'hello-world.k8s.yaml'), 'utf8')).map((d) => d.toJS()).filter((d) => d);
    const job = docs.find((d) => d.kind === 'Job' && d.metadata.name === 'flux-sample');
    const command = /^ {4}kubectl logs (.*)$/m.exec(README)?.[1] ?? '';
    const selector = /-l (\S+)/.exec(command)?.[1] ?? '';
    const container = /-c (\S+)/.exec(command)?.[1];
    // the pod template's own label, and the index label Kubernetes (1.28+) adds, which the rendezvous Service selects by
    const rendezvous = docs.find((d) => d.kind === 'Service' && d.metadata.name === 'flux-sample-rendezvous');
    const known = { ...job.spec.template.metadata.labels, ...rendezvous.spec.selector };
    for (const pair of selector.split(',')) {
      const [key, value] = pair.split('=');
      expect([key, value]).toEqual([key, known[key]]);
    }
    expect(selector).toContain('batch.kubernetes.io/job-completion-index=0');
    expect(job.spec.template.spec.containers.map((c: any) => c.name)).toContain(container);
    expect(command).toContain('--tail=-1');
  });

  test('no page points at a script that builds Flux: e2e needs a Flux install at FLUX_PREFIX', () => {
    const texts = documentationFiles().map((f) => [path.relative(ROOT, f), fs.readFileSync(f, 'utf8')] as const);
    expect(texts.filter(([, t]) => /build-flux|tools\/build[-_]/i.test(t)).map(([f]) => f)).toEqual([]);
    expect(fs.readFileSync(path.join(DOCS, 'development.md'), 'utf8')).toMatch(/a Flux install \(flux-core \+\s+flux-sched\) at `FLUX_PREFIX`/);
  });
});

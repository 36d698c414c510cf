/**
 * What makes the package findable where cdk8s users look (Construct Hub indexes jsii packages on
 * npm with the `cdk8s` keyword and an open-source license), the stability it states, and a
 * CHANGELOG in the Keep a Changelog form whose versions match package.json.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');

describe('package metadata', () => {
  test('Construct Hub: the cdk8s keyword, an accepted license, cdk8s and constructs as peers, jsii targets for the other languages', () => {
    expect(pkg.keywords).toEqual(expect.arrayContaining(['cdk8s', 'constructs', 'kubernetes', 'flux']));
    expect(pkg.license).toBe('Apache-2.0');
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['cdk8s', 'constructs']);
    expect(Object.keys(pkg.jsii.targets).sort()).toEqual(['dotnet', 'go', 'java', 'python']);
    expect(pkg.repository.url).toMatch(/^https:\/\/github\.com\//);
    expect(pkg.homepage).toBeDefined();
  });

  test('the stability is stated for the whole package, as docs/stability.md says', () => {
    expect(pkg.stability).toBe('experimental');
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'stability.md'), 'utf8')).toContain('"stability": "experimental"');
  });
});

describe('CHANGELOG.md', () => {
  const versions = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (.*))?$/gm)].map((m) => ({ version: m[1], date: m[2] }));

  test('Keep a Changelog: an Unreleased section first, then versions newest first, down to 0.1.0', () => {
    expect(changelog).toMatch(/^# Changelog\n/);
    expect(changelog).toContain('[Keep a Changelog](https://keepachangelog.com/');
    expect(versions[0].version).toBe('Unreleased');
    const released = versions.slice(1).map((v) => v.version);
    expect(released).toContain(pkg.version);
    expect(released[released.length - 1]).toBe('0.1.0');
    const newer = (a: string, b: string) => {
      const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
      const i = x.findIndex((n, k) => n !== y[k]);
      return i >= 0 && x[i] > y[i];
    };
    for (let i = 1; i < released.length; i++) expect([released[i - 1], released[i], newer(released[i - 1], released[i])]).toEqual([released[i - 1], released[i], true]);
    // each version's date is ISO 8601, or "unreleased" until it is published
    for (const v of versions.slice(1)) expect(v.date).toMatch(/^(\d{4}-\d{2}-\d{2}|unreleased)$/);
  });

  test('only the Keep a Changelog kinds of change, and a comparison link for every version', () => {
    for (const m of changelog.matchAll(/^### (.*)$/gm)) expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(m[1]);
    for (const v of versions) expect(changelog).toMatch(new RegExp(`^\\[${v.version.replace(/\./g, '\\.')}\\]: https://`, 'm'));
  });
});

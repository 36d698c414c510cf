/**
 * `cdk8s-minicluster validate`, run as the built command line: the same checks as synth (conversion
 * and synthesis), a line per valid cluster, every problem with its location, never a file written.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli } from './operator/support/run-cli';

const HELLO = `apiVersion: flux-framework.org/v1alpha2
kind: MiniCluster
metadata:
  name: hello
  namespace: hpc
spec:
  size: 2
  containers:
    - image: ubuntu:noble
      command: echo hello world
`;

function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-validate-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('cdk8s-minicluster validate', () => {
  test('a valid input: one line per cluster, exit code 0, nothing written', () => {
    const dir = workspace({ 'hello.yaml': HELLO });
    const run = cli(['validate', '-f', 'hello.yaml', '-f', '-'], { cwd: dir, input: HELLO.replace('name: hello', 'name: again') });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^hello\.yaml:1:1: document 1: MiniCluster hpc\/hello: valid \(\d+ objects\)\n<stdin>:1:1: document 1: MiniCluster hpc\/again: valid \(\d+ objects\)\n$/);
    expect(fs.readdirSync(dir)).toEqual(['hello.yaml']);
  });

  test('an invalid input: every problem with file, document, line:column and field; exit code 1', () => {
    // GIVEN a v1alpha1 resource after a valid one, in one file
    const old = `apiVersion: flux-framework.org/v1alpha1
kind: MiniCluster
metadata:
  name: old
spec:
  containers:
    - image: ubuntu:noble
      fluxLogLevel: 7
      runFlux: "true"
`;
    const dir = workspace({ 'all.yaml': `${HELLO}---\n${old}` });
    // WHEN
    const run = cli(['validate', '-f', 'all.yaml'], { cwd: dir });
    // THEN
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'error: 3 problems; the input is invalid:',
      expect.stringMatching(/^ {2}all\.yaml:12:13: document 2 \(MiniCluster old\): apiVersion = "flux-framework\.org\/v1alpha1": v1alpha1 is not supported/),
      '  all.yaml:19:21: document 2 (MiniCluster old): spec.containers[0].fluxLogLevel = 7: unknown field: moved in v1alpha2 to spec.flux.logLevel',
      '  all.yaml:20:16: document 2 (MiniCluster old): spec.containers[0].runFlux = "true": must be true or false, got a string',
    ]);
    expect(fs.readdirSync(dir)).toEqual(['all.yaml']);
  });

  test('--help explains the command with examples', () => {
    const run = cli(['validate', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: cdk8s-minicluster validate [options]');
    expect(run.stdout).toContain('-f, --filename <file>');
    expect(run.stdout).toContain('$ cdk8s-minicluster validate -f minicluster.yaml');
  });
});

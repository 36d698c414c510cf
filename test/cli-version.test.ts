/**
 * `--version` on both command names prints the package's version, read at run time from the
 * package.json of the package the command was installed from.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const BUILD = path.join(ROOT, 'build', 'lib');
const COMMANDS = { 'cdk8s-minicluster': 'main.js', 'kubectl-minicluster': 'kubectl-minicluster.js' };
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

function run(file: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [file, ...args], { encoding: 'utf8' });
}

test.each(Object.entries(COMMANDS))('%s --version and -V print the version of package.json', (_, file) => {
  // GIVEN the built command WHEN it runs with --version THEN it prints package.json's version, exit 0
  for (const flag of ['--version', '-V']) {
    expect(run(path.join(BUILD, 'cli', file), [flag])).toMatchObject({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
  }
});

test('an installed copy prints the version of its own package.json, not one compiled in', () => {
  // GIVEN the built package laid out as npm installs it, with another version in its package.json
  const app = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-version-'));
  try {
    const installed = path.join(app, 'node_modules', 'cdk8s-minicluster');
    fs.cpSync(path.join(ROOT, 'build', 'lib'), path.join(installed, 'build', 'lib'), { recursive: true });
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    fs.writeFileSync(path.join(installed, 'package.json'), JSON.stringify({ ...pkg, version: '9.8.7-installed' }));
    // its dependencies and peer dependencies from the repository's node_modules, as npm would place them
    for (const dep of ['commander', 'yaml', 'smol-toml', 'cdk8s', 'constructs']) fs.symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(app, 'node_modules', dep));
    // WHEN each command of the copy runs with --version THEN it prints that version
    for (const file of Object.values(COMMANDS)) {
      expect(run(path.join(installed, 'build', 'lib', 'cli', file), ['--version']).stdout).toBe('9.8.7-installed\n');
    }
  } finally {
    fs.rmSync(app, { recursive: true, force: true });
  }
});

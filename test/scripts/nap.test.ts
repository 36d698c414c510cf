/**
 * nap (templates/common.sh), the pause of every wait loop of the scripts (the runner waiting for the
 * handshake, sidecars waiting for the view): it must not start a process per pause, which at 128
 * pods polling ten times a second was over a thousand processes a second on a node.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const TEMPLATES = path.join(__dirname, '..', '..', 'lib', 'scripts', 'templates');
/** The helpers nap comes with, as the rendered scripts include them (the #@@INCLUDE line is a comment to bash). */
const helpers = ['messages.sh', 'common.sh'].map((f) => fs.readFileSync(path.join(TEMPLATES, f), 'utf8')).join('\n');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'minicluster-nap-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('GIVEN a sleep on PATH that records its calls WHEN nap runs five times THEN sleep never ran, and nap returned each time', () => {
  // GIVEN a recording sleep first on PATH, and the helpers
  fs.writeFileSync(path.join(dir, 'sleep'), `#!/bin/sh\necho "$@" >> '${dir}/sleep-calls'\n`, { mode: 0o755 });
  const script = `quiet=true\nscript_name=test\n${helpers}\nfor i in 1 2 3 4 5; do nap; echo "nap $i"; done\n`;
  // WHEN
  const result = spawnSync('bash', ['-c', script], { env: { PATH: `${dir}:/usr/bin:/bin`, HOME: dir }, encoding: 'utf8' });
  // THEN
  expect(result.stderr).toBe('');
  expect(result.stdout).toBe('nap 1\nnap 2\nnap 3\nnap 4\nnap 5\n');
  expect(fs.existsSync(path.join(dir, 'sleep-calls'))).toBe(false);
});

test('GIVEN strict mode (set -eEu -o pipefail) WHEN nap times out THEN the script goes on', () => {
  const result = spawnSync('bash', ['-c', `set -eEu -o pipefail\nquiet=true\nscript_name=test\n${helpers}\nnap\nnap\necho after\necho "still on stderr" >&2`], { env: { PATH: '/usr/bin:/bin', HOME: dir }, encoding: 'utf8' });
  expect(result.status).toBe(0);
  expect(result.stdout).toBe('after\n');
  // AND the script's stderr is still its own (a redirection on `exec` would have kept it on /dev/null)
  expect(result.stderr).toBe('still on stderr\n');
});

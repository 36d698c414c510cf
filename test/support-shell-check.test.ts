import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkBashSyntax, checkShellScript, expectCleanShellScript, testWithShellcheck } from './support/shell-check';

const clean = `#!/usr/bin/env bash
set -euo pipefail
hosts="\${1:-flux-sample-0}"
for host in \${hosts//,/ }; do
  printf '%s\\n' "$host"
done
if [ -n "\${FLUX_URI:-}" ]; then
  echo "uri: \${FLUX_URI}"
fi
`;

describe('checkShellScript', () => {
  testWithShellcheck('a clean script has no findings', () => {
    expect(checkShellScript('entrypoint.sh', clean)).toEqual([]);
    expect(() => expectCleanShellScript('entrypoint.sh', clean)).not.toThrow();
  });

  testWithShellcheck('a syntax error is reported with its line by bash -n', () => {
    // GIVEN an if without fi
    const script = '#!/usr/bin/env bash\nif true; then\n  echo yes\n';
    // THEN bash -n names the line where parsing failed, and shellcheck reports its parse error too
    const [first, ...rest] = checkShellScript('broken.sh', script);
    expect(first).toMatch(/^broken\.sh:4: bash -n error: syntax error: unexpected end of file/);
    expect(rest.length).toBeGreaterThan(0);
    for (const finding of rest) expect(finding).toMatch(/^broken\.sh:[2-4]:\d+: shellcheck error SC1\d{3}: /);
  });

  testWithShellcheck('unquoted variables that shellcheck rates as warnings are reported with line and column', () => {
    // GIVEN an unquoted variable in `rm -rf $dir/*` (SC2115) and an unquoted split into an array (SC2206)
    const script = '#!/usr/bin/env bash\ndir=$1\nrm -rf $dir/*\nhosts=($2)\necho "${hosts[@]}"\n';
    // THEN both are warnings at their exact positions
    expect(checkShellScript('cleanup.sh', script)).toEqual([
      expect.stringMatching(/^cleanup\.sh:3:8: shellcheck warning SC2115: Use "\$\{var:\?\}"/),
      expect.stringMatching(/^cleanup\.sh:4:8: shellcheck warning SC2206: Quote to prevent word splitting/),
    ]);
  });

  testWithShellcheck('style-level findings (below warning) are not reported', () => {
    // SC2086 (unquoted expansion) is "info" level: outside the agreed severity.
    expect(checkShellScript('info.sh', '#!/usr/bin/env bash\nx="a b"\necho $x\n')).toEqual([]);
  });

  testWithShellcheck('expectCleanShellScript lists every finding', () => {
    const script = '#!/usr/bin/env bash\ncd /tmp\nread line\nrm -rf $HOME/$unset/*\n';
    // SC2164 (cd), SC2034 (unused line), SC2115 (rm of an unquoted path), SC2154 (unassigned var)
    expect(() => expectCleanShellScript('multi.sh', script)).toThrow(
      /^4 shell finding\(s\) in multi\.sh:\n {2}multi\.sh:2:1: .*SC2164.*\n {2}multi\.sh:3:6: .*SC2034.*\n {2}multi\.sh:4:8: .*SC2115.*\n {2}multi\.sh:4:14: .*SC2154/,
    );
  });

  test('bash -n alone (no shellcheck needed) reports a syntax error with its line, and nothing for a clean script', () => {
    expect(checkBashSyntax('entrypoint.sh', clean)).toEqual([]);
    expect(checkBashSyntax('broken.sh', '#!/usr/bin/env bash\nif true; then\n  echo yes\n')).toEqual([
      expect.stringMatching(/^broken\.sh:4: bash -n error: syntax error: unexpected end of file/),
    ]);
  });

  test('a missing shellcheck is an error when a check is called, not a silent pass', () => {
    // GIVEN a PATH holding only bash
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-shellcheck-'));
    const bash = fs.realpathSync(execFileSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim());
    fs.symlinkSync(bash, path.join(dir, 'bash'));
    const saved = process.env.PATH;
    process.env.PATH = dir;
    try {
      // THEN the check throws with the install hint
      expect(() => checkShellScript('entrypoint.sh', clean)).toThrow('shellcheck is not installed: run `apt-get update && apt-get install -y shellcheck`');
    } finally {
      process.env.PATH = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * API.md is what `npm run docgen` writes from the current sources (jsii-docgen, TypeScript and
 * Python): like dist/, it is committed, and this test fails when it is stale.
 */
import * as fs from 'fs';
import * as path from 'path';

// tools/ is plain JavaScript (run by npm scripts); the same generator as `npm run docgen`.
const { generate, API_MD } = require('../tools/docgen') as { generate: () => Promise<string>; API_MD: string };

describe('API.md', () => {
  let generated: string;
  beforeAll(async () => {
    generated = await generate();
  }, 180_000);

  test('is current: `npm run docgen` writes exactly the committed API.md', () => {
    const committed = fs.readFileSync(API_MD, 'utf8');
    if (committed !== generated) {
      // name the first line that differs, not a 400 KB diff
      const a = committed.split('\n');
      const b = generated.split('\n');
      const i = a.findIndex((line, k) => line !== b[k]);
      throw new Error(`API.md is stale: run \`npm run docgen\` (first difference at line ${i + 1}:\n  committed: ${a[i]}\n  generated: ${b[i]})`);
    }
  });

  test('has TypeScript and Python, each with every construct, and Python links lead to Python entries', () => {
    const [, typescript, python] = generated.split(/^# (?:TypeScript|Python)$/m);
    for (const construct of ['MiniCluster', 'CurveCertJob', 'FluxBrokerConfig']) {
      expect(typescript).toContain(`id="cdk8s-minicluster.${construct}"`);
      expect(python).toContain(`id="python.cdk8s-minicluster.${construct}"`);
    }
    expect(typescript).toContain("import { MiniCluster } from 'cdk8s-minicluster'");
    expect(python).toContain('import cdk8s_minicluster');
    expect(python).not.toMatch(/href="#cdk8s-minicluster\./);
    expect(path.basename(API_MD)).toBe('API.md');
  });
});

import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as nacl from 'tweetnacl';
import { parse } from 'yaml';
import { parseCurveCert, z85Decode } from '../../lib/cert';
import { expectValidManifests } from '../support/k8s-validate';

const MAIN_JS = path.resolve(__dirname, '..', '..', 'build', 'lib', 'cli', 'main.js');

function cli(...args: string[]) {
  if (!fs.existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run 'npm run build' first`);
  const result = spawnSync(process.execPath, [MAIN_JS, ...args], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function expectKeyPairMatches(certText: string) {
  const cert = parseCurveCert(certText);
  expect(Buffer.from(nacl.scalarMult.base(z85Decode(cert.secretKey))).equals(Buffer.from(z85Decode(cert.publicKey)))).toBe(true);
  return cert;
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cli-cert-'));

describe('cdk8s-minicluster cert', () => {
  test('prints a fresh, valid certificate; each run makes a new key', () => {
    const first = cli('cert');
    const second = cli('cert', '--cluster', 'demo');
    expect([first.code, first.stderr, second.code, second.stderr]).toEqual([0, '', 0, '']);
    expect(expectKeyPairMatches(first.stdout).metadata).toEqual({ name: 'flux' });
    expect(expectKeyPairMatches(second.stdout).metadata).toEqual({ name: 'demo' });
    expect(parseCurveCert(first.stdout).secretKey).not.toBe(parseCurveCert(second.stdout).secretKey);
    expect(expectKeyPairMatches(cli('cert', '--cluster', 'demo', '--name', 'other').stdout).name).toBe('other');
  });

  test('--secret prints a Secret manifest with the certificate under curve.cert', () => {
    const { code, stdout, stderr } = cli('cert', '--secret', 'demo-curve', '--namespace', 'hpc', '--cluster', 'demo');
    expect([code, stderr]).toEqual([0, '']);
    const secret = parse(stdout);
    expect(secret).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'demo-curve',
        namespace: 'hpc',
        labels: {
          'app.kubernetes.io/component': 'curve-cert',
          'app.kubernetes.io/instance': 'demo',
          'app.kubernetes.io/managed-by': 'cdk8s-minicluster',
          'app.kubernetes.io/name': 'minicluster',
        },
      },
      type: 'Opaque',
      immutable: true,
      data: { 'curve.cert': expect.any(String) },
    });
    expect(expectKeyPairMatches(Buffer.from(secret.data['curve.cert'], 'base64').toString('utf8')).name).toBe('demo');
    expectValidManifests([secret]);
    expect(parse(cli('cert', '--secret', 'plain').stdout).metadata).toEqual({ name: 'plain' });
  });

  test('-o writes a 0600 file, refuses to replace it, and --force replaces it (back to 0600)', () => {
    const file = path.join(tmp(), 'demo-curve.yaml');
    const written = cli('cert', '--secret', 'demo-curve', '-o', file);
    expect(written).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const original = fs.readFileSync(file, 'utf8');
    expect(parse(original).kind).toBe('Secret');

    const refused = cli('cert', '-o', file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`error: cannot write ${file}: it exists (use --force to replace it with a new certificate)\n`);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);

    fs.chmodSync(file, 0o644);
    expect(cli('cert', '-o', file, '--force').code).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expectKeyPairMatches(fs.readFileSync(file, 'utf8'));
  });

  test('invalid options are reported all at once, and nothing is printed', () => {
    const { code, stdout, stderr } = cli('cert', '--secret', 'Bad_Name', '--namespace', 'Hpc', '--cluster', 'x.y', '--name', 'a_b', '--force');
    expect([code, stdout]).toEqual([1, '']);
    expect(stderr.split('\n')).toEqual([
      'error: invalid options:',
      "  - --secret 'Bad_Name' must be a DNS-1123 subdomain (lower-case letters, digits, '-' and '.')",
      "  - --namespace 'Hpc' must be a DNS-1123 label (lower-case letters, digits and '-', at most 63)",
      "  - --cluster 'x.y' must be a DNS-1123 label (lower-case letters, digits and '-', at most 63)",
      '  - --force needs -o/--output',
      "  - --name: '_' (U+005F) at position 2 is not allowed (allowed: A-Z a-z 0-9, space, tab and .-:+=^!/*?&<>()[]{}@%$#)",
      '',
    ]);
    expect(cli('cert', '--namespace', 'hpc').stderr).toContain('--namespace needs --secret');
  });

  test('--help documents the command with examples; the top level lists it', () => {
    const help = cli('cert', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: cdk8s-minicluster cert [options]');
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('$ cdk8s-minicluster cert --secret demo-curve --namespace hpc --cluster demo | kubectl create -f -');
    expect(cli('--help').stdout).toMatch(/Commands:\n\s+cert \[options\]/);
  });

  test('package.json ships the CLI as the cdk8s-minicluster bin and the kubectl plugin kubectl-minicluster, with a node shebang', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ 'cdk8s-minicluster': 'build/lib/cli/main.js', 'kubectl-minicluster': 'build/lib/cli/kubectl-minicluster.js' });
    expect(fs.readFileSync(MAIN_JS, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(fs.readFileSync(path.join(path.dirname(MAIN_JS), 'kubectl-minicluster.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});

/** The CURVE certificate Secret a run needs, made as docs/production.md tells users to. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const CLI = path.resolve(__dirname, '..', 'lib', 'cli', 'main.js');

/**
 * Writes `<dir>/curve-secret.yaml`, a Secret `secret` with a new certificate for MiniCluster
 * `cluster`, with `cdk8s-minicluster cert`, replacing an earlier one; returns its path.
 */
export function certificateSecret(dir: string, to: { secret: string; cluster: string; namespace?: string }): string {
  const file = path.join(dir, 'curve-secret.yaml');
  fs.rmSync(file, { force: true });
  const namespace = to.namespace === undefined ? [] : ['--namespace', to.namespace];
  const r = spawnSync(process.execPath, [CLI, 'cert', '--secret', to.secret, ...namespace, '--cluster', to.cluster, '-o', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cdk8s-minicluster cert failed: ${r.stderr}`);
  return file;
}

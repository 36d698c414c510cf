/**
 * certgen: run once in the cluster by CurveCertJob (`node /program/certgen.js`). Creates the
 * MiniCluster's CURVE certificate Secret if it does not exist; exits non-zero with a clear message
 * on any failure. Logs never contain key material.
 */
import { ConfigError, readConfig } from './config';
import { CertgenError, ensureCertificateSecret } from './ensure-secret';
import { KubeApiUnreachable } from '../shared/kube-api';

async function main(): Promise<number> {
  try {
    const config = readConfig(process.env);
    await ensureCertificateSecret(config, (line) => process.stdout.write(`certgen: ${line}\n`));
    return 0;
  } catch (e) {
    const known = e instanceof ConfigError || e instanceof CertgenError || e instanceof KubeApiUnreachable;
    // Unknown errors print only their message: a stack or inspected object could hold key bytes.
    process.stderr.write(`certgen: error: ${known ? '' : 'unexpected: '}${(e as Error).message}\n`);
    return 1;
  }
}

void main().then((code) => {
  process.exitCode = code;
});

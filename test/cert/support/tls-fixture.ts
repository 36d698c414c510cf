/**
 * Throw-away certificate authorities and a server certificate for 127.0.0.1, made with the
 * `openssl` binary (Node cannot issue X.509 certificates). Tests that need them skip visibly when
 * openssl is missing.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Requirement } from '../../support/requires';

export interface TlsFixture {
  readonly dir: string;
  /** PEM of the CA that signed the server certificate. */
  readonly caCert: Buffer;
  /** PEM of an unrelated CA (for verification-failure tests). */
  readonly otherCaCert: Buffer;
  readonly serverKey: Buffer;
  readonly serverCert: Buffer;
}

export const OPENSSL: Requirement = {
  met: spawnSync('openssl', ['version']).status === 0,
  why: 'the openssl binary is needed to make test certificates: `apt-get install -y openssl`',
};

const CONFIG = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1
authorityKeyIdentifier = keyid
`;

export function makeTlsFixture(): TlsFixture {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'certgen-tls-'));
  const file = (name: string) => path.join(dir, name);
  fs.writeFileSync(file('openssl.cnf'), CONFIG);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const cnf = ['-config', file('openssl.cnf')];
  for (const ca of ['ca', 'other-ca']) {
    openssl(['req', '-x509', ...cnf, '-extensions', 'ca', ...ec, '-keyout', file(`${ca}.key`), '-out', file(`${ca}.crt`), '-days', '2', '-subj', `/CN=${ca}`]);
  }
  openssl(['req', '-new', ...cnf, ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=kubernetes']);
  openssl(['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-set_serial', '2', '-days', '2',
    '-extfile', file('openssl.cnf'), '-extensions', 'server', '-out', file('server.crt')]);
  return {
    dir,
    caCert: fs.readFileSync(file('ca.crt')),
    otherCaCert: fs.readFileSync(file('other-ca.crt')),
    serverKey: fs.readFileSync(file('server.key')),
    serverCert: fs.readFileSync(file('server.crt')),
  };
}

function openssl(args: string[]): void {
  const result = spawnSync('openssl', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${result.stderr}`);
}

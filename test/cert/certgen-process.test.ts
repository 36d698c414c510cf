import * as net from 'net';
import * as nacl from 'tweetnacl';
import { createCurveCert, parseCurveCert, z85Decode } from '../../lib/cert';
import { FakeKubeApi, FakeResponse, RecordedRequest, Responder, status } from './support/fake-kube-api';
import { ProcessResult, runCertgen, serviceAccountDir } from './support/run-certgen';
import { OPENSSL, TlsFixture, makeTlsFixture } from './support/tls-fixture';
import { describeIf } from '../support/requires';

const NAMESPACE = 'flux-ns';
const SECRET = 'demo-curve';
const TOKEN = 'sa-token-4f9c';
const SECRET_PATH = `/api/v1/namespaces/${NAMESPACE}/secrets/${SECRET}`;
const COLLECTION_PATH = `/api/v1/namespaces/${NAMESPACE}/secrets`;
const LABELS = { 'app.kubernetes.io/instance': 'demo', 'app.kubernetes.io/component': 'curve-cert' };

const notFound = status(404, 'NotFound', `secrets "${SECRET}" not found`);
const echoCreated = (r: RecordedRequest): FakeResponse => ({ status: 201, body: r.body });
const secretWith = (data: { [key: string]: string }): FakeResponse => ({
  status: 200,
  body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: SECRET, namespace: NAMESPACE }, type: 'Opaque', data },
});

/** Routes GET of the Secret and POST to the collection; anything else is a 500 the test would see. */
function routes(onGet: FakeResponse | undefined, onPost: (r: RecordedRequest) => FakeResponse | undefined = echoCreated): Responder {
  return (r) => {
    if (r.method === 'GET' && r.path === SECRET_PATH) return onGet;
    if (r.method === 'POST' && r.path === COLLECTION_PATH) return onPost(r);
    return status(500, 'InternalError', `unexpected ${r.method} ${r.path}`);
  };
}

/** Every substring of 8 characters of `secret` that could betray it in logs. */
function expectNoLeak(result: ProcessResult, ...secrets: string[]): void {
  const output = result.stdout + result.stderr;
  for (const s of secrets) {
    for (let i = 0; i + 8 <= s.length; i += 4) expect(output).not.toContain(s.slice(i, i + 8));
  }
}


describeIf(OPENSSL, 'certgen program (real process, fake API server over HTTPS)', () => {
  let tls: TlsFixture;
  let api: FakeKubeApi | undefined;
  beforeAll(() => {
    tls = makeTlsFixture();
  });
  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });

  async function run(responder: Responder, overrides: { [name: string]: string } = {}, ca?: Buffer): Promise<ProcessResult> {
    api = await FakeKubeApi.start(tls.serverKey, tls.serverCert, responder);
    return runCertgen({
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: String(api.port),
      CERTGEN_SERVICE_ACCOUNT_DIR: serviceAccountDir(TOKEN, ca ?? tls.caCert, NAMESPACE),
      CERTGEN_SECRET_NAME: SECRET,
      CERTGEN_CERT_NAME: 'demo',
      CERTGEN_SECRET_LABELS: JSON.stringify(LABELS),
      ...overrides,
    });
  }

  test('creates the Secret when it is absent: exact requests, a valid certificate, no key in the logs', async () => {
    // WHEN the Secret does not exist
    const result = await run(routes(notFound));
    // THEN one GET then one POST, both with the service account token
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(`certgen: created Secret ${NAMESPACE}/${SECRET} (key curve.cert)\n`);
    expect(api!.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['GET', SECRET_PATH, `Bearer ${TOKEN}`],
      ['POST', COLLECTION_PATH, `Bearer ${TOKEN}`],
    ]);
    const post = api!.requests[1];
    expect(post.contentType).toBe('application/json');
    const body = post.body as { data: { [key: string]: string } };
    expect(body).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: SECRET, namespace: NAMESPACE, labels: LABELS },
      type: 'Opaque',
      immutable: true,
      data: { 'curve.cert': expect.any(String) },
    });
    // AND the certificate parses, is named for the cluster, and its public key is curve25519(secret)
    const text = Buffer.from(body.data['curve.cert'], 'base64').toString('utf8');
    const cert = parseCurveCert(text);
    expect(cert.metadata).toEqual({ name: 'demo' });
    expect(Buffer.from(nacl.scalarMult.base(z85Decode(cert.secretKey))).equals(Buffer.from(z85Decode(cert.publicKey)))).toBe(true);
    expectNoLeak(result, cert.secretKey, cert.publicKey, body.data['curve.cert']);
  });

  test('leaves an existing Secret alone: GET 200, no POST', async () => {
    const existing = createCurveCert({ name: 'demo' });
    const encoded = Buffer.from(existing).toString('base64');
    const result = await run(routes(secretWith({ 'curve.cert': encoded })));
    expect(result).toEqual({
      code: 0,
      stdout: `certgen: Secret ${NAMESPACE}/${SECRET} already exists with a valid certificate; leaving it unchanged\n`,
      stderr: '',
    });
    expect(api!.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${SECRET_PATH}`]);
    const cert = parseCurveCert(existing);
    expectNoLeak(result, cert.secretKey, encoded);
  });

  test('an existing Secret without the certificate key, or with an invalid certificate, fails without overwriting', async () => {
    const noKey = await run(routes(secretWith({ other: 'eA==' })));
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toBe(
      `certgen: error: Secret ${NAMESPACE}/${SECRET} exists but has no 'curve.cert' key; this job never overwrites a Secret: delete it, or store a certificate under that key\n`,
    );
    expect(api!.requests.map((r) => r.method)).toEqual(['GET']);
    await api!.stop();

    const good = parseCurveCert(createCurveCert({ name: 'demo' }));
    const broken = `curve\n    public-key = "${good.publicKey}"\n    secret-key = "${good.secretKey}"\n`;
    const invalid = await run(routes(secretWith({ 'curve.cert': Buffer.from(broken).toString('base64') })));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain(`Secret ${NAMESPACE}/${SECRET} exists but its 'curve.cert' is not a valid Flux CURVE certificate`);
    expect(invalid.stderr).toContain("  - no 'name' entry in the 'metadata' section");
    expect(api!.requests.map((r) => r.method)).toEqual(['GET']);
    expectNoLeak(invalid, good.secretKey);
  });

  test('409 AlreadyExists on create (a concurrent run won the race) counts as success', async () => {
    const result = await run(routes(notFound, () => status(409, 'AlreadyExists', `secrets "${SECRET}" already exists`)));
    expect(result).toEqual({
      code: 0,
      stdout: `certgen: Secret ${NAMESPACE}/${SECRET} was created by someone else meanwhile (409 AlreadyExists); leaving it unchanged\n`,
      stderr: '',
    });
    expect(api!.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
  });

  test('403 on get names the missing get permission and does not try to create', async () => {
    const result = await run(routes(status(403, 'Forbidden', `secrets "${SECRET}" is forbidden: User "system:serviceaccount:${NAMESPACE}:x" cannot get resource "secrets"`)));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `certgen: error: GET ${SECRET_PATH}: 403 Forbidden: the service account is not allowed to get secrets/${SECRET} in namespace ${NAMESPACE} ` +
        `(Role rule: apiGroups [""], resources [secrets], verbs [get], resourceNames [${SECRET}]): secrets "${SECRET}" is forbidden: ` +
        `User "system:serviceaccount:${NAMESPACE}:x" cannot get resource "secrets"\n`,
    );
    expect(api!.requests).toHaveLength(1);
  });

  test('403 on create names the missing create permission', async () => {
    const result = await run(routes(notFound, () => status(403, 'Forbidden', 'cannot create resource "secrets"')));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `certgen: error: POST ${COLLECTION_PATH}: 403 Forbidden: the service account is not allowed to create secrets in namespace ${NAMESPACE} ` +
        '(Role rule: apiGroups [""], resources [secrets], verbs [create]): cannot create resource "secrets"\n',
    );
  });

  test('401 and unexpected statuses fail with the status and the server message', async () => {
    const unauthorized = await run(routes(status(401, 'Unauthorized', 'Unauthorized')));
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr).toBe(`certgen: error: GET ${SECRET_PATH}: 401 Unauthorized: the API server rejected the service account token: Unauthorized\n`);
    await api!.stop();
    const broken = await run(routes(notFound, () => ({ status: 500, body: 'not json' })));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe(`certgen: error: POST ${COLLECTION_PATH}: unexpected HTTP 500\n`);
  });

  test('connection refused fails clearly', async () => {
    // GIVEN a port nobody listens on (bound, then released)
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    // WHEN
    const result = await run(routes(notFound), { KUBERNETES_SERVICE_PORT: String(port) });
    // THEN
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^certgen: error: GET https://127\\.0\\.0\\.1:${port}${SECRET_PATH}: cannot reach the Kubernetes API \\(ECONNREFUSED: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)\\n$`));
  });

  test('a server certificate from another CA fails TLS verification; nothing is sent', async () => {
    const result = await run(routes(notFound), {}, tls.otherCaCert);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^certgen: error: GET https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/flux-ns\/secrets\/demo-curve: the API server's TLS certificate failed verification against the CA in \/.+\/ca\.crt \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY): /);
    expect(api!.requests).toEqual([]);
  });

  test('a request that gets no answer is bounded by the request timeout', async () => {
    const result = await run(routes(undefined), { CERTGEN_REQUEST_TIMEOUT_SECONDS: '0.5' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`certgen: error: GET https://127.0.0.1:${api!.port}${SECRET_PATH}: no complete response within 0.5 s (request timed out)\n`);
  });

  test('missing and invalid configuration is reported all at once', async () => {
    const result = await runCertgen({ KUBERNETES_SERVICE_PORT: 'https', CERTGEN_SECRET_LABELS: '["a"]', CERTGEN_REQUEST_TIMEOUT_SECONDS: '-1', CERTGEN_SERVICE_ACCOUNT_DIR: '/nonexistent' });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'certgen: error: invalid configuration:',
      '  - environment variable KUBERNETES_SERVICE_HOST is not set',
      "  - KUBERNETES_SERVICE_PORT must be a port number (1-65535), got 'https'",
      '  - environment variable CERTGEN_SECRET_NAME is not set',
      '  - environment variable CERTGEN_CERT_NAME is not set',
      '  - CERTGEN_SECRET_LABELS must be a JSON object of string values',
      "  - CERTGEN_REQUEST_TIMEOUT_SECONDS must be a positive number of seconds, got '-1'",
      '  - cannot read the service account token at /nonexistent/token (ENOENT); is automountServiceAccountToken true on the pod?',
      '  - cannot read the service account ca.crt at /nonexistent/ca.crt (ENOENT); is automountServiceAccountToken true on the pod?',
      '  - cannot read the service account namespace at /nonexistent/namespace (ENOENT); is automountServiceAccountToken true on the pod?',
      '',
    ]);
  });
});

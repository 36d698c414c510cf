import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readConfig } from '../../lib/runtime/autoscale/config';
import { JobApiError, jobApi } from '../../lib/runtime/autoscale/job-api';
import { FakeKubeApi, RecordedRequest, status } from '../cert/support/fake-kube-api';
import { OPENSSL, TlsFixture, makeTlsFixture } from '../cert/support/tls-fixture';
import { describeIf } from '../support/requires';

const JOB_PATH = '/apis/batch/v1/namespaces/hpc/jobs/flux-auto';

describeIf(OPENSSL, 'the autoscaler\'s API calls over TLS (the runtime programs\' one client)', () => {
  let tls: TlsFixture;
  let api: FakeKubeApi;
  let tokenDir: string;
  beforeAll(() => {
    tls = makeTlsFixture();
  });
  beforeEach(async () => {
    api = await FakeKubeApi.start(tls.serverKey, tls.serverCert, (r: RecordedRequest) =>
      r.path !== JOB_PATH ? status(404, 'NotFound', 'not found')
        : r.method === 'PATCH' && r.authorization !== 'Bearer second' ? status(403, 'Forbidden', 'jobs.batch "flux-auto" is forbidden')
          : { status: 200, body: { kind: 'Job', metadata: { name: 'flux-auto' } } });
    tokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autoscale-tls-'));
    fs.writeFileSync(path.join(tokenDir, 'token'), 'first\n');
    fs.writeFileSync(path.join(tokenDir, 'ca.crt'), tls.caCert);
  });
  afterEach(async () => {
    await api.stop();
    fs.rmSync(tokenDir, { recursive: true, force: true });
  });

  const client = () => jobApi(readConfig({
    AUTOSCALE_JOB_NAME: 'flux-auto', AUTOSCALE_NAMESPACE: 'hpc', AUTOSCALE_MIN_SIZE: '1', AUTOSCALE_MAX_SIZE: '4', AUTOSCALE_IDLE_SECONDS: '30',
    AUTOSCALE_PERIOD_SECONDS: '2', AUTOSCALE_TOKEN_DIR: tokenDir, JOB_COMPLETION_INDEX: '0',
    KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(api.port),
  }));

  test('reads the projected token at every call, and patches as a JSON merge patch', async () => {
    // GIVEN the API server over TLS, signed by the CA in the projected volume
    const jobs = client();
    // WHEN it gets the Job, the kubelet rotates the token, then it patches
    await expect(jobs.get()).resolves.toEqual({ kind: 'Job', metadata: { name: 'flux-auto' } });
    fs.writeFileSync(path.join(tokenDir, 'token'), 'second\n');
    await jobs.patch({ spec: { parallelism: 3, completions: 3 } });
    // THEN each request carried the token of its time, and the patch is a merge patch
    expect(api.requests.map((r) => [r.method, r.path, r.authorization, r.contentType ?? null])).toEqual([
      ['GET', JOB_PATH, 'Bearer first', null],
      ['PATCH', JOB_PATH, 'Bearer second', 'application/merge-patch+json'],
    ]);
    expect(api.requests[1].body).toEqual({ spec: { parallelism: 3, completions: 3 } });
  });

  test("a refusal is an error with the API server's status and message", async () => {
    const refused = client().patch({ spec: { parallelism: 3 } });
    await expect(refused).rejects.toThrow(JobApiError);
    await expect(client().patch({})).rejects.toThrow(`PATCH https://127.0.0.1:${api.port}${JOB_PATH}: 403 jobs.batch "flux-auto" is forbidden`);
  });

  test('a server certificate of another authority is refused, naming the CA file', async () => {
    // GIVEN a CA in the projected volume that did not sign the server's certificate
    fs.writeFileSync(path.join(tokenDir, 'ca.crt'), tls.otherCaCert);
    // WHEN it gets the Job THEN TLS fails, and nothing reached the server's handler
    await expect(client().get()).rejects.toThrow(`failed verification against the CA in ${path.join(tokenDir, 'ca.crt')}`);
    expect(api.requests).toEqual([]);
  });

  test('a token that cannot be read fails the call with the reason, before any request', async () => {
    fs.rmSync(path.join(tokenDir, 'token'));
    await expect(client().get()).rejects.toThrow(/GET https:\/\/127\.0\.0\.1:\d+\/apis\/batch\/v1\/namespaces\/hpc\/jobs\/flux-auto: ENOENT/);
    expect(api.requests).toEqual([]);
  });
});

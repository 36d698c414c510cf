/**
 * The e2e upgrade case without a real cluster: its manifests checked by the real `check -o json`
 * against the local API server at the versions a GitOps user meets, judged by the case's own rule.
 */
import * as fs from 'fs';
import { allCases } from '../e2e/cases';
import { UPGRADE_FROM, upgradeCheckShows } from '../e2e/cases/versions';
import { KubeApiServer, tempDir } from './support/kube-api-server';
import { kubeDnsService, namespace, node } from './support/kube-objects';
import { runCli } from './support/run-cli';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

beforeEach(async () => {
  server = new KubeApiServer();
  await server.start();
  dir = tempDir('e2e-upgrade-');
  kubeconfig = server.kubeconfig(dir, 'default');
  server.put('nodes', node('node-0', { cpu: '16', memory: '64Gi' }));
  server.put('services', kubeDnsService());
  for (const ns of ['default', 'kube-system']) server.put('namespaces', namespace(ns));
});

afterEach(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const upgrade = () => allCases().cases.find((c) => c.id.startsWith('upgrade: '))!;
const from = Number(UPGRADE_FROM.split('.')[1]);

/** The upgrade case's `check -o json` against a server of `minor`. */
async function checked(minor: number): Promise<any> {
  server.version = { major: '1', minor: String(minor), gitVersion: `v1.${minor}.2` };
  const [file] = upgrade().synth(dir);
  const step = upgrade().day2!.beforeApply![0];
  const r = await runCli(step.args.map((a) => (a === '{manifests}' ? file : a)), { kubeconfig, home: dir });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

test('GIVEN the upgrade case THEN its YAML targets 1.34, it expects hello world, and podemu skips it (no API server)', () => {
  const c = upgrade();
  const [file] = c.synth(dir);
  expect(fs.readFileSync(file, 'utf8')).toContain(`flux-framework.org/kubernetes-version: "${UPGRADE_FROM}"`);
  expect(c.expect).toMatchObject({ result: 'Succeeded', leadOutputExactly: 'hello world' });
  expect(c.podemu?.skip).toMatch(/API server/);
});

test.each([from, from + 1])('GIVEN a server of 1.%s WHEN the 1.34 YAML is checked THEN it runs without a version finding, and the case finds nothing wrong', async (minor) => {
  const doc = await checked(minor);
  expect(doc.findings.filter((f: any) => f.rule === 'server-version')).toEqual([]);
  expect(upgradeCheckShows(from)(doc)).toEqual([]);
});

test.each([from + 2, from + 3])('GIVEN a server of 1.%s (upgraded twice or more) WHEN the 1.34 YAML is checked THEN one skew warning, it still runs, and the case finds nothing wrong', async (minor) => {
  const doc = await checked(minor);
  expect(doc.result).toBe('Runs');
  expect(doc.findings.map((f: any) => `${f.severity} ${f.rule}`)).toEqual(['warning server-version']);
  expect(upgradeCheckShows(from)(doc)).toEqual([]);
});

test('GIVEN check reports that do not hold THEN the case names what is wrong', async () => {
  const doc = await checked(from + 3);
  const judge = upgradeCheckShows(from);
  // WHEN the skew warning is missing on a server three minors newer
  expect(judge({ ...doc, findings: [] })).toEqual([`the server is 3 minors newer than the target 1.${from}: expected one server-version warning, got 0`]);
  // WHEN a warning appears where the lag is one minor, or the output would not run
  const near = { ...doc, server: { ...doc.server, version: `v1.${from + 1}.0` } };
  expect(judge(near)[0]).toMatch(/^the server is 1 minor\(s\) from the target 1\.34: expected no server-version finding, got: the server is v1\.37\.2/);
  const error = { rule: 'job-feature', severity: 'error', message: 'uses x' };
  expect(judge({ ...doc, result: 'WouldNotRun', findings: [...doc.findings, error] })).toEqual(['result WouldNotRun, expected Runs', 'error [job-feature] uses x']);
  expect(judge({ ...doc, server: { version: null } })).toEqual(['server.version null, expected v1.N']);
});

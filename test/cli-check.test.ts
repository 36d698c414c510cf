/**
 * `check -f FILE...` as a real process of both command names, against the local API server of the
 * day-2 tests: one test per kind of finding, a cluster that runs the output, and the exit codes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { parseAllDocuments, stringify } from 'yaml';
import { BrokersPerNode, MiniCluster, MiniClusterProps, ZonePlacement } from '../lib';
import { KubeApiServer, tempDir } from './support/kube-api-server';
import { distFile, existing, kubeDnsService, namespace, node } from './support/kube-objects';
import { CliRun, runCli } from './support/run-cli';

let server: KubeApiServer;
let dir: string;
let kubeconfig: string;

function check(args: string[], o: { main?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  return runCli(['check', ...args], { kubeconfig, home: dir, ...o });
}

/** The findings of `check -o json`. */
async function findings(file: string): Promise<{ code: number | null; report: any; rules: string[] }> {
  const r = await check(['-f', file, '-o', 'json']);
  const report = JSON.parse(r.stdout);
  return { code: r.code, report, rules: report.findings.map((f: any) => `${f.severity} ${f.rule} ${f.object}`) };
}

/** A cluster that runs every example: Kubernetes 1.35, two 16-CPU nodes on containerd 2.1, CoreDNS, the namespaces. */
function healthyCluster(): void {
  server.version = { major: '1', minor: '35', gitVersion: 'v1.35.1', platform: 'linux/amd64' };
  server.put('nodes', node('node-0', { cpu: '16', memory: '64Gi' }));
  server.put('nodes', node('node-1', { cpu: '16', memory: '64Gi' }));
  server.put('services', kubeDnsService());
  for (const ns of ['default', 'hpc', 'kube-system']) server.put('namespaces', namespace(ns));
}

/** A copy of a dist/ example with `change` applied to its objects. */
function changed(example: string, change: (docs: any[]) => any[]): string {
  const docs = parseAllDocuments(fs.readFileSync(distFile(example), 'utf8')).map((d) => d.toJS());
  const file = path.join(dir, `${example}.yaml`);
  fs.writeFileSync(file, change(docs).map((d) => stringify(d)).join('---\n'));
  return file;
}

/** hello world synthesized with `props`, written to a file of its own. */
function synthesized(file: string, props: Partial<MiniClusterProps>): string {
  const chart = new Chart(Testing.app(), 'placement', { namespace: 'default' });
  new MiniCluster(chart, 'flux-sample', { size: 4, containers: [{ image: 'ubuntu:noble', command: 'hostname' }], ...props });
  const out = path.join(dir, `${file}.yaml`);
  fs.writeFileSync(out, Testing.synth(chart).map((d) => stringify(d)).join('---\n'));
  return out;
}

beforeEach(async () => {
  server = new KubeApiServer();
  await server.start();
  dir = tempDir('cli-check-');
  kubeconfig = server.kubeconfig(dir, 'default');
});

afterEach(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a cluster that can run it: exit 0, one summary line; reads only, and never the certificate Secret the cert Job makes', async () => {
  // GIVEN a healthy cluster
  healthyCluster();
  // WHEN hello world is checked, with both command names
  for (const main of [false, true]) {
    const r = await check(['-f', distFile('hello-world')], { main });
    // THEN it would run
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`default/Job/flux-sample would run on ${server.url} (Kubernetes v1.35.1)\n`);
    expect(r.code).toBe(0);
  }
  // only GET and LIST; the Secret flux-sample-curve is created by Job/flux-sample-curve-cert, so not looked up
  expect(new Set(server.requests.map((q) => q.verb))).toEqual(new Set(['get', 'list']));
  expect(server.requests.filter((q) => q.resource === 'secrets')).toEqual([]);
  const { code, report } = await findings(distFile('hello-world'));
  expect(code).toBe(0);
  expect(report).toEqual({
    apiVersion: 'cdk8s-minicluster/v1',
    kind: 'MiniClusterCheck',
    server: { url: server.url, version: 'v1.35.1' },
    files: [distFile('hello-world')],
    clusters: [{ job: 'flux-sample', namespace: 'default', kubernetesVersion: '1.35', size: 4, maxSize: 4 }],
    result: 'Runs',
    findings: [],
  });
});

test('a node whose container runtime cannot mount image volumes (containerd 1.7.22) is named, with the fix', async () => {
  healthyCluster();
  server.put('nodes', node('node-old', { runtime: 'containerd://1.7.22' }));
  server.put('nodes', node('node-crio', { runtime: 'cri-o://1.33.2' }));
  server.put('nodes', node('node-docker', { runtime: 'docker://27.1.0' }));
  const r = await check(['-f', distFile('image-volume')]);
  expect(r.code).toBe(1);
  const lines = r.stdout.trim().split('\n');
  expect(lines[0]).toBe('ERROR [image-volume-runtime] Node/node-old: runs containerd://1.7.22, which cannot mount image volumes (needs containerd 2.1+ or cri-o 1.33+): '
    + 'a broker pod of Job/flux-image-view placed there never starts its containers. Fix: upgrade its container runtime, keep the broker pods off it (pod.nodeSelector), '
    + 'or synthesize with flux.container.source FluxViewSource.COPY_TO_DISK or COPY_TO_MEMORY');
  // CRI-O 1.33 can; a runtime the check does not know is "cannot tell"
  expect(lines.slice(1, -1)).toEqual([expect.stringMatching(/^CANNOT TELL \[image-volume-runtime\] Node\/node-docker: cannot tell whether its runtime, docker:\/\/27\.1\.0, mounts image volumes/)]);
  expect(lines.at(-1)).toBe(`default/Job/flux-image-view would not run on ${server.url} (Kubernetes v1.35.1): 1 reason, 0 warnings, 1 cannot tell`);
  // A node the pods cannot be placed on does not matter
  server.update('nodes', '', 'node-old', (n) => (n.spec.taints = [{ key: 'legacy', effect: 'NoSchedule' }]));
  expect((await findings(distFile('image-volume'))).rules).toEqual(['unknown image-volume-runtime Node/node-docker']);
});

test('a server older than the target kubernetesVersion: a warning, and an error for each Job field it would drop', async () => {
  // GIVEN an EKS 1.30 server
  healthyCluster();
  server.version = { major: '1', minor: '30+', gitVersion: 'v1.30.14-eks-931bdca', platform: 'linux/amd64' };
  // WHEN hello world, synthesized for 1.35 (the default), is checked
  const { code, report, rules } = await findings(distFile('hello-world'));
  // THEN the skew is a warning naming both versions; the successPolicy the server drops is the error
  expect(code).toBe(1);
  expect(rules).toEqual(['error job-feature Job/flux-sample', 'warning server-version Job/flux-sample']);
  expect(report.findings[1]).toEqual({
    rule: 'server-version', severity: 'warning', object: 'Job/flux-sample', namespace: 'default',
    message: 'the server is v1.30.14-eks-931bdca, older than Kubernetes 1.35, the target this Job was synthesized for (flux-framework.org/kubernetes-version): '
      + "the output may use what 1.30 lacks (successPolicy (the lead's exit completes the Job), 1.31; the Flux view as an image volume (flux.container.source IMAGE_VOLUME), 1.35); "
      + 'each field the server drops or refuses is a job-feature error',
    fix: "synthesize with kubernetesVersion: '1.30' (the cluster's minor), or run it on a cluster of Kubernetes 1.35 or newer",
  });
  expect(report.findings[0].message).toBe("uses successPolicy (spec.successPolicy), which Kubernetes v1.30.14-eks-931bdca does not take (JobSuccessPolicy: beta, on by default 1.31): "
    + "the server drops it: the lead's exit no longer completes the Job, and the workers run on until the deadline");
  // WHEN the image-volume example (1.35) is checked on 1.34 THEN the field is named with its fix
  server.version = { major: '1', minor: '34', gitVersion: 'v1.34.2' };
  const image = await findings(distFile('image-volume'));
  expect(image.rules).toEqual(['error job-feature Job/flux-image-view', 'warning server-version Job/flux-image-view']);
  expect(image.report.findings[0].message).toContain('uses image volumes (spec.template.spec.volumes[3].image (flux-view-image), spec.template.spec.volumes[6].image (flux-handshake-node)), which Kubernetes v1.34.2 does not take');
  expect(image.report.findings[0].fix).toBe('synthesize with flux.container.source FluxViewSource.COPY_TO_DISK or COPY_TO_MEMORY and handshake.inRunner unset or false (or kubernetesVersion below 1.35), or run it on Kubernetes 1.35 or newer');
});

test('version skew: a target newer than the server, or older by more than one minor, is a warning naming both versions and the fix', async () => {
  // GIVEN a 1.35 server
  healthyCluster();
  const skew = async (kubernetesVersion: string) => findings(synthesized(`target-${kubernetesVersion}`, { kubernetesVersion }));
  // WHEN the target is the server's minor, or one older THEN nothing
  for (const same of ['1.35', '1.34']) expect(await skew(same)).toMatchObject({ code: 0, rules: [] });
  // WHEN it is two minors older THEN a warning (exit 0), with what the older target leaves out
  const older = await skew('1.33');
  expect([older.code, older.rules]).toEqual([0, ['warning server-version Job/flux-sample']]);
  expect(older.report.findings[0].message).toBe('the server is v1.35.1, 2 minors newer than Kubernetes 1.33, the target this Job was synthesized for (flux-framework.org/kubernetes-version): '
    + 'the YAML was made for an older cluster (as when a cluster is upgraded and its YAML is not synthesized again) and leaves out what the library can make for 1.35 '
    + '(the Flux view as an image volume (flux.container.source IMAGE_VOLUME), 1.35)');
  expect(older.report.findings[0].fix).toBe("synthesize with kubernetesVersion: '1.35' (the cluster's minor)");
  // WHEN it is newer, using no field the server lacks THEN a warning only (the Job is the one 1.35 gets)
  const newer = await skew('1.36');
  expect([newer.code, newer.rules]).toEqual([0, ['warning server-version Job/flux-sample']]);
  expect(newer.report.findings[0]).toMatchObject({
    message: 'the server is v1.35.1, older than Kubernetes 1.36, the target this Job was synthesized for (flux-framework.org/kubernetes-version): each field the server drops or refuses is a job-feature error',
    fix: "synthesize with kubernetesVersion: '1.35' (the cluster's minor), or run it on a cluster of Kubernetes 1.36 or newer",
  });
  // AND the text report says it on a WARNING line, and the output would run
  const text = await check(['-f', synthesized('target-1.36', { kubernetesVersion: '1.36' })]);
  expect(text.stdout).toMatch(/^WARNING \[server-version\] default\/Job\/flux-sample: the server is v1\.35\.1, older than Kubernetes 1\.36, .*\. Fix: synthesize with kubernetesVersion: '1\.35'/m);
  expect(text.stdout).toContain(`default/Job/flux-sample would run on ${server.url} (Kubernetes v1.35.1); 1 warnings, 0 cannot tell`);
  // WHEN the cluster was upgraded to 1.37 and the YAML (the default target, 1.35) was not THEN the skew is named
  server.version = { major: '1', minor: '37', gitVersion: 'v1.37.2' };
  const upgraded = await findings(distFile('hello-world'));
  expect([upgraded.code, upgraded.rules]).toEqual([0, ['warning server-version Job/flux-sample']]);
  expect(upgraded.report.findings[0].message).toMatch(/^the server is v1\.37\.2, 2 minors newer than Kubernetes 1\.35, /);
  // WHEN the Job carries no target (the annotation removed) THEN no version finding, and the rest of the check runs
  const unmarked = changed('hello-world', (docs) => docs.map((d) => {
    if (d.kind === 'Job' && d.metadata.name === 'flux-sample') delete d.metadata.annotations['flux-framework.org/kubernetes-version'];
    return d;
  }));
  const none = await findings(unmarked);
  expect([none.code, none.rules, none.report.clusters[0].kubernetesVersion]).toEqual([0, [], null]);
});

test('a 1.27 server: the rendezvous handshake of a 1.28 target needs the job-completion-index pod label it does not set', async () => {
  // GIVEN a 1.27 server
  healthyCluster();
  server.version = { major: '1', minor: '27', gitVersion: 'v1.27.16' };
  // WHEN hello world synthesized for 1.28 (rendezvous handshake) is checked
  const { code, report } = await findings(synthesized('target-1.28', { kubernetesVersion: '1.28' }));
  // THEN the flag that relies on the label is named, with the fix
  expect(code).toBe(1);
  expect(report.findings.filter((f: any) => f.rule === 'job-feature')).toEqual([{
    rule: 'job-feature', severity: 'error', object: 'Job/flux-sample', namespace: 'default',
    message: 'uses the job-completion-index pod label (spec.template.spec.initContainers[1].command --mode=rendezvous (flux-handshake)), which Kubernetes v1.27.16 does not take '
      + "(PodIndexLabel: beta, on by default 1.28): the Job controller does not label the pods with their index: the handshake's rendezvous Service selects no pod, and the handshake fails the Job at its deadline (exit 81)",
    fix: 'synthesize with handshake.mode HandshakeMode.DNS (the default below 1.28), or run it on Kubernetes 1.28 or newer',
  }]);
  // AND the 1.27 target (DNS handshake) uses nothing the server lacks
  expect((await findings(synthesized('target-1.27', { kubernetesVersion: '1.27' }))).rules).toEqual([]);
});

test('no node can hold a broker pod: each node with its reason; too few pods for size; maxSize beyond the nodes is a warning', async () => {
  healthyCluster();
  // GIVEN nodes that cannot take the mpi example's pods (2 CPUs, 2Gi and a 10m/48Mi sidecar each)
  for (const n of ['node-0', 'node-1']) server.update('nodes', '', n, (x) => (x.status.allocatable.cpu = '2'));
  server.put('nodes', node('node-2', { unschedulable: true }));
  server.put('nodes', node('node-3', { taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] }));
  const none = await findings(distFile('mpi'));
  expect(none.code).toBe(1);
  expect(none.report.findings).toEqual([expect.objectContaining({
    rule: 'capacity', severity: 'error', object: 'Job/lammps', namespace: 'hpc',
    message: 'no node can hold a broker pod (requests cpu 2010m, memory 2.0Gi): node-0: 2 cpu allocatable; node-1: 2 cpu allocatable; node-2: unschedulable (cordoned); '
      + 'node-3: taint nvidia.com/gpu=present:NoSchedule is not tolerated',
  })]);
  // WHEN the nodes have 4 CPUs: one pod each, two of four
  for (const n of ['node-0', 'node-1']) server.update('nodes', '', n, (x) => (x.status.allocatable.cpu = '4'));
  const few = await findings(distFile('mpi'));
  expect(few.report.findings.map((f: any) => f.message)).toEqual([
    'the nodes hold 2 broker pods at most (node-0: 1, node-1: 1; requests cpu 2010m, memory 2.0Gi), and the Job starts 4 (size): the rest stay Pending',
  ]);
  // An elastic cluster (4 CPUs a pod) whose maxSize the nodes cannot hold: a warning only (exit 0)
  for (const n of ['node-0', 'node-1']) server.update('nodes', '', n, (x) => (x.status.allocatable.cpu = '8'));
  const elastic = await findings(distFile('elastic'));
  expect(elastic.code).toBe(0);
  expect(elastic.rules).toEqual(['warning capacity Job/flux-elastic']);
  expect(elastic.report.findings[0].message).toMatch(/^the nodes hold 2 broker pods at most .*: scaling above 2 of maxSize 8 leaves pods Pending$/);
});

test('one broker per node, required: more pods than nodes that take them is named with the fix; as many is fine; maxSize beyond them is a warning', async () => {
  // GIVEN three nodes
  healthyCluster();
  server.put('nodes', node('node-2', { cpu: '16', memory: '64Gi' }));
  const onePerNode = { placement: { brokersPerNode: BrokersPerNode.ONE_REQUIRED } };
  // WHEN 3 pods may not share a node THEN it runs
  const three = await findings(synthesized('three', { ...onePerNode, size: 3 }));
  expect([three.code, three.rules]).toEqual([0, []]);
  // WHEN 4 pods may not share a node THEN the Job is named, with its pods, the nodes and the fix
  const four = await findings(synthesized('four', { ...onePerNode, size: 4 }));
  expect(four.code).toBe(1);
  expect(four.report.findings).toEqual([{
    rule: 'placement', severity: 'error', object: 'Job/flux-sample', namespace: 'default',
    message: 'its pods may not share a node (a required pod anti-affinity on kubernetes.io/hostname: BrokersPerNode.ONE_REQUIRED), and 3 nodes take them: '
      + 'of the 4 pods the Job starts (size), 1 stays Pending ("didn\'t match pod anti-affinity rules") and the quorum of 4 brokers never forms',
    fix: 'synthesize with size 3 or less, add nodes that take the pods, or let brokers share a node when they must (placement.brokersPerNode BrokersPerNode.ONE_PREFERRED)',
  }]);
  // AND the plain text says the same
  const text = await check(['-f', synthesized('four', { ...onePerNode, size: 4 })]);
  expect(text.stdout).toContain('ERROR [placement] default/Job/flux-sample: its pods may not share a node');
  // WHEN the same rule meets the defaults' preferred one THEN nothing: 4 pods spread over 3 nodes, two sharing one
  expect((await findings(synthesized('preferred', { size: 4 }))).rules).toEqual([]);
  // WHEN a node is cordoned THEN it takes no pod, and the quorum (minSize) forms without the one left Pending
  server.update('nodes', '', 'node-2', (n) => (n.spec.unschedulable = true));
  const cordoned = await findings(synthesized('cordoned', { ...onePerNode, size: 3, minSize: 2 }));
  expect(cordoned.report.findings.map((f: any) => f.message)).toEqual([
    'its pods may not share a node (a required pod anti-affinity on kubernetes.io/hostname: BrokersPerNode.ONE_REQUIRED), and 2 nodes take them: '
      + 'of the 3 pods the Job starts (size), 1 stays Pending ("didn\'t match pod anti-affinity rules")',
  ]);
  // WHEN an elastic cluster may grow beyond the nodes THEN a warning only
  const elastic = await findings(synthesized('elastic', { ...onePerNode, size: 2, maxSize: 6 }));
  expect(elastic.code).toBe(0);
  expect(elastic.report.findings.map((f: any) => [f.severity, f.message, f.fix])).toEqual([['warning',
    'its pods may not share a node (a required pod anti-affinity on kubernetes.io/hostname: BrokersPerNode.ONE_REQUIRED), and 2 nodes take them: scaling above 2 of maxSize 6 leaves pods Pending',
    'scale to 2 at most, add nodes before scaling, or let brokers share a node when they must (placement.brokersPerNode BrokersPerNode.ONE_PREFERRED)']]);
});

test('one zone, required: nodes without the zone label take no pod, and one zone must hold them all', async () => {
  // GIVEN three nodes without zone labels
  healthyCluster();
  server.put('nodes', node('node-2', { cpu: '16', memory: '64Gi' }));
  const sameZone = { size: 3, placement: { zones: ZonePlacement.SAME_REQUIRED } };
  // WHEN the pods must share a zone THEN every pod would stay Pending
  const none = await findings(synthesized('unlabelled', sameZone));
  expect(none.report.findings).toEqual([expect.objectContaining({
    rule: 'placement', severity: 'error', object: 'Job/flux-sample',
    message: 'its pods must all be in one topology.kubernetes.io/zone (a required pod affinity on topology.kubernetes.io/zone: ZonePlacement.SAME_REQUIRED), '
      + 'and none of the 3 nodes that take them carries the label topology.kubernetes.io/zone: every pod stays Pending',
    fix: 'label the nodes with topology.kubernetes.io/zone, or synthesize with placement.zones ZonePlacement.SAME_PREFERRED',
  })]);
  // WHEN two nodes are in zone a and one in b THEN zone a holds them (room for many pods a node)
  for (const [n, zone] of [['node-0', 'a'], ['node-1', 'a'], ['node-2', 'b']]) {
    server.update('nodes', '', n, (x) => (x.metadata.labels['topology.kubernetes.io/zone'] = zone));
  }
  expect((await findings(synthesized('zoned', sameZone))).rules).toEqual([]);
  // WHEN they also may not share a node THEN zone a's two nodes are too few for 3 pods
  const both = await findings(synthesized('both', { ...sameZone, placement: { zones: ZonePlacement.SAME_REQUIRED, brokersPerNode: BrokersPerNode.ONE_REQUIRED } }));
  expect(both.report.findings.map((f: any) => f.message)).toEqual([
    'its pods must all be in one topology.kubernetes.io/zone (a required pod affinity on topology.kubernetes.io/zone: ZonePlacement.SAME_REQUIRED), '
      + 'and no topology.kubernetes.io/zone holds the 3 pods the Job starts (size): the largest, a, holds 2; the rest stay Pending',
  ]);
});

test('a Pod Security level the pods break: each control with the fields, and the fix', async () => {
  healthyCluster();
  server.put('namespaces', namespace('default', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
  const { code, report } = await findings(distFile('hello-world'));
  expect(code).toBe(1);
  const jobFindings = report.findings.filter((f: any) => f.object === 'Job/flux-sample');
  expect(jobFindings.map((f: any) => f.message.match(/\(([^)]+)\)/)[1])).toEqual(['Privilege Escalation', 'Running as Non-root', 'Seccomp', 'Capabilities']);
  expect(jobFindings[0].message).toMatch(/^its pods break the Pod Security level restricted that namespace default enforces \(Privilege Escalation\): initContainers\[0\] \(flux-handshake\)\.securityContext\.allowPrivilegeEscalation \(must be false\), /);
  expect(jobFindings[0].fix).toBe('synthesize with podSecurity: PodSecurityLevel.RESTRICTED (it hardens the pods for the level, or names the prop the level refuses), or label namespace default pod-security.kubernetes.io/enforce=baseline');
  // the certificate Job is hardened already
  expect(report.findings.filter((f: any) => f.object === 'Job/flux-sample-curve-cert')).toEqual([]);
  // the production example, synthesized for restricted, passes there
  server.put('namespaces', namespace('hpc', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
  expect((await findings(distFile('production'))).rules).toEqual([]);
  // a hostPath volume at baseline
  server.put('namespaces', namespace('default', { 'pod-security.kubernetes.io/enforce': 'baseline' }));
  server.put('configmaps', existing('ConfigMap', 'default', 'app-config'));
  server.put('secrets', existing('Secret', 'default', 'app-credentials'));
  server.put('persistentvolumeclaims', existing('PersistentVolumeClaim', 'default', 'data'));
  const volumes = await findings(distFile('volumes'));
  expect(volumes.report.findings.map((f: any) => f.message)).toEqual([
    'its pods break the Pod Security level baseline that namespace default enforces (HostPath Volumes): volumes (scratch).hostPath; admission refuses them',
  ]);
  expect(volumes.report.findings[0].fix).toBe('synthesize with podSecurity: PodSecurityLevel.BASELINE (it hardens the pods for the level, or names the prop the level refuses), or label namespace default pod-security.kubernetes.io/enforce=privileged');
});

test('a missing Secret, ConfigMap or PVC the output uses and does not create; a 403 on one is "cannot tell"', async () => {
  healthyCluster();
  server.put('configmaps', existing('ConfigMap', 'default', 'app-config'));
  const { code, report } = await findings(distFile('volumes'));
  expect(code).toBe(1);
  expect(report.findings.map((f: any) => [f.object, f.message, f.fix])).toEqual([
    ['Secret/app-credentials', 'does not exist and the output does not create it; used by Job/flux-volumes (volume credentials): '
      + 'the pods wait in ContainerCreating (FailedMount) or fail to start their containers (CreateContainerConfigError)',
    'create it before the pods start (kubectl create secret generic app-credentials -n default ...), or add it to the output'],
    ['PersistentVolumeClaim/data', 'does not exist and the output does not create it; used by Job/flux-volumes (volume data): the pods stay Pending (unbound PersistentVolumeClaim)',
      'create it (a PersistentVolumeClaim data in default), or add it to the output (a cdk8s-plus PersistentVolumeClaim in the chart)'],
  ]);
  // The Secret is looked up by name, one GET; an account that may not get Secrets gets "cannot tell"
  expect(server.requests.filter((q) => q.resource === 'secrets').map((q) => `${q.verb} ${q.name}`)).toEqual(['get app-credentials']);
  server.forbidden.add('get secrets');
  const forbidden = await check(['-f', distFile('volumes')]);
  expect(forbidden.stdout).toContain('CANNOT TELL [missing-object] default/Secret/app-credentials: cannot tell whether Secret app-credentials exists: forbidden (needs RBAC verb \'get\' on \'secrets\')');
  expect(forbidden.code).toBe(1);
});

test('a namespace that does not exist, one the output creates, and a cluster without CoreDNS', async () => {
  server.put('nodes', node('node-0', { cpu: '16', memory: '64Gi' }));
  server.put('nodes', node('node-1', { cpu: '16', memory: '64Gi' }));
  // GIVEN no namespace hpc, no kube-dns WHEN the mpi example is checked THEN both are named
  const { code, rules, report } = await findings(distFile('mpi'));
  expect(code).toBe(1);
  expect(rules).toEqual(['error namespace Namespace/hpc', 'error cluster-dns Service/kube-dns']);
  expect(report.findings[0].fix).toBe('kubectl create namespace hpc (with its Pod Security labels), or add a Namespace to the output');
  // An output that creates its namespace (with its Pod Security label, which the check uses)
  server.put('services', kubeDnsService());
  const own = changed('mpi', (docs) => [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hpc', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } }, ...docs]);
  const created = await findings(own);
  expect(created.rules[0]).toBe('error pod-security Job/lammps');
  expect(created.report.findings.find((f: any) => f.rule === 'namespace')).toEqual({ rule: 'namespace', severity: 'info', object: 'Namespace/hpc', namespace: null, message: 'does not exist yet: the output creates it', fix: null });
});

test('exit 2: no -f, a file that is not there or holds no MiniCluster, an API server that cannot be reached', async () => {
  healthyCluster();
  const noFile = await check([]);
  expect(noFile.code).toBe(2);
  expect(noFile.stderr).toContain("required option '-f, --filename <file...>' not specified");
  const absent = await check(['-f', path.join(dir, 'absent.yaml')]);
  expect([absent.code, absent.stderr]).toEqual([2, `kubectl-minicluster: error: cannot read ${path.join(dir, 'absent.yaml')}: ENOENT\n`]);
  const other = changed('hello-world', (docs) => docs.filter((d) => d.kind !== 'Job'));
  expect((await check(['-f', other])).stderr).toContain('no MiniCluster Job in');
  // a directory: every YAML file in it
  fs.mkdirSync(path.join(dir, 'out'));
  fs.copyFileSync(distFile('hello-world'), path.join(dir, 'out', 'hello-world.k8s.yaml'));
  expect((await check(['-f', path.join(dir, 'out')])).code).toBe(0);
  const port = new URL(server.url).port;
  await server.stop();
  server = new KubeApiServer();
  const down = await check(['-f', distFile('hello-world')]);
  expect([down.code, down.stderr]).toEqual([2, `kubectl-minicluster: error: cannot reach the Kubernetes API server at http://127.0.0.1:${port}: ECONNREFUSED\n`]);
  await server.start();
});

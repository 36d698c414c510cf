import * as net from 'net';
import * as path from 'path';
import {
  HANDSHAKE_EXIT_BIND_INTERFACE, HANDSHAKE_EXIT_BIND_PORT, HANDSHAKE_EXIT_CERT_MISMATCH, HANDSHAKE_EXIT_CONFIG,
  HANDSHAKE_EXIT_DEADLINE, HANDSHAKE_EXIT_HOSTNAME, HANDSHAKE_FAILED_FILE, HANDSHAKE_READY_FILE,
} from '../../lib/core/handshake-contract';
import { PROGRAM, TestCluster, programSuite, writeCertificate } from './support/cluster';
import { spawnSync } from 'child_process';

programSuite('handshake failures are bounded, distinct and explained', () => {
  let cluster: TestCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('a peer that never comes: rank 0 exits at the deadline naming it', async () => {
    // GIVEN a 4-pod cluster with a 3 s deadline
    cluster = await TestCluster.create({ size: 4, deadlineSeconds: 3 });
    // WHEN ranks 2 and 3 never start
    const rank0 = await cluster.startPod(0);
    const rank1 = await cluster.startPod(1);
    // THEN rank 1 is ready, and rank 0 exits with the deadline code naming the missing hosts
    await rank1.waitForEvent('ready');
    expect(await rank0.exited).toBe(HANDSHAKE_EXIT_DEADLINE);
    const message = 'handshake deadline of 3s passed on flux-0 (rank 0): never registered: flux-[2-3]';
    expect(rank0.terminationMessage()).toBe(`exit ${HANDSHAKE_EXIT_DEADLINE}: ${message}`);
    expect(rank0.lines.find((l) => l.event === 'failed')).toMatchObject({ level: 'error', exitCode: HANDSHAKE_EXIT_DEADLINE, message });
    // AND the failed file lets the Flux container (started by the probe) exit with the same code
    expect(rank0.file(HANDSHAKE_FAILED_FILE)).toBe(`HANDSHAKE_EXIT_CODE=${HANDSHAKE_EXIT_DEADLINE}\nHANDSHAKE_MESSAGE='${message}'\n`);
    expect(rank0.file(HANDSHAKE_READY_FILE)).toBeUndefined();
  });

  test('a worker whose rank 0 never comes names the rendezvous Service and why it failed', async () => {
    // GIVEN a 2-pod cluster with a 2 s deadline; WHEN only rank 1 starts
    cluster = await TestCluster.create({ size: 2, deadlineSeconds: 2 });
    const rank1 = await cluster.startPod(1);
    // THEN it exits with the deadline code, and the message names rank 0's server and the last error
    expect(await rank1.exited).toBe(HANDSHAKE_EXIT_DEADLINE);
    expect(rank1.terminationMessage()).toBe(`exit ${HANDSHAKE_EXIT_DEADLINE}: handshake deadline of 2s passed on flux-1 (rank 1): `
      + `rank 0's handshake server (${cluster.rendezvousHost}:${cluster.port}) never answered: `
      + `${cluster.rendezvousHost} (${cluster.proxy.vip}:${cluster.port}): ECONNREFUSED`);
  });

  test('a test waiting for a line the pod never wrote fails when the pod exits, with its last lines', async () => {
    // GIVEN a worker whose rank 0 never comes, with a 1 s deadline
    cluster = await TestCluster.create({ size: 2, deadlineSeconds: 1 });
    const rank1 = await cluster.startPod(1);
    // WHEN the test waits for its `ready`, which it will never log
    const waiting = rank1.waitForEvent('ready');
    // THEN the wait fails once the pod exited, naming the exit and quoting its `failed` line
    await expect(waiting).rejects.toThrow(new RegExp(`pod 1 exited \\(code ${HANDSHAKE_EXIT_DEADLINE}\\) without logging a line that matches[^]*"event":"failed"`));
    // AND a wait started after the exit fails at once the same way
    await expect(rank1.waitForEvent('ready')).rejects.toThrow(/pod 1 exited/);
  });

  test('a restarted sidecar after a failure does not retry: the failure is final for the pod', async () => {
    // GIVEN a worker that failed at its deadline
    cluster = await TestCluster.create({ size: 2, deadlineSeconds: 1 });
    const first = await cluster.startPod(1);
    expect(await first.exited).toBe(HANDSHAKE_EXIT_DEADLINE);
    // WHEN the kubelet restarts the container in the same pod (same out dir), even with rank 0 up now
    await cluster.startPod(0);
    const again = await cluster.startPod(1);
    // THEN it fails again at once with the same code and message
    expect(await again.exited).toBe(HANDSHAKE_EXIT_DEADLINE);
    expect(again.terminationMessage()).toBe(first.terminationMessage());
  });

  test('DNS server down: workers keep retrying and finish once it answers', async () => {
    // GIVEN the cluster DNS is down when the pods start
    cluster = await TestCluster.create({ size: 3 });
    await cluster.dns.down();
    const pods = await cluster.startAll();
    await pods[1].waitFor((l) => l.event === 'directory' && String(l.reason).startsWith('DNS lookup'));
    // WHEN it comes back
    await cluster.dns.up();
    // THEN every pod becomes ready
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
  });

  test('DNS server down until the deadline: the message names the lookup that failed', async () => {
    cluster = await TestCluster.create({ size: 2, deadlineSeconds: 2 });
    await cluster.dns.down();
    const rank1 = await cluster.startPod(1);
    expect(await rank1.exited).toBe(HANDSHAKE_EXIT_DEADLINE);
    expect(rank1.terminationMessage()).toMatch(new RegExp(`never answered: DNS lookup of ${cluster.rendezvousHost.replace(/\./g, '\\.')}: (ECONNREFUSED|ETIMEOUT)$`));
  });

  test('certificate mismatch: the worker exits with its own code, rank 0 names it at the deadline', async () => {
    // GIVEN rank 1 mounts a different certificate than rank 0
    cluster = await TestCluster.create({ size: 2, deadlineSeconds: 3 });
    const other = writeCertificate(path.join(cluster.dir, 'other.cert'));
    const rank0 = await cluster.startPod(0);
    const rank1 = await cluster.startPod(1, { extraArgs: [`--cert=${other}`] });
    // THEN rank 1 exits with the mismatch code, explaining it
    expect(await rank1.exited).toBe(HANDSHAKE_EXIT_CERT_MISMATCH);
    expect(rank1.terminationMessage()).toMatch(/^exit 82: the peer at .* holds a different CURVE certificate \(fingerprint [0-9a-f]{32}, ours [0-9a-f]{32}\); Flux would hang silently/);
    // AND rank 0 never lets it in, naming it as the suspect at its deadline
    expect(await rank0.exited).toBe(HANDSHAKE_EXIT_DEADLINE);
    expect(rank0.terminationMessage()).toBe(`exit ${HANDSHAKE_EXIT_DEADLINE}: handshake deadline of 3s passed on flux-0 (rank 0): `
      + 'never registered: flux-1; presented a different certificate: flux-1');
  });

  test('hostname not in the hosts list', async () => {
    cluster = await TestCluster.create({ size: 2 });
    const pod = await cluster.startPod(1, { extraArgs: ['--hostname=flux-9'] });
    expect(await pod.exited).toBe(HANDSHAKE_EXIT_HOSTNAME);
    expect(pod.terminationMessage()).toBe(`exit ${HANDSHAKE_EXIT_HOSTNAME}: hostname 'flux-9' must be exactly one entry of the Flux hosts flux-[0-1] `
      + "and match JOB_COMPLETION_INDEX 1 ('flux-1'); it matches 0 entries");
  });

  test('hostname of another index', async () => {
    cluster = await TestCluster.create({ size: 3 });
    const pod = await cluster.startPod(1, { extraArgs: ['--hostname=flux-2'] });
    expect(await pod.exited).toBe(HANDSHAKE_EXIT_HOSTNAME);
  });

  test("an interior rank's Flux port is already bound", async () => {
    // GIVEN something listens on rank 0's address and Flux port
    cluster = await TestCluster.create({ size: 2 });
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen({ host: cluster!.ip(0), port: cluster!.fluxPort }, () => r()));
    try {
      // WHEN rank 0 starts THEN it fails with the bind-port code
      const rank0 = await cluster.startPod(0);
      expect(await rank0.exited).toBe(HANDSHAKE_EXIT_BIND_PORT);
      expect(rank0.terminationMessage()).toBe(`exit ${HANDSHAKE_EXIT_BIND_PORT}: cannot bind the Flux port ${cluster.ip(0)}:${cluster.fluxPort} `
        + "on 'lo': EADDRINUSE; Flux would fail at start");
    } finally {
      squatter.close();
    }
  });

  test("an interior rank's bind interface does not exist", async () => {
    cluster = await TestCluster.create({ size: 2 });
    const rank0 = await cluster.startPod(0, { extraArgs: ['--bind-interface=nosuch0'] });
    expect(await rank0.exited).toBe(HANDSHAKE_EXIT_BIND_INTERFACE);
    expect(rank0.terminationMessage()).toMatch(/^exit 84: bind interface 'nosuch0' does not exist \(interfaces: .*lo.*\); Flux would fail with 'No such device'$/);
  });

  test('a leaf rank does not check the bind interface (Flux does not bind there)', async () => {
    cluster = await TestCluster.create({ size: 2 });
    const pods = [await cluster.startPod(0), await cluster.startPod(1, { extraArgs: ['--bind-interface=nosuch0'] })];
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
  });

  test('invalid configuration: every problem is listed at once', () => {
    const r = spawnSync(process.execPath, [PROGRAM, '--name=Bad_Name', '--size=0', '--mode=magic', '--bogus=1'], {
      env: { PATH: process.env.PATH, HANDSHAKE_TERMINATION_LOG: '/nonexistent/termination-log' }, encoding: 'utf8',
    });
    expect(r.status).toBe(HANDSHAKE_EXIT_CONFIG);
    const line = JSON.parse(r.stdout.trim()) as { event: string; errors: string[] };
    expect(line.event).toBe('invalid-configuration');
    expect(line.errors).toEqual(expect.arrayContaining([
      "--name (env HANDSHAKE_NAME): 'Bad_Name' must be an RFC 1035 label",
      '--service (env HANDSHAKE_SERVICE): required',
      '--namespace (env POD_NAMESPACE): required',
      "--size (env HANDSHAKE_SIZE): '0' must be an integer from 1 to 100000",
      "--mode (env HANDSHAKE_MODE): 'magic' must be one of rendezvous, dns",
      '--index (env JOB_COMPLETION_INDEX): required',
      '--pod-ip (env POD_IP): required',
      '--bogus: unknown flag',
    ]));
  });
});

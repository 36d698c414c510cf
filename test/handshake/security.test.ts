import * as crypto from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import { HANDSHAKE_HOSTS_FILE, HANDSHAKE_PARENT_FILE } from '../../lib/core/handshake-contract';
import { PROTOCOL_VERSION, authenticateToServer } from '../../lib/runtime/handshake/channel';
import { deriveKeys } from '../../lib/runtime/handshake/keys';
import { Pod, TestCluster, programSuite } from './support/cluster';

/** Connects, writes `payload`, and collects what the server sends until it closes (or 6 s pass). */
function exchange(ip: string, port: number, payload: Buffer | string, opts: { keepOpen?: boolean } = {}): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect({ host: ip, port });
    let got = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (got += d));
    s.on('error', () => undefined);
    s.on('close', () => resolve(got));
    s.on('connect', () => {
      s.write(payload);
      if (!opts.keepOpen) s.end();
    });
    setTimeout(() => s.destroy(), 6000).unref();
  });
}

function firstLine(text: string): Record<string, unknown> {
  return JSON.parse(text.split('\n')[0]) as Record<string, unknown>;
}

/** Runs `count` tasks with at most `width` in flight. */
async function pool(count: number, width: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await task(next++);
  }));
}

programSuite('handshake security', () => {
  let cluster: TestCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  async function readyPair(c: TestCluster): Promise<Pod[]> {
    const pods = [await c.startPod(0), await c.startPod(1)];
    await Promise.all(pods.map((p) => p.waitForEvent('ready')));
    return pods;
  }

  test('a stranger without the key is rejected and cannot poison the host table', async () => {
    // GIVEN rank 0 is up, waiting for rank 1
    cluster = await TestCluster.create({ size: 2 });
    const rank0 = await cluster.startPod(0);
    await rank0.waitForEvent('listening');
    const ip0 = cluster.ip(0);
    // WHEN a stranger learns the public fingerprint from a challenge, answers with a made-up MAC,
    const nonce = crypto.randomBytes(32).toString('hex');
    const hello = JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, nc: nonce, fp: '0'.repeat(32), rank: 1 });
    const fp = firstLine(await exchange(ip0, cluster.port, `${hello}\n`)).fp as string;
    const forged = [
      JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, nc: nonce, fp, rank: 1 }),
      JSON.stringify({ t: 'auth', mac: crypto.randomBytes(32).toString('hex') }),
      `${'0'.repeat(64)} ${JSON.stringify({ t: 'register', rank: 1, host: 'flux-1', fqdn: 'evil', ip: '127.66.66.66', port: 1, epoch: 9e15 })}`,
    ].join('\n') + '\n';
    const answer = await exchange(ip0, cluster.port, forged, { keepOpen: true });
    // AND also skips the challenge-response and sends a register straight away
    const direct = await exchange(ip0, cluster.port, `${JSON.stringify({ t: 'register', rank: 1, host: 'flux-1', fqdn: 'evil', ip: '127.66.66.66', port: 1, epoch: 9e15 })}\n`);
    // THEN it gets only the challenge, never a welcome, and the connection is closed
    expect(answer.trim().split('\n').map((l) => (JSON.parse(l) as { t: string }).t)).toEqual(['challenge']);
    expect(direct).toBe('');
    await rank0.waitFor((l) => l.event === 'peer-rejected' && l.kind === 'unauthenticated');
    await rank0.waitFor((l) => l.event === 'peer-rejected' && l.kind === 'protocol');
    // AND when the real rank 1 joins, the table holds only real addresses
    const rank1 = await cluster.startPod(1);
    await Promise.all([rank0, rank1].map((p) => p.waitForEvent('ready')));
    expect(rank0.file(HANDSHAKE_HOSTS_FILE)).not.toContain('127.66.66.66');
    expect(rank1.file(HANDSHAKE_PARENT_FILE)).toContain(`FLUX_PARENT_IP=${ip0}\n`);
  });

  test('a recorded authenticated session cannot be replayed', async () => {
    // GIVEN a member (holding the key) records the bytes of its authenticated session with rank 0
    cluster = await TestCluster.create({ size: 2 });
    const rank0 = await cluster.startPod(0);
    await rank0.waitForEvent('listening');
    const keys = deriveKeys(fs.readFileSync(cluster.certPath));
    const socket = net.connect({ host: cluster.ip(0), port: cluster.port });
    const sent: Buffer[] = [];
    const write = socket.write.bind(socket);
    socket.write = ((chunk: string | Buffer, ...rest: never[]) => {
      sent.push(Buffer.from(chunk));
      return write(chunk, ...rest);
    }) as typeof socket.write;
    await new Promise((r) => socket.once('connect', r));
    const { channel, welcome } = await authenticateToServer(socket, keys, 1, { t: 'child', rank: 1, epoch: 1 });
    expect([welcome.t, welcome.rank]).toEqual(['welcome', 0]);
    expect((await channel.next(5000)).t).toBe('ack');
    channel.destroy();
    // WHEN a stranger replays those bytes on a new connection
    const answer = await exchange(cluster.ip(0), cluster.port, Buffer.concat(sent), { keepOpen: true });
    // THEN the fresh server nonce makes the old proof invalid: only a challenge comes back
    expect(answer.trim().split('\n').map((l) => (JSON.parse(l) as { t: string }).t)).toEqual(['challenge']);
    await rank0.waitFor((l) => l.event === 'peer-rejected' && l.kind === 'unauthenticated');
  });

  test('garbage, oversized and idle connections: no crash, bounded memory, still serving', async () => {
    // GIVEN rank 0 is up and warm
    cluster = await TestCluster.create({ size: 2 });
    const rank0 = await cluster.startPod(0);
    await rank0.waitForEvent('listening');
    const ip0 = cluster.ip(0);
    await pool(200, 50, () => exchange(ip0, cluster!.port, crypto.randomBytes(1024)));
    const before = rank0.memory();
    // WHEN it receives 2000 connections of 64 KiB random bytes, 200 of 1 MiB without a newline,
    await pool(2000, 100, () => exchange(ip0, cluster!.port, crypto.randomBytes(64 * 1024)));
    await pool(200, 20, () => exchange(ip0, cluster!.port, Buffer.alloc(1024 * 1024, 'a')));
    // AND 500 well-formed JSON frames of the wrong shape, and 700 idle connections at once (over the cap)
    const wrong = ['{"t":"hello","v":1,"nc":5}', '[]', '{"t":"auth"}', 'null', '{"t":"hello","v":2}'];
    await pool(500, 50, (i) => exchange(ip0, cluster!.port, `${wrong[i % wrong.length]}\n`));
    await Promise.all(Array.from({ length: 700 }, () => exchange(ip0, cluster!.port, '', { keepOpen: true })));
    const after = rank0.memory();
    // THEN rank 0 is alive, its memory grew by less than 32 MiB, and it logged a bounded number of lines
    expect(rank0.proc.exitCode).toBeNull();
    expect(after.rss - before.rss).toBeLessThan(32 * 1024 * 1024);
    expect(rank0.lines.length).toBeLessThan(100);
    // AND a real worker still joins
    const rank1 = await cluster.startPod(1);
    await Promise.all([rank0, rank1].map((p) => p.waitForEvent('ready')));
  });

  test('an on-path rewrite of the server entry in the challenge is detected', async () => {
    // GIVEN rank 0 is up, reached through a relay that rewrites the IP in rank 0's challenge
    cluster = await TestCluster.create({ size: 2 });
    const rank0 = await cluster.startPod(0);
    await rank0.waitForEvent('listening');
    const ip0 = cluster.ip(0);
    const relay = net.createServer((inbound) => {
      const outbound = net.connect({ host: ip0, port: cluster!.port });
      inbound.pipe(outbound);
      outbound.setEncoding('utf8');
      outbound.on('data', (d: string) => inbound.write(d.split(ip0).join('127.66.66.66')));
      outbound.on('error', () => inbound.destroy());
      inbound.on('error', () => outbound.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    try {
      const socket = net.connect({ host: '127.0.0.1', port: (relay.address() as net.AddressInfo).port });
      await new Promise((r) => socket.once('connect', r));
      // WHEN a member authenticates through it
      const keys = deriveKeys(fs.readFileSync(cluster.certPath));
      // THEN the client refuses the session: the entry is covered by the server's proof
      await expect(authenticateToServer(socket, keys, 1, { t: 'child', rank: 1, epoch: 1 })).rejects.toMatchObject({ kind: 'unauthenticated' });
    } finally {
      relay.close();
    }
  });

  test('a hello from a pod with another certificate is reported as a mismatch, not accepted', async () => {
    // GIVEN a ready pair
    cluster = await TestCluster.create({ size: 2 });
    const [rank0] = await readyPair(cluster);
    // WHEN a client with a different key tries to authenticate
    const other = deriveKeys(crypto.randomBytes(200));
    const socket = net.connect({ host: cluster.ip(0), port: cluster.port });
    await new Promise((r) => socket.once('connect', r));
    // THEN the client sees the mismatch, and rank 0 logs it without accepting the peer
    await expect(authenticateToServer(socket, other, 1, { t: 'child', rank: 1, epoch: 1 })).rejects.toMatchObject({ kind: 'mismatch' });
    await rank0.waitFor((l) => l.event === 'peer-rejected' && l.kind === 'mismatch');
    expect(rank0.proc.exitCode).toBeNull();
  });
});

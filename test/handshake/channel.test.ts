import * as crypto from 'crypto';
import * as net from 'net';
import {
  AUTH_TIMEOUT_MS, AuthError, Channel, Message, PRE_AUTH_FRAME_BYTES, PROTOCOL_VERSION, authenticateClient, authenticateToServer,
} from '../../lib/runtime/handshake/channel';
import { deriveKeys, hmac, nonce } from '../../lib/runtime/handshake/keys';

const keys = deriveKeys(crypto.randomBytes(200));
const WELCOME: Message = { t: 'welcome', rank: 0 };

/** A loopback server whose connections go through `authenticateClient`; `sessions` settles per connection. */
async function server(): Promise<{ port: number; sessions: Promise<Channel>[]; close: () => void }> {
  const sessions: Promise<Channel>[] = [];
  const srv = net.createServer((s) => {
    s.on('error', () => undefined);
    const session = authenticateClient(s, keys, WELCOME);
    session.catch(() => undefined);
    sessions.push(session);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { port: (srv.address() as net.AddressInfo).port, sessions, close: () => srv.close() };
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

/** The messages a session delivers until `count` arrived. */
function collect(ch: Channel, count: number): Promise<Message[]> {
  const got: Message[] = [];
  return new Promise((resolve, reject) => ch.listen((m) => {
    got.push(m);
    if (got.length === count) resolve(got);
  }, (e) => reject(e)));
}

/** The i-th connection's authentication outcome, once the server accepted it. */
async function sessionAt(i: number): Promise<Channel> {
  while (srv.sessions[i] === undefined) await new Promise((r) => setTimeout(r, 10));
  return srv.sessions[i];
}

let srv: Awaited<ReturnType<typeof server>>;
beforeEach(async () => {
  srv = await server();
});
afterEach(() => srv.close());

describe('handshake channel: the challenge-response and the frames around it', () => {
  test('session frames that arrive in the same read as the proof are all delivered (a parent resending hundreds of joins)', async () => {
    // GIVEN a member whose proof, first message and 6 more frames leave in one write
    const socket = await connect(srv.port);
    const write = socket.write.bind(socket);
    let held: string[] | undefined;
    socket.write = ((chunk: string) => {
      if (held) held.push(chunk);
      else if (chunk.includes('"t":"hello"')) write(chunk);
      else held = [chunk];
      return true;
    }) as typeof socket.write;
    const { channel } = await authenticateToServer(socket, keys, 5, { t: 'register', n: 0 });
    for (let n = 1; n <= 6; n++) channel.send({ t: 'joins', n });
    write(held!.join(''));
    // WHEN the server's session listens
    const session = await sessionAt(0);
    // THEN it receives every frame in order, none is taken for an unsolicited one
    expect((await collect(session, 7)).map((m) => m.n)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    channel.destroy();
  });

  test(`before the key is proved a line may hold ${PRE_AUTH_FRAME_BYTES} bytes; after it 4 KiB`, async () => {
    // GIVEN a stranger that sends a line longer than PRE_AUTH_FRAME_BYTES without a newline
    const stranger = await connect(srv.port);
    stranger.on('error', () => undefined);
    stranger.write(Buffer.alloc(PRE_AUTH_FRAME_BYTES + 1, 'a'));
    // THEN the server closes the connection at once, naming the bound
    await expect(sessionAt(0)).rejects.toMatchObject({ kind: 'protocol', message: `frame longer than ${PRE_AUTH_FRAME_BYTES} bytes` });
    // WHEN a member sends a 3 KiB frame after authenticating
    const { channel } = await authenticateToServer(await connect(srv.port), keys, 1, { t: 'big', pad: 'x'.repeat(3000) });
    // THEN it is delivered
    const [big] = await collect(await sessionAt(1), 1);
    expect((big.pad as string).length).toBe(3000);
    channel.destroy();
  });

  test(`the whole challenge-response has one deadline of ${AUTH_TIMEOUT_MS} ms, not one per read`, async () => {
    // GIVEN a client holding the key that sends its hello after 3 s
    const socket = await connect(srv.port);
    socket.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 3000));
    const nc = nonce();
    socket.write(`${JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, nc, fp: keys.fingerprint, rank: 1 })}\n`);
    const challenge = await new Promise<{ ns: string }>((resolve) => socket.once('data', (d: Buffer) => resolve(JSON.parse(d.toString().split('\n')[0]))));
    // WHEN its valid proof comes 3 s after the challenge (6 s after connecting)
    await new Promise((r) => setTimeout(r, 3000));
    socket.write(`${JSON.stringify({ t: 'auth', mac: hmac(keys.authKey, 'c', challenge.ns, nc) })}\n`);
    // THEN the server gave up at 5 s: the proof is never accepted
    const err = await sessionAt(0).catch((e: AuthError) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toMatchObject({ kind: 'timeout' });
  });
});

describe('a late server: the client waits as long as it is told', () => {
  test('GIVEN a server that takes 500 ms to challenge WHEN a client waits 200 ms THEN it times out; WHEN it waits 1000 ms (doubled twice) THEN it authenticates', async () => {
    // GIVEN a server whose process gets to each new connection only after 500 ms
    const srv = net.createServer((s) => {
      s.on('error', () => undefined);
      setTimeout(() => authenticateClient(s, keys, WELCOME, 5000).catch(() => undefined), 500);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as net.AddressInfo).port;
    try {
      const short = await authenticateToServer(await connect(port), keys, 1, { t: 'ping' }, 200).catch((e: AuthError) => e);
      expect(short).toMatchObject({ kind: 'timeout' });
      const { channel, welcome } = await authenticateToServer(await connect(port), keys, 1, { t: 'ping' }, 1000);
      expect(welcome).toEqual(WELCOME);
      channel.destroy();
    } finally {
      srv.close();
    }
  });
});

import * as net from 'net';
import { connectWithin, ioTimeout, isTimeout } from '../../lib/runtime/handshake/io-timeout';

/** What a process that gets no CPU looks like to its own event loop: nothing runs for `ms`. */
function starve(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) { /* busy: no timer, no I/O */ }
}

/** A loopback connection: the server's socket and the client's. */
async function pair(): Promise<{ server: net.Socket; client: net.Socket; close: () => void }> {
  let accepted!: (s: net.Socket) => void;
  const got = new Promise<net.Socket>((r) => { accepted = r; });
  const srv = net.createServer((s) => accepted(s));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const client = net.connect({ host: '127.0.0.1', port: (srv.address() as net.AddressInfo).port });
  const server = await got;
  await new Promise<void>((r) => (client.connecting ? client.once('connect', () => r()) : r()));
  return { server, client, close: () => { client.destroy(); server.destroy(); srv.close(); } };
}

describe('ioTimeout: a peer is judged after what it already sent is read', () => {
  test('GIVEN an answer waiting in the socket WHEN the process wakes after the timeout THEN the answer wins and the plain timer would have lost', async () => {
    const { server, client, close } = await pair();
    try {
      const events: string[] = [];
      const answered = new Promise<void>((r) => server.once('data', () => { events.push('data'); r(); }));
      const guarded = ioTimeout(50, () => events.push('ioTimeout fired'));
      setTimeout(() => events.push('setTimeout fired'), 50);
      client.write('answer\n');
      starve(300);
      await answered;
      guarded.clear();
      await new Promise((r) => setTimeout(r, 100));
      // The plain timer ran before the poll phase read the answer; the guarded one never fired.
      expect(events).toEqual(['setTimeout fired', 'data']);
    } finally {
      close();
    }
  });

  test('GIVEN no answer WHEN the time passes THEN it fires once; cleared, it never fires', async () => {
    let fired = 0;
    ioTimeout(20, () => fired++);
    const cleared = ioTimeout(20, () => fired += 100);
    cleared.clear();
    await new Promise((r) => setTimeout(r, 120));
    expect(fired).toBe(1);
  });
});

describe('connectWithin', () => {
  test('GIVEN a listening peer WHEN the process gets no CPU past the connect timeout THEN it still connects', async () => {
    const srv = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const connecting = connectWithin('127.0.0.1', (srv.address() as net.AddressInfo).port, 50);
      starve(300);
      const socket = await connecting;
      expect(socket.remotePort).toBe((srv.address() as net.AddressInfo).port);
      socket.destroy();
    } finally {
      srv.close();
    }
  });

  test('GIVEN a closed port WHEN connecting THEN the error is the refusal, not a timeout', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const err = await connectWithin('127.0.0.1', port, 1000).then(() => undefined, (e) => e);
    expect(err.code).toBe('ECONNREFUSED');
    expect(isTimeout(err)).toBe(false);
    expect(isTimeout({ kind: 'timeout' })).toBe(true);
    expect(isTimeout({ code: 'ETIMEDOUT' })).toBe(true);
  });
});

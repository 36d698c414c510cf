import * as net from 'net';

/**
 * What a libzmq peer (a Flux broker) writes first on every new TCP connection, before reading
 * anything: the ZMTP signature 0xFF, an 8-byte big-endian length (routing id size + 1) and 0x7F
 * (libzmq zmtp_engine, plug_internal).
 */
export const ZMTP_SIGNATURE = Buffer.from([0xff, 0, 0, 0, 0, 0, 0, 0, 37, 0x7f]);

/** Stands in for a running broker's Flux port: greets every connection with the ZMTP signature. */
export class FakeBrokerPort {
  connections = 0;
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly server: net.Server) {}

  static async listen(ip: string, port: number): Promise<FakeBrokerPort> {
    let broker: FakeBrokerPort | undefined;
    const server = net.createServer((s) => broker!.accept(s));
    broker = new FakeBrokerPort(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: ip, port }, () => resolve());
    });
    return broker;
  }

  private accept(socket: net.Socket): void {
    this.connections++;
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.sockets.delete(socket));
    socket.write(ZMTP_SIGNATURE);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Stands in for a follower broker that dials its parent: connects from `fromIp`, retrying refused
 * connections every 100 ms like ZeroMQ, writes the ZMTP signature (or `first`; nothing: it closes
 * its side), and resolves once the other side closed the connection.
 */
export async function dialAsBroker(fromIp: string, toIp: string, port: number, first: Buffer = ZMTP_SIGNATURE): Promise<void> {
  await (await connectAsBroker(fromIp, toIp, port, first)).closed;
}

/**
 * Like dialAsBroker, but resolves once connected and `first` written: `closed` settles when the
 * other side closes the connection (libzmq would then redial).
 */
export async function connectAsBroker(
  fromIp: string, toIp: string, port: number, first: Buffer = ZMTP_SIGNATURE,
): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  for (;;) {
    const socket = await new Promise<net.Socket | undefined>((resolve) => {
      const s = net.connect({ host: toIp, port, localAddress: fromIp });
      s.on('error', () => resolve(undefined));
      s.once('connect', () => {
        if (first.length > 0) s.write(first);
        else s.end();
        resolve(s);
      });
    });
    if (socket) return { socket, closed: new Promise((r) => socket.once('close', () => r())) };
    await new Promise((r) => setTimeout(r, 100));
  }
}

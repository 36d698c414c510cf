import * as net from 'net';

/**
 * Stands in for kube-proxy in front of a ClusterIP Service: a virtual IP that forwards TCP to the
 * Service's endpoint. With no endpoint nothing listens, so connections are refused at once, as
 * kube-proxy's REJECT rule does.
 */
export class ServiceProxy {
  private server: net.Server | undefined;
  private endpoint: { ip: string; port: number } | undefined;
  private readonly sockets = new Set<net.Socket>();

  constructor(readonly vip: string, readonly port: number) {}

  /** Routes to `ip:port`, or stops routing (and drops open connections) when undefined. */
  async setEndpoint(ip: string | undefined, port = this.port): Promise<void> {
    this.endpoint = ip === undefined ? undefined : { ip, port };
    if (ip === undefined) {
      await this.close();
      return;
    }
    if (this.server) return;
    const server = net.createServer((client) => this.forward(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: this.vip, port: this.port, backlog: 4096 }, () => resolve());
    });
    this.server = server;
  }

  private forward(client: net.Socket): void {
    const ep = this.endpoint;
    if (!ep) return void client.destroy();
    const upstream = net.connect({ host: ep.ip, port: ep.port });
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    for (const sock of this.sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

import { DnsServer, Packet, createServer } from 'dns2';

/**
 * A real DNS server on 127.0.0.1 (UDP, random port) for handshake tests and the benchmark. It plays
 * the cluster DNS: records can be published late, unknown names get NXDOMAIN with the zone's SOA in
 * the authority section (the negative TTL is the SOA minimum, RFC 2308), and a caching layer in
 * front remembers answers, NXDOMAIN included, for their TTL capped at `cacheSeconds`, like CoreDNS's
 * `cache` plugin or NodeLocal DNSCache.
 */
export interface TestDnsOptions {
  /** Longest time any answer is cached; 0 disables the cache. @default 0 */
  readonly cacheSeconds?: number;
  /** TTL of A records and SOA minimum (negative TTL). @default max(cacheSeconds, 5) */
  readonly ttl?: number;
  /** @default 'cluster.local' */
  readonly zone?: string;
}

interface Cached {
  readonly expires: number;
  readonly ips: string[] | undefined;
}

export class TestDnsServer {
  static async start(options: TestDnsOptions = {}): Promise<TestDnsServer> {
    const s = new TestDnsServer(options);
    await s.up();
    return s;
  }

  /** Queries received, per lowercase name. */
  readonly queries = new Map<string, number>();
  /** Answers served from the cache, and NXDOMAIN answers served (from cache or not). */
  cacheHits = 0;
  nxdomains = 0;
  private readonly records = new Map<string, string[]>();
  private readonly cache = new Map<string, Cached>();
  private readonly cacheSeconds: number;
  private readonly ttl: number;
  private readonly zone: string;
  private server: DnsServer | undefined;
  private port = 0;

  private constructor(options: TestDnsOptions) {
    this.cacheSeconds = options.cacheSeconds ?? 0;
    this.ttl = options.ttl ?? Math.max(this.cacheSeconds, 5);
    this.zone = options.zone ?? 'cluster.local';
  }

  /** `127.0.0.1:port`, the value of --dns-server. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  publish(name: string, ip: string): void {
    this.records.set(name.toLowerCase(), [ip]);
  }

  unpublish(name: string): void {
    this.records.delete(name.toLowerCase());
  }

  /** Publishes and withdraws `name` every `periodMs` until the returned function is called. */
  flap(name: string, ip: string, periodMs: number): () => void {
    let on = false;
    const t = setInterval(() => {
      on = !on;
      if (on) this.publish(name, ip);
      else this.unpublish(name);
    }, periodMs);
    return () => clearInterval(t);
  }

  /** Stops answering (the socket is closed: queries get ICMP port unreachable). */
  async down(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await s.close();
  }

  /** Starts answering again on the same port. */
  async up(): Promise<void> {
    const server = createServer({ udp: true, handle: (req, send) => send(this.answer(req)) });
    server.on('requestError', () => undefined);
    const addresses = await server.listen({ udp: { port: this.port, address: '127.0.0.1' } });
    this.port = addresses.udp!.port;
    this.server = server;
  }

  private answer(request: Packet): Packet {
    const response = Packet.createResponseFromRequest(request);
    const q = request.questions[0];
    if (!q) return response;
    const name = q.name.toLowerCase();
    this.queries.set(name, (this.queries.get(name) ?? 0) + 1);
    const now = Date.now();
    let entry = this.cache.get(name);
    let ttl: number;
    if (entry && entry.expires > now) {
      this.cacheHits++;
      ttl = Math.max(0, Math.ceil((entry.expires - now) / 1000));
    } else {
      const ips = this.records.get(name);
      ttl = Math.min(this.ttl, this.cacheSeconds > 0 ? this.cacheSeconds : this.ttl);
      entry = { expires: now + (this.cacheSeconds > 0 ? ttl * 1000 : 0), ips };
      if (this.cacheSeconds > 0) this.cache.set(name, entry);
    }
    if (entry.ips === undefined) {
      this.nxdomains++;
      response.header.rcode = Packet.RCODE.NXDOMAIN;
      response.authorities.push({
        name: this.zone, type: Packet.TYPE.SOA, class: Packet.CLASS.IN, ttl,
        primary: `ns.dns.${this.zone}`, admin: `hostmaster.${this.zone}`, serial: 1, refresh: 7200, retry: 1800, expiration: 86400, minimum: ttl,
      } as Packet.Resource);
    } else if (q.type === Packet.TYPE.A) {
      for (const address of entry.ips) {
        response.answers.push({ name: q.name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl, address } as Packet.Resource);
      }
    }
    return response;
  }

  async stop(): Promise<void> {
    await this.down();
  }
}

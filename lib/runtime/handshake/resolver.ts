import * as dns from 'dns';

/** Name lookups: the system resolver (getaddrinfo, as Flux's ZeroMQ uses), or a given server. */
export interface NameResolver {
  /** The first address of `name`; rejects with an error whose `code` says why (ENOTFOUND, …). */
  lookup(name: string): Promise<string>;
}

export function nameResolver(dnsServer?: string): NameResolver {
  if (dnsServer === undefined) {
    return { lookup: async (name) => (await dns.promises.lookup(name)).address };
  }
  // A test DNS server: query it directly, like a stub resolver pointed at a cluster DNS would.
  const resolver = new dns.promises.Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([dnsServer]);
  return {
    lookup: async (name) => {
      const addrs = await resolver.resolve4(name);
      if (addrs.length === 0) throw Object.assign(new Error(`${name} has no address`), { code: 'ENODATA' });
      return addrs[0];
    },
  };
}

/** A short reason for a failed lookup or connect, stable across retries (for change-only logs). */
export function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ?? err.message ?? String(e);
}

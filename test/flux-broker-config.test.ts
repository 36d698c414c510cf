import { Testing } from 'cdk8s';
import { parse } from 'smol-toml';
import { FluxBrokerConfig } from '../lib';
import { expandHostlist } from '../lib/core/hostlist';

function config(props: Partial<ConstructorParameters<typeof FluxBrokerConfig>[2]> = {}) {
  return new FluxBrokerConfig(Testing.chart(), 'cfg', { clusterName: 'flux-sample', namespace: 'default', hostCount: 4, ...props });
}

describe('FluxBrokerConfig', () => {
  test('renders the five tables of the operator with a range hostlist', () => {
    // WHEN
    const toml = config().toToml();
    // THEN
    const parsed = parse(toml) as any;
    expect(Object.keys(parsed)).toEqual(['access', 'resource', 'bootstrap', 'archive', 'sched-fluxion-qmanager']);
    expect(parsed.bootstrap).toEqual({
      curve_cert: '/mnt/flux/config/curve/curve.cert',
      default_port: 8050,
      default_bind: 'tcp://eth0:%p',
      default_connect: 'tcp://%h.flux-sample.default.svc.cluster.local:%p',
      hosts: [{ host: 'flux-sample-[0-3]' }],
    });
    expect(parsed.resource).toEqual({ path: '/mnt/flux/config/etc/flux/system/R', noverify: true });
    expect(toml).toContain('hosts = [ { host = "flux-sample-[0-3]" } ]\n');
  });

  test('domain, interface, port, service and mount path are props', () => {
    const parsed = parse(config({ clusterDomain: 'hpc.example', bindInterface: 'net1', port: 9000, serviceName: 'svc', mountPath: '/opt/flux' }).toToml()) as any;
    expect(parsed.bootstrap.default_connect).toBe('tcp://%h.svc.default.svc.hpc.example:%p');
    expect(parsed.bootstrap.default_bind).toBe('tcp://net1:%p');
    expect(parsed.bootstrap.default_port).toBe(9000);
    expect(parsed.archive.dbpath).toBe('/opt/flux/config/var/lib/flux/job-archive.sqlite');
  });

  test('output size does not grow with the host count', () => {
    expect(config({ hostCount: 16384 }).toToml().length - config({ hostCount: 4 }).toToml().length).toBe(4);
  });

  test('addTable adds or replaces a table and is checked', () => {
    const c = config();
    c.addTable('sched-fluxion-qmanager', { 'queue-policy': 'easy' });
    c.addTable('tbon', { connect_timeout: '2s' });
    const parsed = parse(c.toToml()) as any;
    expect(parsed['sched-fluxion-qmanager']).toEqual({ 'queue-policy': 'easy' });
    expect(parsed.tbon).toEqual({ connect_timeout: '2s' });
    // rejected changes leave the config as it was
    expect(() => c.addTable('tbon', { 'connect-timeout': '2s' })).toThrow(/\[tbon\] connect-timeout: unknown key \(Flux silently ignores it\)/);
    expect(parse(c.toToml()).tbon).toEqual({ connect_timeout: '2s' });
  });

  test.each([
    [{ bootstrap: { foo: 1 } }, /\[bootstrap\] foo: unknown key/],
    [{ resource: { paht: '/R' } }, /\[resource\] paht: unknown key/],
    [{ broker: { quorum: 3 } }, /\[broker\] quorum: ignored by Flux in TOML; set minSize/],
    [{ shed: { x: 1 } }, /\[shed\]: not a table Flux reads/],
  ])('rejects %j', (table, message) => {
    const c = config();
    const [name, values] = Object.entries(table)[0];
    expect(() => c.addTable(name, values as any)).toThrow(message);
  });

  test('an override is parsed, checked against the hostnames, and re-rendered', () => {
    const override = [
      '[bootstrap]',
      'curve_cert = "/mnt/flux/config/curve/curve.cert"',
      'default_port = 8050',
      'default_bind = "tcp://eth0:%p"',
      'default_connect = "tcp://%h.flux-sample.default.svc.cluster.local:%p"',
      'hosts = [{ host = "flux-sample-[0-1]" }, { host = "flux-sample-[2-3]" }]',
    ].join('\n');
    const toml = config({ override }).toToml();
    const hosts = (parse(toml) as any).bootstrap.hosts.flatMap((h: any) => expandHostlist(h.host));
    expect(hosts).toEqual(['flux-sample-0', 'flux-sample-1', 'flux-sample-2', 'flux-sample-3']);
  });

  test('an override that misses a pod, repeats one or is not TOML fails with every reason', () => {
    const bad = '[bootstrap]\ncurve_cert = "/c"\ndefault_port = "8050"\nhosts = [{ host = "flux-sample-[0-2]" }, { host = "flux-sample-1", port = 1 }]\n';
    expect(() => config({ override: bad })).toThrow(/default_port = "8050": must be a TOML integer[\s\S]*hosts\[1\]\.port: unknown key[\s\S]*flux-sample-1 at rank 3 is not flux-sample-3/);
    const hosts = (h: string) => `[bootstrap]\ncurve_cert = "/c"\nhosts = [${h}]\n`;
    expect(() => config({ override: hosts('{ host = "flux-sample-[0-2]" }') })).toThrow(/missing flux-sample-3 \(a broker whose hostname/);
    expect(() => config({ override: hosts('{ host = "flux-sample-[0-5]" }') })).toThrow(/flux-sample-4 to flux-sample-5 are not pods of this cluster/);
    expect(() => config({ override: hosts('{ host = "flux-sample-[1-3]" }, { host = "flux-sample-0" }') })).toThrow(/missing flux-sample-0/);
    expect(() => config({ override: hosts('{ host = "flux-sample-0" }, { host = "other-1" }, { host = "flux-sample-[2-3]" }') })).toThrow(/other-1 at rank 1 is not flux-sample-1/);
    expect(() => config({ override: hosts('{ host = "flux-sample-0" }, { host = "flux-sample-[1-3]" }') })).not.toThrow();
    expect(() => config({ override: '[bootstrap\n' })).toThrow(/not valid TOML/);
    expect(() => config({ override: '[access]\n' })).toThrow(/\[bootstrap\]: required/);
  });
});

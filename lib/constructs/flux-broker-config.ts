import { Construct } from 'constructs';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { checkFluxConfig } from '../core/flux-config-rules';
import { rangeHostlist } from '../core/hostlist';
import { fluxPaths } from '../core/paths';

/** Props of {@link FluxBrokerConfig}. */
export interface FluxBrokerConfigProps {
  /** Hostname prefix: pods are `<clusterName>-<index>` (the Indexed Job's name). */
  readonly clusterName: string;
  /**
   * Namespace of the pods, part of every broker's connect name.
   * @jsii suppress JSII5018 C# capitalizes members (`Namespace`): not a keyword there
   */
  readonly namespace: string;
  /** The headless Service (the pods' subdomain). @default - clusterName */
  readonly serviceName?: string;
  /** Number of hosts in `[bootstrap] hosts` (the MiniCluster's maxSize). @default 1 */
  readonly hostCount?: number;
  /** The cluster's DNS domain. @default cluster.local */
  readonly clusterDomain?: string;
  /** Interface the brokers bind. @default eth0 */
  readonly bindInterface?: string;
  /** Broker TCP port. @default 8050 */
  readonly port?: number;
  /** Flux view mount path; config paths live under it. @default /mnt/flux */
  readonly mountPath?: string;
  /** Fluxion queue policy. @default fcfs */
  readonly queuePolicy?: string;
  /**
   * A complete broker.toml that replaces the generated one. It is parsed and checked like the
   * generated config, and re-rendered canonically.
   * @default - generated
   * @jsii suppress JSII5018 C# capitalizes members (`Override`): not a keyword there
   */
  readonly override?: string;
}

/**
 * The broker.toml every broker of a MiniCluster loads. Rendered with a TOML library; users may add
 * or replace tables, and every change is checked against what flux-core accepts.
 */
export class FluxBrokerConfig extends Construct {
  /** The RFC 29 hostlist of all hosts, e.g. `flux-sample-[0-3]`. */
  public readonly hostlist: string;
  private readonly tables: Map<string, Record<string, unknown>>;
  private readonly props: FluxBrokerConfigProps;

  constructor(scope: Construct, id: string, props: FluxBrokerConfigProps) {
    super(scope, id);
    this.props = props;
    this.hostlist = rangeHostlist(props.clusterName, props.hostCount ?? 1);
    this.tables = props.override !== undefined ? parseOverride(props.override) : this.defaultTables();
    const errors = this.check();
    if (errors.length > 0) throw new Error(`invalid broker config:\n  - ${errors.join('\n  - ')}`);
  }

  /**
   * Adds a table, or replaces it if it exists (for example `addTable('sched-fluxion-qmanager',
   * { 'queue-policy': 'easy' })`). Throws if Flux would reject or ignore the result.
   */
  public addTable(name: string, values: { [key: string]: any }): void {
    const previous = this.tables.get(name);
    this.tables.set(name, { ...values });
    const errors = this.check();
    if (errors.length > 0) {
      if (previous) this.tables.set(name, previous);
      else this.tables.delete(name);
      throw new Error(`invalid broker config table [${name}]:\n  - ${errors.join('\n  - ')}`);
    }
  }

  /** Names of the tables, in file order. */
  public get tableNames(): string[] {
    return [...this.tables.keys()];
  }

  /** The broker.toml text. The hosts array is on one line, `hosts = [ { host = "…" } ]`. */
  public toToml(): string {
    const blocks: string[] = [];
    for (const [name, table] of this.tables) {
      const { hosts, ...rest } = table;
      let block = stringifyToml({ [name]: rest }).trimEnd();
      if (name === 'bootstrap' && Array.isArray(hosts)) block += `\nhosts = ${inlineArray(hosts)}`;
      blocks.push(block);
    }
    return blocks.join('\n\n') + '\n';
  }

  private defaultTables(): Map<string, Record<string, unknown>> {
    const p = this.props;
    const paths = fluxPaths(p.mountPath ?? '/mnt/flux');
    const service = p.serviceName ?? p.clusterName;
    const domain = p.clusterDomain ?? 'cluster.local';
    return new Map<string, Record<string, unknown>>([
      ['access', { 'allow-guest-user': true, 'allow-root-owner': true }],
      // A static R: with minSize/maxSize nothing schedules until every broker joins otherwise.
      ['resource', { path: paths.resourceFile, noverify: true }],
      ['bootstrap', {
        curve_cert: paths.curveCert,
        default_port: p.port ?? 8050,
        default_bind: `tcp://${p.bindInterface ?? 'eth0'}:%p`,
        default_connect: `tcp://%h.${service}.${p.namespace}.svc.${domain}:%p`,
        hosts: [{ host: this.hostlist }],
      }],
      ['archive', { dbpath: paths.archiveDb, period: '1m', busytimeout: '50s' }],
      ['sched-fluxion-qmanager', { 'queue-policy': p.queuePolicy ?? 'fcfs' }],
    ]);
  }

  private check(): string[] {
    const hostCount = this.props.hostCount ?? 1;
    const config = Object.fromEntries(this.tables);
    const errors = checkFluxConfig(config, { prefix: this.props.clusterName, count: hostCount });
    const bootstrap = this.tables.get('bootstrap');
    if (!bootstrap) errors.push('[bootstrap]: required (brokers find their rank and peers there)');
    else if (hostCount > 1 && typeof bootstrap.curve_cert !== 'string') {
      errors.push('[bootstrap] curve_cert: required when there is more than one broker');
    }
    return errors;
  }
}

function parseOverride(text: string): Map<string, Record<string, unknown>> {
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`invalid broker config: flux.brokerConfig is not valid TOML: ${(e as Error).message.split('\n')[0]}`);
  }
  const out = new Map<string, Record<string, unknown>>();
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw new Error(`invalid broker config: flux.brokerConfig key '${k}' must be a table`);
    }
    out.set(k, v as Record<string, unknown>);
  }
  return out;
}

function inlineArray(entries: unknown[]): string {
  const items = entries.map((e) => {
    const fields = Object.entries(e as Record<string, unknown>)
      .map(([k, v]) => stringifyToml({ [k]: v }).trim());
    return `{ ${fields.join(', ')} }`;
  });
  return `[ ${items.join(', ')} ]`;
}

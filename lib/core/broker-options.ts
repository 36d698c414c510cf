import { fluxPaths } from './paths';

/** What decides the broker attributes (`-Sk=v`) shared by every rank. */
export interface BrokerOptionsInput {
  readonly mountPath: string;
  readonly topology: string;
  readonly connectTimeout: string;
  readonly logLevel: number;
  readonly quiet: boolean;
  readonly zeromq: boolean;
  readonly interactive: boolean;
  readonly disableSocket: boolean;
  readonly size: number;
  readonly maxSize: number;
  readonly minSize?: number;
}

/**
 * The broker command-line attributes. Quorum must be passed here: flux-core ignores
 * `[broker] quorum` in TOML (flux-runtime.md §4).
 */
export function brokerOptions(input: BrokerOptionsInput): string[] {
  const p = fluxPaths(input.mountPath);
  const opts = [
    `-Scron.directory=${p.cronDir}`,
    `-Stbon.topo=${input.topology}`,
    `-Srundir=${p.runDir}`,
    `-Sstatedir=${p.stateDir}`,
  ];
  if (!input.disableSocket) opts.push(`-Slocal-uri=${p.localUri}`);
  if (input.connectTimeout !== '') opts.push(`-Stbon.connect_timeout=${input.connectTimeout}`);
  opts.push(`-Slog-stderr-level=${input.quiet ? 0 : input.logLevel}`, '-Slog-stderr-mode=local');
  if (input.interactive) opts.push('-Sbroker.rc2_none');
  const quorum = input.minSize ?? (input.maxSize > input.size ? input.size : undefined);
  if (quorum !== undefined) opts.push(`-Sbroker.quorum=${quorum}`);
  if (input.zeromq) opts.push('-Stbon.zmqdebug=1');
  return opts;
}

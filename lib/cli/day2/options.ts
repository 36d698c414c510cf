/** Options every day-2 command takes, and how a command reports its errors. */
import { Command, Option } from 'commander';
import { Day2Error, EXIT } from './errors';
import { KubeOptions } from './kube';

/** --kubeconfig, --context and -n, as kubectl has them. */
export function withConnectionOptions(command: Command): Command {
  return command
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account)')
    .option('--context <name>', 'kubeconfig context (default: its current context)')
    .option('-n, --namespace <namespace>', "namespace (default: the context's, else 'default')");
}

export function connectionOptions(o: KubeOptions): KubeOptions {
  return { kubeconfig: o.kubeconfig, context: o.context, namespace: o.namespace };
}

export function outputOption(): Option {
  return new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text');
}

/**
 * A command action that reports a Day2Error as one line on stderr with its exit code (any other
 * error is a bug: its message, exit 1). The process exits at once: a watch or a socket left open
 * must not keep it alive.
 */
export function day2Action<A extends unknown[]>(name: string, action: (...args: A) => Promise<number | void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    let code: number;
    try {
      code = (await action(...args)) ?? EXIT.OK;
    } catch (e) {
      const err = e as Error;
      process.stderr.write(`${name}: error: ${err instanceof Day2Error ? err.message : err.stack ?? err.message}\n`);
      code = err instanceof Day2Error ? err.exitCode : EXIT.USAGE;
    }
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(code);
  };
}

/** Parses a duration: `90`, `90s`, `5m`, `1h` (seconds when no unit); milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Day2Error(EXIT.USAGE, `invalid duration '${text}': use a number with s, m or h, e.g. 90s or 5m`);
  const unit = { ms: 1, s: 1000, m: 60000, h: 3600000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(m[1]) * unit;
}

/** Parses a non-negative integer option value. */
export function parseCount(what: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Day2Error(EXIT.USAGE, `${what}: '${text}' must be a non-negative integer`);
  return Number(text);
}

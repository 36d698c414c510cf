/**
 * JSON-lines logger: one object per line on stdout, `{"ts":…,"level":…,"event":…,…fields}`.
 * Callers log state changes only (never one line per poll), and never pass key material.
 */
export type LogLevel = 'info' | 'warn' | 'error';

export interface LogSink {
  (line: string): void;
}

export class Logger {
  /** Without a sink the logger is silent (the benchmark's simulated pods). */
  constructor(private readonly sink: LogSink | undefined, private readonly base: Record<string, unknown> = {}) {}

  info(event: string, fields: Record<string, unknown> = {}): void {
    this.write('info', event, fields);
  }

  warn(event: string, fields: Record<string, unknown> = {}): void {
    this.write('warn', event, fields);
  }

  error(event: string, fields: Record<string, unknown> = {}): void {
    this.write('error', event, fields);
  }

  private write(level: LogLevel, event: string, fields: Record<string, unknown>): void {
    if (!this.sink) return;
    this.sink(JSON.stringify({ ts: new Date().toISOString(), level, event, ...this.base, ...fields }));
  }
}

/**
 * Logs a retrying activity once per distinct outcome: the first failure, each change of reason and
 * the recovery, instead of one line per attempt.
 */
export class ChangeLog {
  private last: string | undefined;
  constructor(private readonly log: Logger, private readonly event: string) {}

  failing(reason: string, fields: Record<string, unknown> = {}): void {
    if (reason === this.last) return;
    this.last = reason;
    this.log.warn(this.event, { ...fields, outcome: 'retrying', reason });
  }

  ok(fields: Record<string, unknown> = {}): void {
    if (this.last === 'ok') return;
    this.last = 'ok';
    this.log.info(this.event, { ...fields, outcome: 'ok' });
  }

  reset(): void {
    this.last = undefined;
  }
}

/**
 * One autoscaler step: read the Flux agent's snapshot and the Job, decide, ask the agent for drains
 * (DRAIN_FILE), patch the Job, record the decision in its annotation and DECISION_FILE. The loop in
 * main.ts runs a step every periodSeconds; tests run steps one by one.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DECISION_FILE, DRAIN_FILE, STATE_FILE } from '../../core/autoscale-contract';
import { AUTOSCALE_ANNOTATION } from '../../core/day2-contract';
import { AutoscaleConfig } from './config';
import { Decision, decide, Memory, NO_MEMORY } from './decide';
import { FluxState, parseFluxState } from './flux-state';
import { formatIdset } from '../../core/idset';
import { JobApi } from './job-api';

/** A snapshot older than this many periods (and at least 30 s) means the agent stopped: decide nothing. */
const STALE_PERIODS = 5;

/** The annotation's value: what the autoscaler decided, when and why. */
export interface RecordedDecision {
  readonly time: string;
  readonly action: string;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

export class Autoscaler {
  private memory: Memory = NO_MEMORY;
  private recorded: string | undefined;
  private drainWritten: string | undefined;
  private lastProblem: string | undefined;

  constructor(
    private readonly config: AutoscaleConfig,
    private readonly api: JobApi,
    private readonly log: (line: string) => void,
    private readonly clock: () => number = () => Date.now() / 1000,
  ) {}

  /** One step; returns the decision, or undefined when there was nothing to decide from. */
  async step(): Promise<Decision | undefined> {
    const now = this.clock();
    const state = this.readState(now);
    if (!state) return undefined;
    const job = await this.api.get();
    const parallelism = Number(job?.spec?.parallelism ?? 1);
    const ended = (job?.status?.conditions ?? []).some((c: any) => ['Complete', 'Failed', 'SuccessCriteriaMet', 'FailureTarget'].includes(c?.type) && c?.status === 'True');
    const limits = { minSize: this.config.minSize, maxSize: this.config.maxSize, idleSeconds: this.config.idleSeconds };
    const d = decide(state, { parallelism, ended }, limits, this.memory, now);
    this.memory = d.memory;
    this.problem(undefined);
    const drain = formatIdset(d.drain);
    if (drain !== this.drainWritten) {
      writeAtomically(path.join(this.config.dir, DRAIN_FILE), `${drain}\n`);
      this.drainWritten = drain;
    }
    // Record a change of what is done (not every 'none'), and the first decision, so status shows the autoscaler runs.
    const key = `${d.action} ${d.from} ${d.to} ${drain}`;
    const resize = d.action === 'grow' || d.action === 'shrink';
    if (!resize && (this.recorded !== undefined && (d.action === 'none' || key === this.recorded))) return d;
    const record: RecordedDecision = { time: new Date(now * 1000).toISOString().replace(/\.\d+Z$/, 'Z'), action: d.action, from: d.from, to: d.to, reason: d.reason };
    const annotations = { [AUTOSCALE_ANNOTATION]: JSON.stringify(record) };
    await this.api.patch(resize
      ? { metadata: { annotations }, spec: { parallelism: d.to, completions: d.to } }
      : { metadata: { annotations } });
    this.recorded = key;
    const line = `${record.time} ${d.action}${resize ? ` ${d.from} -> ${d.to}` : ''}: ${d.reason}`;
    writeAtomically(path.join(this.config.dir, DECISION_FILE), `${line}\n`);
    this.log(line);
    return d;
  }

  /** The agent's snapshot, or undefined (said once) when there is none yet, it is unreadable or stale. */
  private readState(now: number): FluxState | undefined {
    const file = path.join(this.config.dir, STATE_FILE);
    let state: FluxState;
    try {
      state = parseFluxState(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.problem(code === 'ENOENT' ? `waiting for the Flux agent's first snapshot (${file})` : `cannot read ${file}: ${(e as Error).message}`);
      return undefined;
    }
    const staleAfter = Math.max(30, STALE_PERIODS * this.config.periodSeconds);
    if (now - state.time > staleAfter) {
      this.problem(`the Flux agent's snapshot is ${Math.round(now - state.time)} s old (over ${staleAfter} s): not deciding until it is fresh`);
      return undefined;
    }
    return state;
  }

  private problem(message: string | undefined): void {
    if (message !== undefined && message !== this.lastProblem) this.log(message);
    this.lastProblem = message;
  }
}

/** Writes `text` to `file` through a temp file and a rename: the agent never reads half a file. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o644 });
  fs.renameSync(tmp, file);
}

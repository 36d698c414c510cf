/** Peak resident memory of processes whose command line names a program, sampled from /proc. */
import * as fs from 'fs';

const SAMPLE_MS = 500;

export class RssSampler {
  /** Largest VmHWM (the kernel's own peak RSS) seen, in KiB. */
  public peakKiB = 0;
  private timer?: NodeJS.Timeout;

  constructor(private readonly program: string) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.sample();
  }

  private sample(): void {
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(this.program)) continue;
        const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (hwm) this.peakKiB = Math.max(this.peakKiB, Number(hwm[1]));
      } catch {
        // The process ended while it was read.
      }
    }
  }
}

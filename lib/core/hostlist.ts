/**
 * RFC 29 hostlists for Indexed Job pods: `<prefix>-[0-N]`.
 *
 * Output size must not grow with cluster size, so hosts are always written as one range.
 */

/** The short hostname of pod `index` of an Indexed Job named `jobName`. */
export function hostname(jobName: string, index: number): string {
  return `${jobName}-${index}`;
}

/** The RFC 29 hostlist for `count` hosts `<prefix>-0 … <prefix>-(count-1)`. */
export function rangeHostlist(prefix: string, count: number): string {
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`hostlist count must be a positive integer, got ${count}`);
  }
  return count === 1 ? `${prefix}-0` : `${prefix}-[0-${count - 1}]`;
}

/** A run of hosts `<head><n><tail>` for n from lo to hi (zero-padded to width), in order. */
export interface HostRun {
  readonly head: string;
  readonly tail: string;
  readonly lo: number;
  readonly hi: number;
  readonly width: number;
}

/**
 * Parses an RFC 29 hostlist (comma-separated entries, each with at most one bracketed set of
 * ranges such as `a-[0-3,7]`) into runs, without expanding it: checks stay O(entries).
 * A host without brackets is a run with lo = hi = -1 and the whole name in head.
 */
export function parseHostlist(hostlist: string): HostRun[] {
  const runs: HostRun[] = [];
  for (const entry of splitTopLevel(hostlist)) {
    const m = /^([^[\]]*)\[([^\]]+)\]([^[\]]*)$/.exec(entry);
    if (!m) {
      if (/[[\]]/.test(entry) || entry === '') throw new Error(`invalid hostlist entry '${entry}'`);
      runs.push({ head: entry, tail: '', lo: -1, hi: -1, width: 0 });
      continue;
    }
    const [, head, set, tail] = m;
    for (const part of set.split(',')) {
      const r = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
      if (!r) throw new Error(`invalid hostlist range '${part}' in '${entry}'`);
      const lo = Number(r[1]);
      const hi = r[2] === undefined ? lo : Number(r[2]);
      if (hi < lo) throw new Error(`invalid hostlist range '${part}' in '${entry}'`);
      const width = r[1].length > 1 && r[1].startsWith('0') ? r[1].length : 0;
      runs.push({ head, tail, lo, hi, width });
    }
  }
  return runs;
}

/** Expands an RFC 29 hostlist into host names, in order. Used to check configs, never to render them. */
export function expandHostlist(hostlist: string): string[] {
  const hosts: string[] = [];
  for (const run of parseHostlist(hostlist)) {
    if (run.lo < 0) {
      hosts.push(run.head);
      continue;
    }
    for (let i = run.lo; i <= run.hi; i++) hosts.push(`${run.head}${String(i).padStart(run.width, '0')}${run.tail}`);
  }
  return hosts;
}

function splitTopLevel(hostlist: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of hostlist) {
    if (ch === '[') depth++;
    if (ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  out.push(cur.trim());
  return out;
}

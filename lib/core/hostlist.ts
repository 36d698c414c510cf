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

/**
 * Expands an RFC 29 hostlist (comma-separated entries, each with at most one bracketed
 * set of ranges such as `a-[0-3,7]`). Used to check configs, never to render them.
 */
export function expandHostlist(hostlist: string): string[] {
  const hosts: string[] = [];
  for (const entry of splitTopLevel(hostlist)) {
    const m = /^([^[\]]*)\[([^\]]+)\]([^[\]]*)$/.exec(entry);
    if (!m) {
      if (/[[\]]/.test(entry) || entry === '') throw new Error(`invalid hostlist entry '${entry}'`);
      hosts.push(entry);
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
      for (let i = lo; i <= hi; i++) hosts.push(`${head}${String(i).padStart(width, '0')}${tail}`);
    }
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

/**
 * `--write-docs`: a real-cluster benchmark writes its table into docs/scale.md itself, between the
 * markers `<!-- bench:ID -->` and `<!-- /bench:ID -->`, so the page shows what the benchmark measured
 * and nothing typed by hand. Everything else on the page is left as it is.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The checkout: the nearest directory up with a package.json (bench/ from the sources, build/bench built). */
function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** docs/scale.md of this checkout. */
export const SCALE_DOC = path.join(repositoryRoot(__dirname), 'docs', 'scale.md');

/** Replaces the text between the markers of `id` in `text`; throws when they are not there once, in order. */
export function replaceSection(text: string, id: string, body: string): string {
  const open = `<!-- bench:${id} -->`;
  const close = `<!-- /bench:${id} -->`;
  const from = text.indexOf(open);
  const to = text.indexOf(close);
  if (from < 0 || to < from || text.indexOf(open, from + 1) >= 0 || text.indexOf(close, to + 1) >= 0) {
    throw new Error(`no single '${open}' ... '${close}' section to write the results into`);
  }
  return `${text.slice(0, from + open.length)}\n${body.trimEnd()}\n${text.slice(to)}`;
}

/** Writes `lines` into the section `id` of `file` (docs/scale.md by default). */
export function writeSection(id: string, lines: string[], file = SCALE_DOC): void {
  fs.writeFileSync(file, replaceSection(fs.readFileSync(file, 'utf8'), id, lines.join('\n')));
}

/** The line above a written table: when, the command that measured it, and on what (clusterInfo's nodes; cordoned ones named). */
export function measuredOn(date: string, command: string, cluster: string, unschedulable: string[]): string {
  const cordoned = unschedulable.length ? ` (cordoned, so no pod ran there: ${unschedulable.join(', ')})` : '';
  return `Measured ${date} by \`${command}\` on ${cluster}${cordoned}.`;
}

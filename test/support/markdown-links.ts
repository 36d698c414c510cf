/**
 * Relative links and #anchors of Markdown files, checked as GitHub renders them: a link to a file
 * or folder must exist, and an anchor must be the slug of a heading of its target file.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * Each line of the Markdown with what is not prose blanked out: fenced code blocks, indented code
 * blocks (4 spaces after a blank line), inline code and HTML comments. `headings` keeps inline code.
 */
function prose(markdown: string, keepInlineCode = false): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  let code = false;
  let previous = '';
  for (const line of markdown.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, '')).split('\n')) {
    const opener = /^\s*(```+|~~~+)/.exec(line);
    if (opener || fence) {
      if (opener && !fence) fence = opener[1][0];
      else if (opener && opener[1][0] === fence) fence = undefined;
      out.push('');
    } else {
      code = /^( {4}|\t)/.test(line) && (previous.trim() === '' || code);
      out.push(code ? '' : keepInlineCode ? line : line.replace(/`[^`]*`/g, ''));
    }
    previous = line;
  }
  return out;
}

/**
 * GitHub's heading anchor: the heading's text lower-cased, punctuation removed (letters, digits,
 * `-`, `_` and spaces stay), each space a hyphen.
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[*]/g, '') // emphasis
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M}\- _]/gu, '').replace(/ /g, '-');
}

/** Every anchor of a Markdown text, with GitHub's -1, -2 suffixes for repeated headings. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(markdown, true)) {
    const m = /^#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every `[text](target)` of the prose. */
export function links(markdown: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  prose(markdown).forEach((text, i) => {
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1] });
  });
  return out;
}

/** The broken relative links and anchors of `file`, each as `file:line: target: why`. */
export function brokenLinks(file: string, root: string): string[] {
  const problems: string[] = [];
  const text = fs.readFileSync(file, 'utf8');
  const where = path.relative(root, file);
  for (const { line, target } of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
    if (!fs.existsSync(resolved)) {
      problems.push(`${where}:${line}: ${target}: ${path.relative(root, resolved)} does not exist`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) {
      problems.push(`${where}:${line}: ${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
      problems.push(`${where}:${line}: ${target}: no heading of ${path.relative(root, resolved)} has the anchor #${anchor}`);
    }
  }
  return problems;
}

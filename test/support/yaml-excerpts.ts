/**
 * YAML in the documentation: the fenced blocks of a Markdown file with the marker before each, and
 * a subset match of an excerpt against the synthesized object it claims to be part of.
 *
 * Every ```yaml block carries, on the non-blank line before it, one of:
 *   <!-- excerpt: dist/hello-world.k8s.yaml Job/flux-sample -->   a part of that synthesized object
 *   <!-- not-synthesized: what it is -->                           YAML the user writes (a CR, an Argo CD Application, a PDB)
 */

/** A fenced code block of a Markdown file. */
export interface FencedBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string's first word, lower-cased ('' when none). */
  readonly language: string;
  readonly text: string;
  /** The HTML comment on the last non-blank line before the fence, without `<!--` and `-->`, or undefined. */
  readonly marker?: string;
}

/** The fenced blocks (``` or ~~~, possibly indented) of a Markdown text, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const out: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    const end = lines.findIndex((l, k) => k > i && new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`).test(l));
    const close = end < 0 ? lines.length : end;
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const comment = before >= 0 ? /^\s*<!--\s*([\s\S]*?)\s*-->\s*$/.exec(lines[before]) : null;
    out.push({ line: i + 1, language: open[2].toLowerCase(), text: lines.slice(i + 1, close).join('\n'), marker: comment?.[1] });
    i = close;
  }
  return out;
}

/** What a marker says. */
export type Marker =
  | { readonly kind: 'excerpt'; readonly file: string; readonly objectKind: string; readonly name: string }
  | { readonly kind: 'not-synthesized'; readonly what: string };

/** Parses a block's marker; a string is the error (no marker, or one that does not read as either kind). */
export function parseMarker(marker: string | undefined): Marker | string {
  if (marker === undefined) return 'has no marker';
  const excerpt = /^excerpt:\s+(\S+)\s+([A-Za-z]+)\/(\S+)$/.exec(marker);
  if (excerpt) return { kind: 'excerpt', file: excerpt[1], objectKind: excerpt[2], name: excerpt[3] };
  const input = /^not-synthesized:\s+(\S.*)$/.exec(marker);
  if (input) return { kind: 'not-synthesized', what: input[1] };
  return `has the marker '<!-- ${marker} -->', which is neither 'excerpt: FILE Kind/name' nor 'not-synthesized: WHAT'`;
}

/** Whether a YAML document carries the labels this library puts on what it synthesizes. */
export function looksSynthesized(text: string): boolean {
  return /app\.kubernetes\.io\/managed-by["']?\s*:\s*["']?cdk8s-minicluster/.test(text);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => JSON.stringify(v);

/**
 * The places where `excerpt` is not part of `actual`, each as `path: what`. Mappings: each key of
 * the excerpt must be in the output, with a matching value. Lists of scalars: equal. Other lists:
 * an item with a `name` is the output's item of that name; an item without one is the next item of
 * the output, in order, that it matches (the excerpt may leave items out, not reorder them).
 */
export function excerptMismatches(excerpt: unknown, actual: unknown, path = ''): string[] {
  const at = path || '(top)';
  if (isObject(excerpt)) {
    if (!isObject(actual)) return [`${at}: a mapping in the excerpt, ${show(actual)} in the output`];
    return Object.entries(excerpt).flatMap(([k, v]) => (k in actual
      ? excerptMismatches(v, actual[k], path ? `${path}.${k}` : k)
      : [`${path ? `${path}.${k}` : k}: not in the output`]));
  }
  if (Array.isArray(excerpt)) {
    if (!Array.isArray(actual)) return [`${at}: a list in the excerpt, ${show(actual)} in the output`];
    if (excerpt.every((x) => !isObject(x) && !Array.isArray(x))) {
      return show(excerpt) === show(actual) ? [] : [`${at}: ${show(excerpt)} in the excerpt, ${show(actual)} in the output`];
    }
    const out: string[] = [];
    let next = 0;
    excerpt.forEach((item, i) => {
      const name = isObject(item) && typeof item.name === 'string' ? item.name : undefined;
      if (name !== undefined) {
        const k = actual.findIndex((a) => isObject(a) && a.name === name);
        out.push(...(k < 0 ? [`${at}[name=${name}]: not in the output`] : excerptMismatches(item, actual[k], `${path}[name=${name}]`)));
        return;
      }
      const k = actual.findIndex((a, j) => j >= next && excerptMismatches(item, a).length === 0);
      if (k < 0) out.push(`${at}[${i}]: ${show(item)} matches no item of the output after the ones before it`);
      else next = k + 1;
    });
    return out;
  }
  return excerpt === actual ? [] : [`${at}: ${show(excerpt)} in the excerpt, ${show(actual)} in the output`];
}

/**
 * A small template language for the shell scripts in lib/scripts/templates. Templates stay real,
 * readable bash; the directives are bash comments or plain words:
 *
 * - `@@NAME@@` is replaced by a value, shell-quoted (a string or number becomes one quoted word,
 *   a list becomes quoted words separated by spaces, for a bash array literal `( @@NAME@@ )`).
 * - `#@@IF NAME@@` … `#@@END NAME@@` keeps its lines when flag NAME is true; `#@@UNLESS NAME@@`
 *   … `#@@END NAME@@` when it is false. Blocks nest; the END names its block.
 * - `#@@INCLUDE file.sh@@` inlines another template.
 * - `#@@LINES NAME@@` is replaced by lines of code the renderer built from quoted values.
 *
 * Directive lines never reach the output. An unknown name, an unbalanced block or a leftover `@@`
 * is an error, so a typo in a template fails at synth time instead of shipping a broken script.
 */
import * as fs from 'fs';
import * as path from 'path';
import { shellQuote, shellWords } from './shell-quote';

/** What a template is rendered with. */
export interface TemplateContext {
  /** `@@NAME@@` values, quoted at render time. */
  readonly values: Readonly<Record<string, string | number | readonly string[]>>;
  /** `#@@IF NAME@@` / `#@@UNLESS NAME@@` conditions. */
  readonly flags: Readonly<Record<string, boolean>>;
  /** `#@@LINES NAME@@` code lines (already quoted by the caller). */
  readonly lines?: Readonly<Record<string, readonly string[]>>;
}

const TEMPLATE_CANDIDATES = [
  // ts-jest and ts-node run this file from lib/scripts.
  path.join(__dirname, 'templates'),
  // The compiled file runs from build/lib/scripts; templates ship as sources in lib/scripts/templates.
  path.join(__dirname, '..', '..', '..', 'lib', 'scripts', 'templates'),
];

const cache = new Map<string, string>();

/** The directory that holds the templates, found from either the sources or the build. */
export function templateDirectory(): string {
  const dir = TEMPLATE_CANDIDATES.find((d) => fs.existsSync(path.join(d, 'entrypoint.sh')));
  if (!dir) {
    throw new Error(`cdk8s-minicluster script templates not found (looked in ${TEMPLATE_CANDIDATES.join(', ')})`);
  }
  return dir;
}

function readTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = fs.readFileSync(path.join(templateDirectory(), name), 'utf8');
    cache.set(name, text);
  }
  return text;
}

const DIRECTIVE = /^\s*#@@(IF|UNLESS|END|INCLUDE|LINES) ([A-Za-z0-9_.-]+)@@\s*$/;
const PLACEHOLDER = /@@([A-Z0-9_]+)@@/g;

/** Renders template `name` (a file in lib/scripts/templates). */
export function renderTemplate(name: string, context: TemplateContext): string {
  return renderTemplateText(name, readTemplate(name), context);
}

/** Renders template text (its includes are read from lib/scripts/templates); `name` is for errors. */
export function renderTemplateText(name: string, template: string, context: TemplateContext): string {
  return expandLines(name, template.split('\n'), context, [name]).join('\n');
}

/** One template line with its values substituted; values are never rescanned. */
function substitute(name: string, line: string, context: TemplateContext): string {
  // A leftover marker after the placeholders are taken out is a malformed directive.
  if (line.replace(PLACEHOLDER, '').includes('@@')) throw new Error(`template ${name}: malformed directive in line '${line}'`);
  return line.replace(PLACEHOLDER, (_, key: string) => {
    if (!(key in context.values)) throw new Error(`template ${name}: no value for @@${key}@@`);
    const value = context.values[key];
    return typeof value === 'object' ? shellWords(value) : shellQuote(String(value));
  });
}

/**
 * A template's own comment line, left out of the output: the templates explain themselves at
 * length, and every pod's ConfigMap would carry that prose (a third of the scripts). The header
 * (the comment lines after the shebang, which name the template), shellcheck directives and the
 * shebang stay. Only template lines are tested, never substituted values.
 */
const PROSE_COMMENT = /^\s*#(?!!| shellcheck )/;

function expandLines(name: string, lines: string[], context: TemplateContext, includes: string[]): string[] {
  const out: string[] = [];
  // Open blocks: their name and whether their lines are kept.
  const stack: { block: string; keep: boolean }[] = [];
  const keeping = () => stack.every((b) => b.keep);
  // The top-level template's leading comment lines are its header.
  let header = includes.length === 1;
  for (const line of lines) {
    const m = DIRECTIVE.exec(line);
    if (!m) {
      const comment = PROSE_COMMENT.test(line);
      header = header && (comment || /^#!/.test(line));
      if (keeping() && (header || !comment)) out.push(substitute(name, line, context));
      continue;
    }
    const [, kind, arg] = m;
    if (kind === 'IF' || kind === 'UNLESS') {
      if (!(arg in context.flags)) throw new Error(`template ${name}: unknown flag ${arg}`);
      stack.push({ block: arg, keep: context.flags[arg] === (kind === 'IF') });
    } else if (kind === 'END') {
      const open = stack.pop();
      if (!open || open.block !== arg) {
        throw new Error(`template ${name}: #@@END ${arg}@@ closes ${open ? open.block : 'no block'}`);
      }
    } else if (!keeping()) {
      continue;
    } else if (kind === 'INCLUDE') {
      if (includes.includes(arg)) throw new Error(`template ${name}: recursive include of ${arg}`);
      out.push(...expandLines(arg, readTemplate(arg).replace(/\n$/, '').split('\n'), context, [...includes, arg]));
    } else {
      const code = context.lines?.[arg];
      if (!code) throw new Error(`template ${name}: no lines for ${arg}`);
      // Code built by the renderer from quoted values: inserted as is, never scanned for markers.
      out.push(...code);
    }
  }
  if (stack.length > 0) throw new Error(`template ${name}: unclosed block ${stack[stack.length - 1].block}`);
  return out;
}

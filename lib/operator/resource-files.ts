/**
 * Reads MiniCluster resources from YAML files (multi-document, `-` for stdin) for the command line,
 * keeping where each document and field is so that every message can say file, document and
 * line:column.
 */
import * as fs from 'fs';
import { Document, LineCounter, isNode, parseAllDocuments } from 'yaml';
import { PathSegment } from './problems';

/** The name standard input gets in messages. */
export const STDIN_NAME = '<stdin>';

/** One non-empty YAML document of an input file. */
export class SourceDocument {
  constructor(
    /** The file as given (or `<stdin>`). */
    public readonly file: string,
    /** 1-based position of the document in its file. */
    public readonly index: number,
    /** 0-based position of the file among the inputs. */
    public readonly fileIndex: number,
    /** The parsed value. */
    public readonly value: unknown,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  /** `file:line:col: document N` for the field at `segments` (or its nearest existing parent). */
  public location(segments: PathSegment[] = []): string {
    for (let n = segments.length; n >= 0; n--) {
      const node = n === 0 ? this.doc.contents : this.doc.getIn(segments.slice(0, n), true);
      if (isNode(node) && node.range) {
        const { line, col } = this.lines.linePos(node.range[0]);
        return `${this.file}:${line}:${col}: document ${this.index}`;
      }
    }
    return `${this.file}: document ${this.index}`;
  }
}

/** A problem of an input, with its place in the input order (file, then document). */
export interface InputProblem {
  readonly fileIndex: number;
  /** 1-based document position, 0 for the file as a whole. */
  readonly documentIndex: number;
  /** The message, starting with its location. */
  readonly message: string;
}

/** The messages of `problems`, in input order (file, then document). */
export function inInputOrder(problems: InputProblem[]): string[] {
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.fileIndex - b.p.fileIndex || a.p.documentIndex - b.p.documentIndex || a.i - b.i)
    .map(({ p }) => p.message);
}

/** What readSourceFiles found: the documents, and what could not be read or parsed. */
export interface SourceFiles {
  readonly documents: SourceDocument[];
  readonly problems: InputProblem[];
}

/**
 * Reads and parses every file (`-` reads `stdin()`); documents that hold nothing (only comments, or
 * an empty `---` section) are skipped, a file without any document is a problem.
 */
export function readSourceFiles(files: string[], stdin: () => string): SourceFiles {
  const documents: SourceDocument[] = [];
  const problems: InputProblem[] = [];
  files.forEach((file, fileIndex) => {
    const name = file === '-' ? STDIN_NAME : file;
    let text: string;
    try {
      text = file === '-' ? stdin() : fs.readFileSync(file, 'utf8');
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const why = err.code === 'EISDIR' ? 'is a directory (give the YAML files)' : err.code === 'ENOENT' ? 'no such file' : err.message;
      problems.push({ fileIndex, documentIndex: 0, message: `${name}: cannot read: ${why}` });
      return;
    }
    const lines = new LineCounter();
    const parsed = parseAllDocuments(text, { lineCounter: lines });
    let count = 0;
    [...parsed].forEach((doc, i) => {
      if (doc.errors.length > 0) {
        for (const error of doc.errors) {
          const pos = error.linePos?.[0];
          const message = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
          const where = `${name}${pos ? `:${pos.line}:${pos.col}` : ''}: document ${i + 1}`;
          problems.push({ fileIndex, documentIndex: i + 1, message: `${where}: YAML syntax error: ${message}` });
        }
        count++;
        return;
      }
      const value = doc.toJS();
      if (value === null || value === undefined) return;
      documents.push(new SourceDocument(name, i + 1, fileIndex, value, doc, lines));
      count++;
    });
    if (count === 0) problems.push({ fileIndex, documentIndex: 0, message: `${name}: no YAML documents (expected MiniCluster resources)` });
  });
  return { documents, problems };
}

/**
 * What jsii publishes to Python, Go, Java and .NET, checked with the TypeScript compiler (running
 * jsii itself takes `npm run package`): jsii drops free functions, constants and type aliases, so
 * every such export of lib/index.ts is marked `@jsii ignore` and names its jsii-visible
 * counterpart, a static member of an exported class; classes, interfaces and enums are never
 * ignored. Without this, a new function would silently be missing from the other languages.
 */
import * as path from 'path';
import * as ts from 'typescript';

const ENTRY = path.join(__dirname, '..', 'lib', 'index.ts');

interface Export {
  readonly name: string;
  readonly declaration: ts.Declaration;
  /** Text of the `@jsii ignore` tag, if any. */
  readonly ignore?: string;
}

function publicApi(): { exports: Export[] } {
  const program = ts.createProgram([ENTRY], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
  const exports = checker.getExportsOfModule(moduleSymbol).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations![0];
    const tag = ts.getJSDocTags(declaration).find((t) => t.tagName.text === 'jsii');
    const text = tag ? ts.getTextOfJSDocComment(tag.comment) ?? '' : '';
    return { name: exported.getName(), declaration, ignore: text.startsWith('ignore') ? text : undefined };
  });
  return { exports };
}

const { exports: api } = publicApi();
const dropped = api.filter((e) => ts.isFunctionDeclaration(e.declaration) || ts.isVariableDeclaration(e.declaration) || ts.isTypeAliasDeclaration(e.declaration));
const published = api.filter((e) => !dropped.includes(e));

/** Static members of the exported classes, as `Class.member`. */
const staticMembers = new Set(published.flatMap((e) => (ts.isClassDeclaration(e.declaration)
  ? e.declaration.members
    .filter((m) => m.name && ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Static && !(ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Private))
    .map((m) => `${e.name}.${m.name!.getText()}`)
  : [])));

describe('the API other languages get through jsii', () => {
  test('there are TypeScript-only exports, and classes to stand for them', () => {
    expect(dropped.map((e) => e.name)).toEqual(expect.arrayContaining(['convertCustomResource', 'CRD_FIELDS', 'DEFAULT_KUBERNETES_VERSION']));
    expect(staticMembers).toContain('OperatorConverter.convert');
  });

  test.each(dropped.map((e) => [e.name, e]))('%s (dropped by jsii) is marked @jsii ignore, naming its counterpart', (_name, e) => {
    expect(e.ignore).toBeDefined();
    if (ts.isTypeAliasDeclaration(e.declaration)) return; // de-sugared where it is used
    const counterpart = /\b([A-Z]\w*)\.([A-Za-z_]\w*)/.exec(e.ignore!);
    expect(counterpart).not.toBeNull();
    expect(staticMembers).toContain(`${counterpart![1]}.${counterpart![2]}`);
  });

  test('no class, interface or enum is ignored', () => {
    expect(published.filter((e) => e.ignore).map((e) => e.name)).toEqual([]);
  });
});

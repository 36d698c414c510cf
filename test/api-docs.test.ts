/**
 * The public API is documented (aws-cdk-lib style), checked with the TypeScript compiler over what
 * lib/index.ts exports, so it cannot rot: every exported class, interface, enum, function and
 * constant has a doc summary, and so do every public member of a class, every property of an
 * interface and every enum member; every optional property also says its `@default`.
 */
import * as path from 'path';
import * as ts from 'typescript';

const ENTRY = path.join(__dirname, '..', 'lib', 'index.ts');

function problems(): string[] {
  const program = ts.createProgram([ENTRY], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const out: string[] = [];
  const summary = (symbol: ts.Symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const hasDefault = (symbol: ts.Symbol) => symbol.getJsDocTags(checker).some((t) => t.name === 'default');
  const where = (d: ts.Declaration) => `${path.relative(path.dirname(ENTRY), d.getSourceFile().fileName)}`;

  const source = program.getSourceFile(ENTRY)!;
  const moduleSymbol = checker.getSymbolAtLocation(source)!;
  const seen = new Set<ts.Symbol>();
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (seen.has(symbol)) continue;
    seen.add(symbol);
    const decl = symbol.declarations?.[0];
    if (!decl) continue;
    const name = exported.getName();
    if (!summary(symbol)) out.push(`${where(decl)}: ${name}: no doc summary`);
    if (ts.isClassDeclaration(decl)) {
      for (const member of decl.members) {
        if (ts.isConstructorDeclaration(member) || !member.name) continue;
        const modifiers = ts.getCombinedModifierFlags(member);
        if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        if (ts.isPrivateIdentifier(member.name) || member.name.getText().startsWith('_')) continue;
        const m = checker.getSymbolAtLocation(member.name);
        if (m && !summary(m)) out.push(`${where(decl)}: ${name}.${member.name.getText()}: no doc summary`);
      }
    } else if (ts.isInterfaceDeclaration(decl)) {
      for (const member of decl.members) {
        if (!member.name) continue;
        const m = checker.getSymbolAtLocation(member.name);
        if (!m) continue;
        const label = `${where(decl)}: ${name}.${member.name.getText()}`;
        if (!summary(m)) out.push(`${label}: no doc summary`);
        if (ts.isPropertySignature(member) && member.questionToken && !hasDefault(m)) out.push(`${label}: optional, but no @default`);
      }
    } else if (ts.isEnumDeclaration(decl)) {
      for (const member of decl.members) {
        const m = checker.getSymbolAtLocation(member.name);
        if (m && !summary(m)) out.push(`${where(decl)}: ${name}.${member.name.getText()}: no doc summary`);
      }
    }
  }
  return out;
}

describe('public API documentation', () => {
  test('every export, public member, property and enum member has a doc summary; every optional property a @default', () => {
    expect(problems()).toEqual([]);
  });
});

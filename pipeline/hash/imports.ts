/**
 * The modules a TypeScript or JavaScript source imports, read by TypeScript's own parser: static
 * imports (type-only ones too), `export … from`, `import x = require('…')`, `import('…')` with a
 * literal (as a call or in a type), and nothing that only looks like one in a comment, a string
 * or a template. One scanner for the two readers of the import graph: code identity (which files
 * a stage's key covers, code-identity.ts) and the layer rules (stages/layers.ts).
 *
 * Why the parser and not `ts.preProcessFile` (TypeScript's quick scanner): the quick scanner
 * loses its place after a regular expression inside a template literal (`${s.replace(/'/g, "''")}`)
 * and misses every import after it. Why not a regular expression: it cannot tell code from
 * strings. TypeScript is loaded on the first call, not at import, so a run whose files are all
 * known (code-identity.ts remembers their imports by content) never loads it.
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

/** Bump when what counts as an import changes: remembered scans of another scanner are not reused. */
export const IMPORT_SCANNER = 'typescript-ast-1';

let ts: typeof TS | null = null;

function kindOf(fileName: string): TS.ScriptKind {
  const k = ts!.ScriptKind;
  if (/\.[cm]?jsx?$/.test(fileName)) return fileName.endsWith('x') ? k.JSX : k.JS;
  return fileName.endsWith('.tsx') ? k.TSX : k.TS;
}

/** The literal module name a node imports, or null when it imports none (or not by a literal). */
function importedName(n: TS.Node): string | null {
  const t = ts!;
  if ((t.isImportDeclaration(n) || t.isExportDeclaration(n)) && n.moduleSpecifier && t.isStringLiteral(n.moduleSpecifier)) {
    return n.moduleSpecifier.text;
  }
  if (t.isImportEqualsDeclaration(n) && t.isExternalModuleReference(n.moduleReference)) {
    const e = n.moduleReference.expression;
    return t.isStringLiteral(e) ? e.text : null;
  }
  if (t.isCallExpression(n) && n.expression.kind === t.SyntaxKind.ImportKeyword) {
    const a = n.arguments[0];
    return a && t.isStringLiteralLike(a) ? a.text : null;
  }
  if (t.isImportTypeNode(n) && t.isLiteralTypeNode(n.argument) && t.isStringLiteral(n.argument.literal)) {
    return n.argument.literal.text;
  }
  return null;
}

/**
 * The module specifiers `source` imports, in source order (duplicates kept). `fileName` only
 * chooses the syntax (.ts, .tsx, .js, .mjs…); nothing is read from disk.
 */
export function importSpecifiers(source: string, fileName = 'module.ts'): string[] {
  ts ??= createRequire(import.meta.url)('typescript') as typeof TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, kindOf(fileName));
  const out: string[] = [];
  const visit = (n: TS.Node): void => {
    const name = importedName(n);
    if (name !== null) out.push(name);
    ts!.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

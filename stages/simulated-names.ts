/**
 * The rule that only the stand-ins and the wiring name a simulated model (checked with the other
 * layers, layers.ts). Everywhere else a model or judge is simulated because its spec says so
 * (`simulated: true`, stages/roster/), and rows carry that flag: code that knew the stand-ins by
 * name would silently treat a renamed or new one as an LLM. A file breaks it when it
 *
 * - spells a stand-in's name in a string (the names are the run roster's, given by the caller), or
 * - tells a model by the word "simulated" in its name (`.includes('simulated')`, `/simulated/.test`).
 */
import ts from 'typescript';

/**
 * Files that are the stand-ins or the wiring: they may name simulated models. Every stand-in
 * (agents, offline writers, simulated and similarity judges, CPGBench's) lives in stages/agents,
 * which nothing but the wiring imports (a rule of its own, layers.ts).
 */
const STAND_IN_FILES = [
  /^stages\/agents\//,
  /^stages\/models\//,
  // The wiring: dag.config.ts, cpgbench.config.ts (any top-level *.config.ts).
  /^[^/]+\.config\.ts$/,
];
const NAME_TESTS = new Set(['includes', 'startsWith', 'endsWith', 'indexOf', 'match', 'search', 'test']);

export const isStandIn = (file: string) => STAND_IN_FILES.some((r) => r.test(file));

const textOf = (n: ts.Node): string | null =>
  ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isRegularExpressionLiteral(n) ? n.text : null;

/** What in `source` names a simulated model, one line each; nothing for a stand-in or the wiring. */
export function simulatedNaming(file: string, source: string, standInNames: readonly string[]): string[] {
  if (isStandIn(file)) return [];
  const out: string[] = [];
  const names = new Set(standInNames);
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node): void => {
    const text = textOf(n);
    if (text !== null && names.has(text)) out.push(`spells the stand-in name '${text}'; read its spec's simulated flag instead`);
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && NAME_TESTS.has(n.expression.name.text)) {
      const probes = [n.expression.expression, ...n.arguments].map(textOf);
      if (probes.some((t) => t !== null && /simulated/i.test(t)))
        out.push(`tells a model by "simulated" in its name (.${n.expression.name.text}); read the simulated flag of its spec or row`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * The project's layers as rules over its imports, checked by layers.test.ts against the tree:
 *
 * - the simulated agents (stages/agents, CPGBench's under stages/agents/cpgbench) hang off the
 *   side: only the wiring (dag.config.ts, cpgbench.config.ts, stages/models) and the other
 *   stand-ins import them;
 * - only the stand-ins and the wiring name a simulated model (simulated-names.ts): no other file
 *   imports the stand-ins' modules, spells a stand-in's name, or tells a stand-in by its name
 *   (`name.includes('simulated')`); a model's or judge's spec carries a `simulated` flag instead;
 * - pipeline/ imports nothing of stages/ or of the wiring, and its runner (pipeline/exec,
 *   pipeline/store) never names simulation;
 * - the folders of stages/ (and pipeline/ with them) import each other without a cycle; each
 *   family folder of stages/cpgbench (construct, tasks, judge, results, report, read) is a
 *   layer of its own.
 *
 * Test code (tests, test support, fixtures, `testing/` folders) is left out: a test may set up
 * its subject with anything, and is no layer of the program.
 */
import { dirname, join, normalize } from 'node:path';
// The one import scanner, shared with code identity (stages/layers.ts is a test-side tool, in no layer).
import { importSpecifiers } from '../pipeline/hash/imports.ts';
import { isStandIn, simulatedNaming } from './simulated-names.ts';

export interface Violation {
  file: string;
  rule: string;
  detail: string;
}

// Tests, `testing/` folders, fixtures, and test data modules (test-support.ts, test-rows.ts, …).
const TEST_CODE = /(\.test\.ts$|(^|\/)testing\/|(^|\/)test-[a-z-]+\.ts$|\.fixture\.ts$)/;

export function isTestCode(file: string): boolean {
  return TEST_CODE.test(file);
}

/** Relative imports of a source file, resolved to repository paths (packages are left out). */
export function importsOf(file: string, source: string): string[] {
  return importSpecifiers(source, file)
    .filter((f) => f.startsWith('.'))
    .map((f) => normalize(join(dirname(file), f)).replace(/\\/g, '/'));
}

/** The layer a file belongs to: `stages/<folder>`, `stages/cpgbench/<folder>`, `pipeline`, `wiring` (a top-level *.config.ts), or null. */
export function layerOf(file: string): string | null {
  if (/^[^/]+\.config\.ts$/.test(file)) return 'wiring';
  if (file.startsWith('pipeline/')) return 'pipeline';
  const family = /^stages\/cpgbench\/([^/]+)\//.exec(file);
  if (family) return `stages/cpgbench/${family[1]}`;
  const m = /^stages\/([^/]+)\//.exec(file);
  return m ? `stages/${m[1]}` : null;
}

function cycles(edges: Map<string, Set<string>>): string[][] {
  const out: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of [...(edges.get(n) ?? [])].sort()) {
      if (state.get(m) === 'open') out.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...edges.keys()].sort()) if (!state.has(n)) visit(n);
  return out;
}

/**
 * Every broken rule of a tree given as repository path → source text. `standInNames`: the
 * simulated models' names (the run's roster), which no file but the stand-ins may spell.
 */
export function layerViolations(files: ReadonlyMap<string, string>, standInNames: readonly string[] = []): Violation[] {
  const out: Violation[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [file, source] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (isTestCode(file)) continue;
    const from = layerOf(file);
    if (from === null) continue;
    for (const detail of simulatedNaming(file, source, importsOf(file, source), standInNames))
      out.push({ file, rule: 'only the stand-ins name a simulated model', detail });
    if (/^pipeline\/(exec|store)\//.test(file) && /simulat/i.test(source)) {
      const detail = 'the text names simulation; report generic counters instead';
      out.push({ file, rule: 'the runner knows nothing of simulation', detail });
    }
    for (const target of importsOf(file, source)) {
      const to = layerOf(target);
      if (to === null || to === from) continue;
      if (to === 'stages/agents' && !isStandIn(file)) {
        const detail = `imports ${target}; pass what it needs as data or through the LLM client`;
        out.push({ file, rule: 'only the wiring imports stages/agents', detail });
      }
      if (from === 'pipeline' && (to.startsWith('stages/') || to === 'wiring')) {
        out.push({ file, rule: 'pipeline/ imports nothing of the project', detail: `imports ${target}` });
      }
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  for (const c of cycles(edges)) out.push({ file: c[0]!, rule: 'no folder cycle', detail: c.join(' → ') });
  return out;
}

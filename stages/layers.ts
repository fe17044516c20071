/**
 * The project's layers as rules over its imports, checked by layers.test.ts against the tree:
 *
 * - the simulated agents (stages/agents, CPGBench's under stages/agents/cpgbench) hang off the
 *   side: only the wiring (dag.config.ts, cpgbench.config.ts, stages/models) and the other
 *   stand-ins import them;
 * - only the stand-ins and the wiring name a simulated model (simulated-names.ts): no other file
 *   imports the stand-ins' modules, spells a stand-in's name, or tells a stand-in by its name
 *   (`name.includes('simulated')`); a model's or judge's spec carries a `simulated` flag instead;
 *   the notebooks (notebooks/: their pages' module scripts, lib/*.js and the export code) too,
 *   which read the rows' flags (`simulated`, `judge_simulated`, `patient_simulated`);
 * - pipeline/ imports nothing of stages/ or of the wiring, and its runner (pipeline/exec,
 *   pipeline/store) never names simulation;
 * - a configuration (the wiring: dag.config.ts, cpgbench.config.ts, any <name>.config.ts, and
 *   stages/models, which it builds the rosters with) reads nothing of process.env: its options
 *   give it what it needs, so the no-op fingerprint, which hashes them, misses nothing;
 * - the folders of stages/ (and pipeline/ with them) import each other without a cycle; each
 *   family folder of stages/cpgbench (construct, tasks, judge, results, report, read) is a
 *   layer of its own.
 *
 * - stage code (every file under stages/ but the wiring's stages/models, the stand-ins'
 *   stages/agents, the CLI's commands and these test-side tools) imports the runner only through
 *   pipeline/stage.ts: a stage's code identity covers what it imports, and the seam is what a
 *   change to the runner may rerun;
 * - test helpers live in tests or `testing/` folders: no other file imports a `testing/` folder,
 *   and no file outside one is named as test support (test-*.ts, *fixture*, *test-support*).
 *
 * Test code (tests and `testing/` folders) is left out of the other rules: a test may set up its
 * subject with anything, and is no layer of the program.
 */
import { dirname, join, normalize } from 'node:path';
// The one import scanner, shared with code identity (stages/layers.ts is a test-side tool, in no layer).
import { importSpecifiers } from '../pipeline/hash/imports.ts';
import { isStandIn, simulatedNaming } from './simulated-names.ts';
import { pageScripts } from './page-scripts.ts';

export interface Violation {
  file: string;
  rule: string;
  detail: string;
}

// Tests and `testing/` folders (where fixtures and test support live).
const TEST_CODE = /(\.test\.ts$|(^|\/)testing\/)/;
// Names that say "test helper": such a file belongs in a `testing/` folder.
const TEST_HELPER_NAME = /(^|\/)(test-[a-z-]+\.ts|[^/]*fixtures?[^/]*\.ts|[^/]*test-support[^/]*\.ts)$/;
// Benchmarks set their workloads up like tests do.
const BENCH = /^bench\//;

export function isTestCode(file: string): boolean {
  return TEST_CODE.test(file) || BENCH.test(file);
}

// CLI commands the project adds (stages/commands/, a benchmark's <family>/commands/): they run in
// the CLI's process, outside any stage's code identity.
const COMMAND = /(^stages\/([^/]+\/)?commands\/|-command\.ts$)/;
// The layer rules themselves, a test-side tool of no layer.
const LAYER_TOOLS = new Set(['stages/layers.ts', 'stages/simulated-names.ts', 'stages/page-scripts.ts']);

/** Stage code: what must reach the runner through pipeline/stage.ts alone. */
export function isStageCode(file: string): boolean {
  if (!file.startsWith('stages/') || isTestCode(file) || LAYER_TOOLS.has(file) || COMMAND.test(file)) return false;
  return !/^stages\/(models|agents)\//.test(file);
}

function seamViolations(file: string, imports: readonly string[]): Violation[] {
  const out: Violation[] = [];
  if (!isTestCode(file)) {
    if (TEST_HELPER_NAME.test(file)) {
      const detail = 'named as a test helper outside a testing/ folder; move it into one (or into the test that uses it)';
      out.push({ file, rule: 'test helpers live in testing/ folders', detail });
    }
    for (const target of imports.filter((t) => TEST_CODE.test(t))) {
      const detail = `imports ${target}; production code may not depend on test helpers`;
      out.push({ file, rule: 'test helpers live in testing/ folders', detail });
    }
  }
  if (isStageCode(file))
    for (const target of imports.filter((t) => t.startsWith('pipeline/') && t !== 'pipeline/stage.ts')) {
      const detail = `imports ${target}; import it from pipeline/stage.ts (re-export it there if a stage needs it)`;
      out.push({ file, rule: 'stage code reaches the runner only through pipeline/stage.ts', detail });
    }
  return out;
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

// Modules a program loads by name, not by import: stages (the wiring names their files), configs, commands.
const ENTRY = /(\.stage\.ts$|^[^/]+\.config\.ts$|^stages\/commands\/)/;

/** Production modules that only tests import: test helpers in a production folder. */
function testOnlyModules(files: ReadonlyMap<string, string>): Violation[] {
  const importers = new Map<string, { test: number; program: number }>();
  for (const [file, source] of files)
    for (const target of importsOf(file, source)) {
      const n = importers.get(target) ?? { test: 0, program: 0 };
      if (isTestCode(file)) n.test++;
      else n.program++;
      importers.set(target, n);
    }
  const out: Violation[] = [];
  for (const [file, n] of [...importers].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!files.has(file) || isTestCode(file) || ENTRY.test(file) || LAYER_TOOLS.has(file) || n.program > 0) continue;
    const detail = `only tests import it (${n.test}); move it into a testing/ folder, or delete it if nothing needs it`;
    out.push({ file, rule: 'test helpers live in testing/ folders', detail });
  }
  return out;
}

/**
 * Every broken rule of a tree given as repository path → source text. `standInNames`: the
 * simulated models' names (the run's roster), which no file but the stand-ins may spell.
 */
export function layerViolations(pages: ReadonlyMap<string, string>, standInNames: readonly string[] = []): Violation[] {
  // A notebook page is read by its code (its module scripts), never by its prose.
  const files = new Map([...pages].map(([file, text]) => [file, file.endsWith('.html') ? pageScripts(text) : text]));
  const out: Violation[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [file, source] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push(...seamViolations(file, importsOf(file, source)));
    if (isTestCode(file)) continue;
    const from = layerOf(file);
    if (from !== null || file.startsWith('notebooks/'))
      for (const detail of simulatedNaming(file, source, standInNames))
        out.push({ file, rule: 'only the stand-ins name a simulated model', detail });
    if (from === null) continue;
    if (/^pipeline\/(exec|store)\//.test(file) && /simulat/i.test(source)) {
      const detail = 'the text names simulation; report generic counters instead';
      out.push({ file, rule: 'the runner knows nothing of simulation', detail });
    }
    if ((from === 'wiring' || from === 'stages/models') && /process\.env/.test(source)) {
      const detail = 'reads process.env; take the value from the options (options.env for variables a models file names)';
      out.push({ file, rule: 'a configuration reads no environment', detail });
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
  out.push(...testOnlyModules(files));
  for (const c of cycles(edges)) out.push({ file: c[0]!, rule: 'no folder cycle', detail: c.join(' → ') });
  return out;
}

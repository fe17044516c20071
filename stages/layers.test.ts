import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf, layerViolations } from './layers.ts';
import { runModels } from './models/run-models.ts';
import { cpgRunModels } from './models/cpgbench-models.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts')) out.set(relative(repo, path).replace(/\\/g, '/'), readFileSync(path, 'utf8'));
  }
  return out;
}

// Every simulated model the run's roster knows (agents, patient, judges, construction stand-ins).
const standInNames = [
  ...runModels({ root: repo, env: { CDP_MODELS: '' } }).roster,
  ...cpgRunModels({ root: repo, env: { CDP_MODELS: '' } }).roster,
]
  .filter((m) => m.simulated)
  .map((m) => m.name);

test('the tree keeps its layers: agents only from the wiring, stand-ins named only by themselves, pipeline apart, no folder cycle', () => {
  const files = sources(join(repo, 'stages'), sources(join(repo, 'pipeline')));
  for (const config of ['dag.config.ts', 'cpgbench.config.ts']) files.set(config, readFileSync(join(repo, config), 'utf8'));
  assert.ok(files.size > 200, `${files.size} files read`);
  assert.ok(
    [...files.keys()].some((f) => f.startsWith('stages/cpgbench/')),
    'CPGBench is read too',
  );
  assert.ok(standInNames.includes('simulated-oracle') && standInNames.includes('simulated-tfidf'), standInNames.join(', '));
  assert.ok(standInNames.includes('simulated-cpg-oracle') && standInNames.includes('simulated-cpg-judge'), standInNames.join(', '));
  assert.deepEqual(layerViolations(files, standInNames), []);
});

test('naming a simulated model outside the stand-ins fails: an import of their names, a spelled name, a test by name', () => {
  const files = new Map([
    ['stages/report/judges.ts', "import { SIMULATED_JUDGE_NAMES } from '../judge/simulated-judges.ts';\n"],
    ['stages/evaluate/correlations.stage.ts', "const judges = ['simulated-token-f1', 'gpt-5.4-mini'];\n"],
    ['stages/tasks/task-unit.ts', "export const isSimulated = (m: string) => m.includes('simulated');\n"],
    ['stages/report/figures.ts', 'const sim = (m: string) => /simulated-/.test(m) || m.startsWith(`simulated`);\n'],
    // Allowed: the stand-ins and the wiring, test code, the word in prose, a flag read from a row.
    ['stages/judge/simulated-judges.ts', "export const SIMULATED_JUDGE_NAMES = ['simulated-token-f1'];\n"],
    ['stages/models/run-llm.ts', "import { SIMULATED_JUDGE_NAMES } from '../judge/simulated-judges.ts';\n"],
    ['stages/report/judges.test.ts', "const j = 'simulated-token-f1'.includes('simulated');\n"],
    [
      'stages/report/leaderboard.ts',
      "// simulated-oracle ranks apart\nconst t = 'simulated agents, ranked apart';\nconst s = (r: { simulated: boolean }) => r.simulated;\n",
    ],
  ]);
  const v = layerViolations(files, ['simulated-token-f1', 'simulated-oracle']).filter(
    (x) => x.rule === 'only the stand-ins name a simulated model',
  );
  assert.deepEqual(
    v.map((x) => [x.file, x.detail.split(';')[0]]),
    [
      ['stages/evaluate/correlations.stage.ts', "spells the stand-in name 'simulated-token-f1'"],
      ['stages/report/figures.ts', 'tells a model by "simulated" in its name (.test)'],
      ['stages/report/figures.ts', 'tells a model by "simulated" in its name (.startsWith)'],
      ['stages/report/judges.ts', 'imports stages/judge/simulated-judges.ts'],
      ['stages/tasks/task-unit.ts', 'tells a model by "simulated" in its name (.includes)'],
    ],
  );
});

test('CPGBench: its families are layers of their own, may not import the stand-ins, and its wiring may', () => {
  const files = new Map([
    ['stages/cpgbench/tasks/bad.ts', "import { simulatedJudge } from '../../agents/cpgbench/simulated-judge.ts';\n"],
    ['stages/cpgbench/judge/j.ts', "import { x } from '../results/r.ts';\n"],
    ['stages/cpgbench/results/r.ts', "import { y } from '../judge/j.ts';\n"],
    ['cpgbench.config.ts', "import { cpgOfflineHandlers } from './stages/agents/cpgbench/roster.ts';\n"],
    ['stages/models/cpgbench-llm.ts', "import { r } from '../agents/cpgbench/roster.ts';\n"],
  ]);
  assert.deepEqual(
    layerViolations(files).map((v) => [v.file, v.rule, v.detail]),
    [
      [
        'stages/cpgbench/tasks/bad.ts',
        'only the wiring imports stages/agents',
        'imports stages/agents/cpgbench/simulated-judge.ts; pass what it needs as data or through the LLM client',
      ],
      ['stages/cpgbench/judge', 'no folder cycle', 'stages/cpgbench/judge → stages/cpgbench/results → stages/cpgbench/judge'],
    ],
  );
});

test('imports are read by the TypeScript scanner: static, type-only, re-exports and dynamic, never comments or strings', () => {
  const src = [
    "import { a } from '../agents/roster.ts';",
    "import type { B } from './b.ts';",
    "export { c } from '../judge/c.ts';",
    "const m = await import('../models/run-llm.ts');",
    "// import { x } from '../agents/x.ts';",
    'const s = "import { y } from \'../agents/y.ts\'";',
    "import { readFileSync } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(importsOf('stages/evaluate/x.ts', src).sort(), [
    'stages/agents/roster.ts',
    'stages/evaluate/b.ts',
    'stages/judge/c.ts',
    'stages/models/run-llm.ts',
  ]);
});

test('a forbidden import, a cycle and a runner naming simulation are each reported', () => {
  const files = new Map([
    ['stages/evaluate/bad.ts', "import { planCase } from '../agents/perturbation-agent.ts';\n"],
    ['stages/agents/perturbation-agent.ts', "import { x } from '../construct/types.ts';\n"],
    ['stages/construct/types.ts', "import { y } from '../stats/rng.ts';\n"],
    ['stages/stats/rng.ts', "import { z } from '../construct/types.ts';\n"],
    ['pipeline/exec/run.ts', "import { m } from '../../stages/models/run-llm.ts';\nconst simulatedCalls = 0;\n"],
    ['stages/evaluate/bad.test.ts', "import { planCase } from '../agents/perturbation-agent.ts';\n"],
    ['stages/models/run-llm.ts', "import { r } from '../agents/roster.ts';\n"],
  ]);
  const v = layerViolations(files);
  assert.deepEqual(
    v.map((x) => [x.file, x.rule]),
    [
      ['pipeline/exec/run.ts', 'the runner knows nothing of simulation'],
      ['pipeline/exec/run.ts', 'pipeline/ imports nothing of the project'],
      ['stages/evaluate/bad.ts', 'only the wiring imports stages/agents'],
      ['stages/construct', 'no folder cycle'],
    ],
  );
  assert.equal(v[3]!.detail, 'stages/construct → stages/stats → stages/construct');
});

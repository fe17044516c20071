import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf, layerViolations } from './layers.ts';

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

test('the tree keeps its layers: agents only from the wiring, pipeline apart, no folder cycle', () => {
  const files = sources(join(repo, 'stages'), sources(join(repo, 'pipeline')));
  for (const config of ['dag.config.ts', 'cpgbench.config.ts']) files.set(config, readFileSync(join(repo, config), 'utf8'));
  assert.ok(files.size > 200, `${files.size} files read`);
  assert.ok(
    [...files.keys()].some((f) => f.startsWith('stages/cpgbench/')),
    'CPGBench is read too',
  );
  assert.deepEqual(layerViolations(files), []);
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

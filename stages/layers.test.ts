import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf, layerViolations } from './layers.ts';
import { runModels } from './models/run-roster.ts';
import { cpgRunModels } from './models/cpgbench-roster.ts';

const NAMING = 'only the stand-ins name a simulated model';
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// TypeScript everywhere, and the notebooks' pages and browser helpers.
const CODE = /(\.ts|^notebooks\/.*\.(html|js))$/;

function sources(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (CODE.test(relative(repo, path))) out.set(relative(repo, path).replace(/\\/g, '/'), readFileSync(path, 'utf8'));
  }
  return out;
}

// Every simulated model the run's roster knows (agents, patient, judges, construction stand-ins).
const standInNames = [...runModels({ root: repo }).roster, ...cpgRunModels({ root: repo }).roster]
  .filter((m) => m.simulated)
  .map((m) => m.name);

test('the tree keeps its layers: agents only from the wiring, stand-ins named only by themselves, pipeline apart, no folder cycle', () => {
  const files = sources(join(repo, 'notebooks'), sources(join(repo, 'stages'), sources(join(repo, 'pipeline'))));
  for (const f of readdirSync(repo).filter((n) => n.endsWith('.config.ts'))) files.set(f, readFileSync(join(repo, f), 'utf8'));
  assert.ok(files.size > 200, `${files.size} files read`);
  assert.ok(
    [...files.keys()].some((f) => f.startsWith('stages/cpgbench/')),
    'CPGBench is read too',
  );
  assert.ok(standInNames.includes('simulated-oracle') && standInNames.includes('simulated-tfidf'), standInNames.join(', '));
  assert.ok(standInNames.includes('simulated-cpg-oracle') && standInNames.includes('simulated-cpg-judge'), standInNames.join(', '));
  assert.deepEqual(layerViolations(files, standInNames), []);
});

test('naming a simulated model outside the stand-ins fails: an import of them, a spelled name, a test by name, a stand-in out of its folder', () => {
  const files = new Map([
    ['stages/report/judges.ts', "import { SIMULATED_JUDGE_NAMES } from '../agents/judges/simulated-judges.ts';\n"],
    ['stages/evaluate/correlations.stage.ts', "const judges = ['simulated-token-f1', 'gpt-5.4-mini'];\n"],
    ['stages/tasks/task-unit.ts', "export const isSimulated = (m: string) => m.includes('simulated');\n"],
    ['stages/report/figures.ts', 'const sim = (m: string) => /simulated-/.test(m) || m.startsWith(`simulated`);\n'],
    // Stand-ins where they used to live, beside the real code: they name themselves there.
    ['stages/judge/simulated-judges.ts', "export const SIMULATED_JUDGE_NAMES = ['simulated-token-f1'];\n"],
    ['stages/construct/offline-writers.ts', "export const VIGNETTE_GENERATOR = 'simulated-vignette-writer';\n"],
    // Allowed: the stand-ins and the wiring, test code, the word in prose, a flag read from a row.
    ['stages/agents/judges/simulated-judges.ts', "export const SIMULATED_JUDGE_NAMES = ['simulated-token-f1'];\n"],
    ['stages/agents/writers/vignette-writer.ts', "export const VIGNETTE_GENERATOR = 'simulated-vignette-writer';\n"],
    ['stages/models/run-llm-client.ts', "import { SIMULATED_JUDGE_NAMES } from '../agents/judges/simulated-judges.ts';\n"],
    ['stages/report/judges.test.ts', "const j = 'simulated-token-f1'.includes('simulated');\n"],
    [
      'stages/report/leaderboard.ts',
      "// simulated-oracle ranks apart\nconst t = 'simulated agents, ranked apart';\nconst s = (r: { simulated: boolean }) => r.simulated;\n",
    ],
  ]);
  const v = layerViolations(files, ['simulated-token-f1', 'simulated-oracle', 'simulated-vignette-writer']);
  assert.deepEqual(
    v.map((x) => [x.file, x.rule, x.detail.split(';')[0]]),
    [
      ['stages/construct/offline-writers.ts', NAMING, "spells the stand-in name 'simulated-vignette-writer'"],
      ['stages/evaluate/correlations.stage.ts', NAMING, "spells the stand-in name 'simulated-token-f1'"],
      ['stages/judge/simulated-judges.ts', NAMING, "spells the stand-in name 'simulated-token-f1'"],
      ['stages/report/figures.ts', NAMING, 'tells a model by "simulated" in its name (.test)'],
      ['stages/report/figures.ts', NAMING, 'tells a model by "simulated" in its name (.startsWith)'],
      ['stages/report/judges.ts', 'only the wiring imports stages/agents', 'imports stages/agents/judges/simulated-judges.ts'],
      ['stages/tasks/task-unit.ts', NAMING, 'tells a model by "simulated" in its name (.includes)'],
    ],
  );
});

test('the notebooks tell simulated rows by their flags: a test by name in a page script or a browser helper fails, prose does not', () => {
  // The helpers as they were before rows carried judge_simulated and patient_simulated.
  const oldUi =
    'export function isSimulated(row) {\n' +
    '  if (row.simulated === true || row.judge_simulated === true) return true;\n' +
    "  return ['judge', 'patient'].some((k) => !(`${k}_simulated` in row) && typeof row[k] === 'string' && row[k].includes('simulated'));\n" +
    '}\n' +
    "export const others = (agents) => agents.filter((a) => typeof a === 'string' && a.includes('simulated'));\n";
  const page = (script: string) =>
    '<!doctype html>\n<notebook>\n  <script id="1" type="text/markdown">\n    Rows whose names contain "simulated" are stand-ins.\n  </script>\n' +
    `  <script id="2" type="module">\n${script}\n  </script>\n</notebook>\n`;
  const files = new Map([
    ['notebooks/lib/ui.js', oldUi],
    ['notebooks/overview.html', page('const sim = rows.filter((r) => /simulated/.test(r.judge));')],
    ['notebooks/cpgbench/overview.html', page('const sim = board.filter((r) => r.model.startsWith("simulated-"));')],
    ['notebooks/export-data.ts', "export const sim = (m: string) => m.indexOf('simulated') >= 0;\n"],
    // Allowed: prose (markdown cells, comments, labels) and flags read from the rows.
    [
      'notebooks/metric-explorer.html',
      page('// judges named "simulated-…" are not told by name\nconst kind = r.simulated ? "simulated agent" : "real model";'),
    ],
    ['notebooks/lib/flags.js', 'export const isSimulated = (row) => row.simulated === true || row.judge_simulated === true;\n'],
    ['notebooks/notebooks.test.ts', "const j = 'simulated-foo'.includes('simulated');\n"],
  ]);
  assert.deepEqual(
    layerViolations(files, ['simulated-oracle']).map((x) => [x.file, x.rule, x.detail.split(';')[0]]),
    [
      ['notebooks/cpgbench/overview.html', NAMING, 'tells a model by "simulated" in its name (.startsWith)'],
      ['notebooks/export-data.ts', NAMING, 'tells a model by "simulated" in its name (.indexOf)'],
      ['notebooks/lib/ui.js', NAMING, 'tells a model by "simulated" in its name (.includes)'],
      ['notebooks/lib/ui.js', NAMING, 'tells a model by "simulated" in its name (.includes)'],
      ['notebooks/overview.html', NAMING, 'tells a model by "simulated" in its name (.test)'],
    ],
  );
});

test('stage code reaches the runner only through pipeline/stage.ts; the wiring, the stand-ins, commands and tests may import more', () => {
  const files = new Map([
    ['stages/judge/parse-step-scores.ts', "import { formatOf } from '../../pipeline/llm/answer-format.ts';\n"],
    ['stages/cpgbench/construct/cpg-documents.stage.ts', "import { firstTokens } from '../../../pipeline/llm/tokens.ts';\n"],
    ['stages/tasks/task-unit.ts', "import type { LlmStageClient } from '../../pipeline/llm/types.ts';\n"],
    ['stages/report/x.ts', "export { openWarehouse } from '../../pipeline/store/warehouse.ts';\n"],
    ['stages/a-top-level-helper.ts', "const m = await import('../pipeline/dag/params.ts');\n"],
    // Allowed: the seam itself, the wiring's stages/models, the stand-ins, commands, tests, the layer tools.
    ['stages/judge/parse-outcome-score.ts', "import { formatOf, prepareAnswer } from '../../pipeline/stage.ts';\n"],
    ['stages/models/run-llm-client.ts', "import { createLlmClient } from '../../pipeline/llm/client.ts';\n"],
    ['stages/agents/oracle.ts', "import type { Provider } from '../../pipeline/llm/types.ts';\n"],
    ['stages/agents/cpgbench/roster.ts', "import type { OfflineHandler } from '../../../pipeline/llm/types.ts';\n"],
    ['stages/export/export-command.ts', "import { openWarehouse } from '../../pipeline/store/warehouse.ts';\n"],
    ['stages/commands/export.ts', "import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';\n"],
    ['stages/judge/parse-step-scores.test.ts', "import { formatOf } from '../../pipeline/llm/answer-format.ts';\n"],
    ['stages/layers.ts', "import { importSpecifiers } from '../pipeline/hash/imports.ts';\n"],
    ['dag.config.ts', "import { defineDag } from './pipeline/index.ts';\n"],
  ]);
  const v = layerViolations(files).filter((x) => x.rule === 'stage code reaches the runner only through pipeline/stage.ts');
  assert.deepEqual(
    v.map((x) => [x.file, x.detail.split(';')[0]]),
    [
      ['stages/a-top-level-helper.ts', 'imports pipeline/dag/params.ts'],
      ['stages/cpgbench/construct/cpg-documents.stage.ts', 'imports pipeline/llm/tokens.ts'],
      ['stages/judge/parse-step-scores.ts', 'imports pipeline/llm/answer-format.ts'],
      ['stages/report/x.ts', 'imports pipeline/store/warehouse.ts'],
      ['stages/tasks/task-unit.ts', 'imports pipeline/llm/types.ts'],
    ],
  );
  assert.match(v[0]!.detail, /import it from pipeline\/stage\.ts/);
});

test('test helpers live in testing/ folders: no production import of one, no test-support or fixture file beside the code, no module only tests import', () => {
  const files = new Map([
    ['stages/evaluate/test-support.ts', "import { planCase } from '../agents/perturbation-agent.ts';\n"],
    ['stages/agents/test-fixtures.ts', 'export const tree = {};\n'],
    ['stages/report/test-rows.ts', 'export const rows = [];\n'],
    ['stages/construct/fever-tree.fixture.ts', 'export const fever = {};\n'],
    ['pipeline/llm/client.ts', "import { fakeServer } from './testing/fake-openai-server.ts';\n"],
    ['stages/report/leaderboard.stage.ts', "import { reportRows } from './testing/report-rows.ts';\n"],
    ['notebooks/build-site.ts', "import { writeFixtureWarehouse } from './testing/fixture-warehouse.ts';\n"],
    // Allowed: helpers inside testing/, tests and other helpers importing them, benchmarks, a stage named for the test set.
    ['stages/evaluate/testing/stage-harness.ts', "import { planCase } from '../../agents/perturbation-agent.ts';\n"],
    ['stages/evaluate/testing/cdps.fixture.ts', "import { fixtureTable } from './fixture-table.ts';\n"],
    ['stages/evaluate/summary-stages.test.ts', "import { runTable } from './testing/stage-harness.ts';\n"],
    ['bench/agents.bench.ts', "import { cases } from '../stages/agents/testing/benchmark-cases.ts';\n"],
    ['stages/tasks/test-cases.stage.ts', "import { tableStage } from '../../pipeline/stage.ts';\n"],
    // A helper only tests import is a test helper whatever its name; a module a stage imports too is not.
    ['stages/metrics/synthetic-consistency.ts', 'export const uniformMatrix = () => new Float64Array(4);\n'],
    ['stages/metrics/dtw.ts', 'export const dtw = () => 0;\n'],
    ['stages/metrics/dtw.test.ts', "import { uniformMatrix } from './synthetic-consistency.ts';\nimport { dtw } from './dtw.ts';\n"],
    ['stages/evaluate/pathway-metrics.stage.ts', "import { dtw } from '../metrics/dtw.ts';\n"],
  ]);
  const v = layerViolations(files)
    .filter((x) => x.rule === 'test helpers live in testing/ folders')
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  assert.deepEqual(
    v.map((x) => [x.file, x.detail.split(';')[0]]),
    [
      ['notebooks/build-site.ts', 'imports notebooks/testing/fixture-warehouse.ts'],
      ['pipeline/llm/client.ts', 'imports pipeline/llm/testing/fake-openai-server.ts'],
      ['stages/agents/test-fixtures.ts', 'named as a test helper outside a testing/ folder'],
      ['stages/construct/fever-tree.fixture.ts', 'named as a test helper outside a testing/ folder'],
      ['stages/evaluate/test-support.ts', 'named as a test helper outside a testing/ folder'],
      ['stages/metrics/synthetic-consistency.ts', 'only tests import it (1)'],
      ['stages/report/leaderboard.stage.ts', 'imports stages/report/testing/report-rows.ts'],
      ['stages/report/test-rows.ts', 'named as a test helper outside a testing/ folder'],
    ],
  );
});

test('CPGBench: its families are layers of their own, may not import the stand-ins, and its wiring may', () => {
  const files = new Map([
    ['stages/cpgbench/tasks/bad.ts', "import { simulatedJudge } from '../../agents/cpgbench/simulated-judge.ts';\n"],
    ['stages/cpgbench/judge/j.ts', "import { x } from '../results/r.ts';\n"],
    ['stages/cpgbench/results/r.ts', "import { y } from '../judge/j.ts';\n"],
    ['cpgbench.config.ts', "import { cpgOfflineHandlers } from './stages/agents/cpgbench/roster.ts';\n"],
    ['stages/models/cpgbench-llm-client.ts', "import { r } from '../agents/cpgbench/roster.ts';\n"],
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
    "const m = await import('../models/run-llm-client.ts');",
    "// import { x } from '../agents/x.ts';",
    'const s = "import { y } from \'../agents/y.ts\'";',
    "import { readFileSync } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(importsOf('stages/evaluate/x.ts', src).sort(), [
    'stages/agents/roster.ts',
    'stages/evaluate/b.ts',
    'stages/judge/c.ts',
    'stages/models/run-llm-client.ts',
  ]);
});

test('a forbidden import, a cycle, a runner naming simulation and a configuration reading the environment are each reported', () => {
  const files = new Map([
    ['stages/evaluate/bad.ts', "import { planCase } from '../agents/perturbation-agent.ts';\n"],
    ['stages/agents/perturbation-agent.ts', "import { x } from '../construct/types.ts';\n"],
    ['stages/construct/types.ts', "import { y } from '../stats/rng.ts';\n"],
    ['stages/stats/rng.ts', "import { z } from '../construct/types.ts';\n"],
    ['pipeline/exec/run.ts', "import { m } from '../../stages/models/run-llm-client.ts';\nconst simulatedCalls = 0;\n"],
    ['stages/evaluate/bad.test.ts', "import { planCase } from '../agents/perturbation-agent.ts';\n"],
    ['stages/models/run-llm-client.ts', "import { r } from '../agents/roster.ts';\n"],
    ['other.config.ts', 'const corpus = process.env.CDP_CORPUS;\n'],
    ['stages/models/roster-env.ts', 'export const url = process.env.MY_URL;\n'],
  ]);
  const v = layerViolations(files);
  assert.deepEqual(
    v.map((x) => [x.file, x.rule]),
    [
      ['other.config.ts', 'a configuration reads no environment'],
      ['pipeline/exec/run.ts', 'the runner knows nothing of simulation'],
      ['pipeline/exec/run.ts', 'pipeline/ imports nothing of the project'],
      ['stages/evaluate/bad.ts', 'only the wiring imports stages/agents'],
      ['stages/models/roster-env.ts', 'a configuration reads no environment'],
      ['stages/construct', 'no folder cycle'],
    ],
  );
  assert.equal(v[5]!.detail, 'stages/construct → stages/stats → stages/construct');
});

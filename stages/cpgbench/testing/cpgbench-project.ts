/**
 * Test helper: the CPGBench DAG exactly as cpgbench.config.ts builds it from its options (as the
 * CLI would make them, `given` over them), run programmatically in a temporary store with reports
 * in a temporary directory, on a corpus the test chooses (the bundled sample, or a copy it
 * changes), with the run's CPGBench client.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import cpgbench from '../../../cpgbench.config.ts';
import { optionsFor } from '../../../pipeline/cli/options-for.ts';
import type { ResolvedOptions } from '../../../pipeline/dag/options.ts';
import { parseOverrides } from '../../../pipeline/dag/overrides.ts';
import { resolveDag } from '../../../pipeline/dag/validate.ts';
import { runDag, type RunSummary } from '../../../pipeline/exec/executor.ts';
import type { ThreadPool } from '../../../pipeline/threads/pool.ts';
import { workspaceFor } from '../../../pipeline/exec/workspace.ts';
import { stageRows } from '../../../pipeline/testing/stage-rows.ts';
import type { Row } from '../../../pipeline/dag/define.ts';
import { cpgModelsOf } from '../../models/cpgbench-roster.ts';
import { cpgRunLlm } from '../../models/cpgbench-llm-client.ts';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SAMPLE = join(REPO, 'data', 'cpgbench-sample');

/** What a test may change of the options: the models file, --simulated, the variables it names. */
export type CpgGiven = Partial<Pick<ResolvedOptions, 'models' | 'simulated'>> & {
  env?: Readonly<Record<string, string | undefined>>;
  /** `--set stage.param=value` overrides, as the command line gives them. */
  sets?: readonly string[];
  /** The run's worker pool (default: one the runner makes and closes). */
  threads?: ThreadPool;
};

export interface CpgProject {
  dir: string;
  corpus: string;
  reports: string;
  /** A run with the options given (none: offline, no models file), its models resolved afresh. */
  run(given?: CpgGiven): Promise<RunSummary>;
  /** The same as run(given): a run with the models `given` declares (a models file, --simulated). */
  runWith(given: CpgGiven): Promise<RunSummary>;
  rows(stage: string): Row[];
  remove(): void;
}

/** A temporary project over `corpus` (default: a copy of the bundled sample). */
export function cpgProject(opts: { corpus?: string } = {}): CpgProject {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-cpgbench-'));
  const corpus = opts.corpus ?? join(dir, 'corpus');
  if (!opts.corpus) cpSync(SAMPLE, corpus, { recursive: true });
  const reports = join(dir, 'reports');
  const store = join(dir, 'store');
  const warehouse = join(dir, 'warehouse.duckdb');
  // A call cache of its own: a test neither reads nor fills the project's.
  const callCache = join(dir, 'llm-cache');
  const ws = () => workspaceFor(REPO, { store, warehouse, llmCache: callCache });
  return {
    dir,
    corpus,
    reports,
    async run({ sets = [], threads, ...given }: CpgGiven = {}) {
      const options = optionsFor(join(REPO, 'cpgbench.config.ts'), { store, warehouse, reports, corpus, callCache, ...given });
      const dag = await resolveDag(cpgbench.build(options), REPO, { overrides: parseOverrides(sets) });
      const llm = cpgRunLlm(store, cpgModelsOf(options), { cacheDir: callCache });
      try {
        return await runDag(dag, ws(), { llm: llm.client, extraViews: () => llm.views(), ...(threads ? { threads } : {}) });
      } finally {
        await llm.close();
      }
    },
    runWith(given) {
      return this.run(given);
    },
    rows: (stage) => stageRows(ws(), stage),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Per stage: status and rows computed. */
export const computed = (s: RunSummary) => Object.fromEntries(s.stages.map((r) => [r.stage, [r.status, r.rowsComputed]]));

/**
 * One guideline added to a test corpus, as a user adds one: "Sepsis in Adults" (United States,
 * Emergency Medicine, English, 2022, a test guideline), its document listing `recommendations`
 * and the same recommendations shipped in `recommendations/us-2022-sepsis.json`.
 */
export function addSepsisGuideline(corpus: string, recommendations: readonly Row[]): void {
  const listed = recommendations.map((r, i) => `Recommendation ${i + 1}: ${String(r.recommendation)}`).join('\n\n');
  writeFileSync(
    join(corpus, 'guidelines', 'en', 'us-2022-sepsis.md'),
    `# Sepsis in Adults (CPGBench test)\n\n## Recommendations\n\n${listed}\n`,
  );
  writeFileSync(join(corpus, 'recommendations', 'us-2022-sepsis.json'), JSON.stringify({ recommendations }));
  appendFileSync(
    join(corpus, 'guidelines.csv'),
    'us-2022-sepsis,en,Sepsis in Adults (CPGBench test),2022,United States,Emergency Medicine,Test Society,yes,test,CC0-1.0\n',
  );
}

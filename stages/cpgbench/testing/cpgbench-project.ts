/**
 * Test helper: the CPGBench DAG exactly as cpgbench.config.ts declares it (cpgbenchDag), run
 * programmatically in a temporary store with reports in a temporary directory, on a corpus the
 * test chooses (the bundled sample, or a copy it changes), with the run's CPGBench client.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpgbenchDag } from '../../../cpgbench.config.ts';
import { resolveDag } from '../../../pipeline/dag/validate.ts';
import { runDag, type RunSummary } from '../../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../../pipeline/exec/workspace.ts';
import { stageRows } from '../../../pipeline/testing/stage-rows.ts';
import type { Row } from '../../../pipeline/dag/define.ts';
import { cpgRunModels, type CpgRunModels } from '../../models/cpgbench-roster.ts';
import { cpgRunLlm } from '../../models/cpgbench-llm-client.ts';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SAMPLE = join(REPO, 'data', 'cpgbench-sample');

export interface CpgProject {
  dir: string;
  corpus: string;
  reports: string;
  run(models?: CpgRunModels): Promise<RunSummary>;
  /** A run with the models that `env` declares (CDP_MODELS, CDP_SIMULATED …), resolved afresh. */
  runWith(env: NodeJS.ProcessEnv): Promise<RunSummary>;
  rows(stage: string): Row[];
  remove(): void;
}

/** A temporary project over `corpus` (default: a copy of the bundled sample); `env` sets the models (CDP_MODELS …). */
export function cpgProject(opts: { corpus?: string; env?: NodeJS.ProcessEnv } = {}): CpgProject {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-cpgbench-'));
  const corpus = opts.corpus ?? join(dir, 'corpus');
  if (!opts.corpus) cpSync(SAMPLE, corpus, { recursive: true });
  const reports = join(dir, 'reports');
  const store = join(dir, 'store');
  // A call cache of its own: a test neither reads nor fills the project's.
  const ws = () => workspaceFor(REPO, { store, warehouse: join(dir, 'warehouse.duckdb') }, { CDP_LLM_CACHE: join(dir, 'llm-cache') });
  return {
    dir,
    corpus,
    reports,
    async run(models = cpgRunModels({ root: dir, env: opts.env ?? {} })) {
      const config = cpgbenchDag({ corpus, reportsDir: reports, models, store, warehouse: join(dir, 'warehouse.duckdb') });
      const dag = await resolveDag(config, REPO);
      const llm = cpgRunLlm(store, models, { cacheDir: ws().llmCache });
      try {
        return await runDag(dag, ws(), { llm: llm.client, extraViews: () => llm.views() });
      } finally {
        await llm.close();
      }
    },
    runWith(env) {
      return this.run(cpgRunModels({ root: dir, env }));
    },
    rows: (stage) => stageRows(ws(), stage),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Per stage: status and rows computed. */
export const computed = (s: RunSummary) => Object.fromEntries(s.stages.map((r) => [r.stage, [r.status, r.rowsComputed]]));

/**
 * CPGBench (stages/cpgbench, the paper in README "CPGBench") as a DAG on the same runner as
 * MEGA-CDP: `npx cdp --config cpgbench.config.ts <command>`. Its own store, warehouse and
 * reports; the same models file and roles (builder for construction, evaluated, judge); shared
 * corpus layout, ingestion, LLM client, readers, statistics and report helpers.
 *
 * Each stage names its module; open it to read the stage. A param set here overrides the
 * module's default; defaults (the paper's values: 2015, 128K tokens, the safety definition)
 * live in the modules.
 */
import { fileURLToPath } from 'node:url';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { defineDag, stage, files, type DagConfig } from './pipeline/index.ts';
import type { Project } from './pipeline/cli/load.ts';
import { cpgRunModels, type CpgRunModels } from './stages/models/cpgbench-roster.ts';
import { llmCallsViews } from './stages/models/llm-views.ts';
import { crossedWidth, widthFor } from './stages/models/stage-width.ts';
import { cpgCliCommands } from './stages/cpgbench/cli-commands.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export interface CpgbenchOptions {
  /** The corpus directory, relative to the project root or absolute. */
  corpus: string;
  /** Where the report stages write. */
  reportsDir: string;
  models: CpgRunModels;
  store?: string;
  warehouse?: string;
}

/** A corpus path kept relative to the project when it lies inside it (a copied project's artifacts stay its own). */
function projectPath(p: string): string {
  const abs = resolve(root, p);
  const rel = relative(root, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

export function cpgbenchDag(o: CpgbenchOptions): DagConfig {
  const corpus = projectPath(o.corpus);
  const corpusAbs = resolve(root, corpus);
  const hasCsv = existsSync(corpusAbs) && readdirSync(corpusAbs).some((f) => f.endsWith('.csv'));
  const m = o.models;
  // Units in flight per LLM stage: from the declared concurrency of the models it calls (stages/models/stage-width.ts).
  const widthOf = (model: { name: string } | null) => ({ concurrency: widthFor(m.roster, model?.name ?? null) });
  const widthAcross = (crossed: readonly { name: string }[]) =>
    crossedWidth(
      m.roster,
      crossed.map((x) => x.name),
    );
  const perItemAndModel = {
    input: 'cpg_task_inputs',
    cross: { param: 'models', as: 'model' },
    join: { cpg_recommendations: 'recommendation_id' },
  };
  const taskParams = { models: m.evaluated };
  const perAnswerAndJudge = (input: string) => ({
    input,
    cross: { param: 'judges', as: 'judge' },
    join: { cpg_recommendations: 'recommendation_id' },
  });
  const judgeParams = { judges: m.judges };
  const roster = { models: m.evaluated, judges: m.judges };
  const report = { outDir: o.reportsDir, judges: m.judges };
  const results = {
    cpg_task_inputs: 'cpg_task_inputs',
    cpg_recommendations: 'cpg_recommendations',
    cpg_safety: 'cpg_safety',
    cpg_detection_judgements: 'cpg_detection_judgements',
    cpg_adherence_judgements: 'cpg_adherence_judgements',
  };
  return defineDag({
    store: o.store ?? 'data/cpgbench/store',
    warehouse: o.warehouse ?? 'data/cpgbench/warehouse.duckdb',
    sources: {
      cpg_corpus_files: files(`${corpus}/guidelines/**/*.{pdf,md,txt}`, `${corpus}/recommendations/*.json`, `${corpus}/guidelines.csv`),
      // The corpus's CSVs (guidelines.csv, human-labels.csv): declared when it has one, so its
      // directory is watched and a labels file added later is seen like any other change.
      ...(hasCsv ? { cpg_corpus_tables: files(`${corpus}/*.csv`) } : {}),
      cpg_published: files('data/published/cpgbench-*.csv'),
    },
    problems: [
      ...m.problems,
      ...(existsSync(join(resolve(root, corpus), 'guidelines'))
        ? []
        : [
            `the corpus ${resolve(root, corpus)} has no guidelines/ directory; pass --corpus DIR (CDP_CORPUS) with DIR/guidelines/<id>.{pdf,md,txt}`,
          ]),
    ],
    warnings: m.warnings,
    stages: [
      // §4.1–4.2 Documents, recommendations, metadata, the safety-critical subset
      stage('cpg_corpus', { module: 'stages/cpgbench/construct/cpg-corpus.stage.ts', inputs: { files: 'cpg_corpus_files' } }),
      stage('cpg_corpus_recommendations', {
        module: 'stages/cpgbench/construct/cpg-corpus-recommendations.stage.ts',
        inputs: { files: 'cpg_corpus_files' },
      }),
      stage('guidelines', {
        module: 'stages/ingest/guidelines.stage.ts',
        inputs: { corpus: 'cpg_corpus' },
        forEach: 'corpus',
        concurrency: 1,
      }),
      stage('cpg_documents', {
        module: 'stages/cpgbench/construct/cpg-documents.stage.ts',
        inputs: { guidelines: 'guidelines', cpg_corpus: 'cpg_corpus' },
        forEach: { input: 'guidelines', join: { cpg_corpus: 'guideline_id' } },
        params: { builder: m.builder },
        ...widthOf(m.builder),
      }),
      stage('cpg_recommendations', {
        module: 'stages/cpgbench/construct/cpg-recommendations.stage.ts',
        inputs: { cpg_documents: 'cpg_documents', guidelines: 'guidelines', cpg_corpus_recommendations: 'cpg_corpus_recommendations' },
        forEach: { input: 'cpg_documents', join: { guidelines: 'guideline_id', cpg_corpus_recommendations: 'guideline_id' } },
        params: { builder: m.builder },
        ...widthOf(m.builder),
      }),
      stage('cpg_safety', {
        module: 'stages/cpgbench/construct/cpg-safety.stage.ts',
        inputs: { cpg_recommendations: 'cpg_recommendations' },
        forEach: 'cpg_recommendations',
        params: { builder: m.builder },
        ...widthOf(m.builder),
      }),
      // §4.3–4.4 Conversations and the two tasks' inputs
      stage('cpg_conversations', {
        module: 'stages/cpgbench/construct/cpg-conversations.stage.ts',
        inputs: { cpg_recommendations: 'cpg_recommendations' },
        forEach: 'cpg_recommendations',
        params: { writer: m.writer },
        ...widthOf(m.writer),
      }),
      stage('cpg_task_inputs', {
        module: 'stages/cpgbench/construct/cpg-task-inputs.stage.ts',
        inputs: { cpg_conversations: 'cpg_conversations' },
        forEach: 'cpg_conversations',
      }),
      stage('cpg_construction_summary', {
        module: 'stages/cpgbench/construct/cpg-construction-summary.stage.ts',
        inputs: {
          cpg_documents: 'cpg_documents',
          cpg_recommendations: 'cpg_recommendations',
          cpg_safety: 'cpg_safety',
          cpg_conversations: 'cpg_conversations',
          cpg_task_inputs: 'cpg_task_inputs',
        },
      }),
      // §4.5 Both tasks for every evaluated model, and the three judgements
      stage('cpg_detection', {
        module: 'stages/cpgbench/tasks/cpg-detection.stage.ts',
        inputs: { cpg_task_inputs: 'cpg_task_inputs', cpg_recommendations: 'cpg_recommendations' },
        forEach: perItemAndModel,
        params: taskParams,
        ...widthAcross(m.evaluated),
        covers: 'recommendation_id',
      }),
      stage('cpg_adherence', {
        module: 'stages/cpgbench/tasks/cpg-adherence.stage.ts',
        inputs: { cpg_task_inputs: 'cpg_task_inputs', cpg_recommendations: 'cpg_recommendations' },
        forEach: perItemAndModel,
        params: taskParams,
        ...widthAcross(m.evaluated),
        covers: 'recommendation_id',
      }),
      stage('cpg_detection_judgements', {
        module: 'stages/cpgbench/judge/cpg-detection-judgements.stage.ts',
        inputs: { cpg_detection: 'cpg_detection', cpg_recommendations: 'cpg_recommendations' },
        forEach: perAnswerAndJudge('cpg_detection'),
        params: judgeParams,
        ...widthAcross(m.judges),
        covers: 'recommendation_id',
      }),
      stage('cpg_adherence_judgements', {
        module: 'stages/cpgbench/judge/cpg-adherence-judgements.stage.ts',
        inputs: { cpg_adherence: 'cpg_adherence', cpg_recommendations: 'cpg_recommendations' },
        forEach: perAnswerAndJudge('cpg_adherence'),
        params: judgeParams,
        ...widthAcross(m.judges),
        covers: 'recommendation_id',
      }),
      // §2.3–2.6 Rates, the χ² across specialties, judge–human agreement
      stage('cpg_rates', { module: 'stages/cpgbench/results/cpg-rates.stage.ts', inputs: results, params: roster }),
      stage('cpg_specialty_tests', {
        module: 'stages/cpgbench/results/cpg-specialty-tests.stage.ts',
        inputs: results,
        params: roster,
      }),
      stage('cpg_agreement', {
        module: 'stages/cpgbench/results/cpg-agreement.stage.ts',
        inputs: {
          ...(hasCsv ? { labels: 'cpg_corpus_tables' } : {}),
          cpg_detection_judgements: 'cpg_detection_judgements',
          cpg_adherence_judgements: 'cpg_adherence_judgements',
        },
      }),
      // Reports: Tables 1 and 3, Figures 3–5, the leaderboard, the scorecard, an index (reports/cpgbench/)
      stage('cpg_report_tables', {
        module: 'stages/cpgbench/report/cpg-report-tables.stage.ts',
        inputs: {
          cpg_rates: 'cpg_rates',
          cpg_specialty_tests: 'cpg_specialty_tests',
          cpg_agreement: 'cpg_agreement',
          cpg_construction_summary: 'cpg_construction_summary',
        },
        params: report,
      }),
      stage('cpg_report_figures', {
        module: 'stages/cpgbench/report/cpg-report-figures.stage.ts',
        inputs: { cpg_rates: 'cpg_rates' },
        params: { ...report, pngFontFiles: ['data/fonts/DejaVuSans.ttf'] },
      }),
      stage('cpg_report_leaderboard', {
        module: 'stages/cpgbench/report/cpg-report-leaderboard.stage.ts',
        inputs: { ...results, cpg_rates: 'cpg_rates' },
        params: { ...report, models: m.evaluated },
      }),
      stage('cpg_report_scorecard', {
        module: 'stages/cpgbench/report/cpg-report-scorecard.stage.ts',
        inputs: { published: 'cpg_published', cpg_rates: 'cpg_rates' },
        // Only models that declare the paper model they stand for are compared with its numbers.
        params: { ...report, paperNames: m.paperNames },
      }),
      stage('cpg_report_index', {
        module: 'stages/cpgbench/report/cpg-report-index.stage.ts',
        inputs: {
          cpg_report_leaderboard: 'cpg_report_leaderboard',
          cpg_report_tables: 'cpg_report_tables',
          cpg_report_figures: 'cpg_report_figures',
          cpg_report_scorecard: 'cpg_report_scorecard',
          cpg_rates: 'cpg_rates',
        },
        params: report,
      }),
    ],
  });
}

// The corpus (--corpus DIR, CDP_CORPUS) and the reports directory (--reports, CDP_REPORTS), as
// dag.config.ts reads them; the bundled CPGBench sample and reports/cpgbench by default.
export const models = cpgRunModels({ root });
const reportsDir = process.env.CDP_REPORTS || (process.env.CDP_STORE ? join(process.env.CDP_STORE, 'reports') : 'reports/cpgbench');

export default cpgbenchDag({ corpus: process.env.CDP_CORPUS || 'data/cpgbench-sample', reportsDir, models });

/** The run's LLM client, loaded only when a stage runs. */
export async function llmClient(project: Project, opts: { mode?: 'live' | 'estimate' } = {}) {
  const { cpgRunLlm } = await import('./stages/models/cpgbench-llm-client.ts');
  return cpgRunLlm(project.ws.store, models, { cacheDir: project.ws.llmCache, mode: opts.mode });
}

/** The warehouse views of the LLM call log (llm_calls), without creating a client. */
export const llmViews = (project: Project) => llmCallsViews(project.ws.store, project.ws.llmCache);

/** Commands CPGBench adds to `cdp` (notebooks, serve). */
export const cliCommands = cpgCliCommands;

/**
 * CPGBench (stages/cpgbench, the paper in README "CPGBench") as a DAG on the same runner as
 * MEGA-CDP, built from the command's options like dag.config.ts (pipeline/dag/options.ts; never
 * the environment): `npx cdp --config cpgbench.config.ts <command>`. Its own store, warehouse and
 * reports (data/cpgbench/store, data/cpgbench/warehouse.duckdb, reports/cpgbench/, from the
 * configuration's name); the same models file, roles and options (--corpus, --models,
 * --simulated, --reports, --store, --set); shared corpus layout, ingestion, LLM client, readers,
 * statistics and report helpers.
 *
 * Each stage names its module; open it to read the stage. A param set here overrides the
 * module's default; defaults (the paper's values: 2015, 128K tokens, the safety definition)
 * live in the modules.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineDag, stage, files, projectPath, type DagConfig, type Options, type StageDecl } from './pipeline/index.ts';
import type { Project } from './pipeline/cli/load.ts';
import { cpgModelsOf, type CpgRunModels } from './stages/models/cpgbench-roster.ts';
import { llmCallsViews } from './stages/models/llm-views.ts';
import { crossedWidth, widthFor } from './stages/models/stage-width.ts';
import { cpgCliCommands } from './stages/cpgbench/commands/index.ts';

/** The bundled CPGBench sample: the corpus when none is given and the store remembers none. */
export const CPGBENCH_SAMPLE = 'data/cpgbench-sample';

/** What the DAG is built from, decided once from the options. */
export interface CpgbenchWiring {
  root: string;
  /** The corpus directory, relative to the project root when inside it. */
  corpus: string;
  /** Where the report stages write, relative to the project root when inside it. */
  reportsDir: string;
  models: CpgRunModels;
}

export function cpgbenchWiring(o: Options): CpgbenchWiring {
  return {
    root: o.root,
    corpus: projectPath(o.root, o.corpus ?? join(o.root, CPGBENCH_SAMPLE)),
    reportsDir: projectPath(o.root, o.reports),
    models: cpgModelsOf(o),
  };
}
/** How the stages map over their inputs, and what they are given, shared by the families below. */
function shapesOf(o: CpgbenchWiring) {
  const m = o.models;
  const corpusAbs = resolve(o.root, o.corpus);
  return {
    m,
    corpusAbs,
    // Units in flight per LLM stage: from the declared concurrency of the models it calls (stages/models/stage-width.ts).
    widthOf: (model: { name: string } | null) => ({ concurrency: widthFor(m.roster, model?.name ?? null) }),
    widthAcross: (crossed: readonly { name: string }[]) =>
      crossedWidth(
        m.roster,
        crossed.map((x) => x.name),
      ),
    hasCsv: existsSync(corpusAbs) && readdirSync(corpusAbs).some((f) => f.endsWith('.csv')),
    perItemAndModel: {
      input: 'cpg_task_inputs',
      cross: { param: 'models', as: 'model' },
      join: { cpg_recommendations: 'recommendation_id' },
    },
    taskParams: { models: m.evaluated },
    perAnswerAndJudge: (input: string) => ({
      input,
      cross: { param: 'judges', as: 'judge' },
      join: { cpg_recommendations: 'recommendation_id' },
    }),
    judgeParams: { judges: m.judges },
    roster: { models: m.evaluated, judges: m.judges },
    report: { outDir: o.reportsDir, judges: m.judges },
    results: {
      cpg_task_inputs: 'cpg_task_inputs',
      cpg_recommendations: 'cpg_recommendations',
      cpg_safety: 'cpg_safety',
      cpg_detection_judgements: 'cpg_detection_judgements',
      cpg_adherence_judgements: 'cpg_adherence_judgements',
    },
  };
}
type Shapes = ReturnType<typeof shapesOf>;

/** §4.1–4.4: documents, recommendations, the safety-critical subset, conversations, the tasks' inputs. */
function constructionStages({ m, widthOf }: Shapes): StageDecl[] {
  return [
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
  ];
}

/** §4.5: both tasks for every evaluated model, and the three judgements. */
function taskStages({ m, perItemAndModel, taskParams, perAnswerAndJudge, judgeParams, widthAcross }: Shapes): StageDecl[] {
  return [
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
  ];
}

/** §2.3–2.6 and the reports: rates, the χ² across specialties, judge–human agreement, tables, figures, the leaderboard, the scorecard, an index. */
function resultStages({ m, hasCsv, roster, report, results }: Shapes): StageDecl[] {
  return [
    // §2.3–2.6 Rates, the χ² across specialties, judge–human agreement
    // The items and every pair's outcomes guideline by guideline, which the rates, the χ² and the leaderboard read.
    stage('cpg_outcomes', { module: 'stages/cpgbench/results/cpg-outcomes.stage.ts', inputs: results, params: roster }),
    stage('cpg_rates', { module: 'stages/cpgbench/results/cpg-rates.stage.ts', inputs: { cpg_outcomes: 'cpg_outcomes' } }),
    stage('cpg_specialty_tests', {
      module: 'stages/cpgbench/results/cpg-specialty-tests.stage.ts',
      inputs: { cpg_outcomes: 'cpg_outcomes' },
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
      inputs: { cpg_outcomes: 'cpg_outcomes', cpg_rates: 'cpg_rates' },
      params: report,
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
  ];
}

export function cpgbenchDag(o: CpgbenchWiring): DagConfig {
  const corpus = o.corpus;
  const s = shapesOf(o);
  return {
    sources: {
      // Paths relative to the corpus: the same corpus at another place keys the same, so moving it reruns nothing.
      cpg_corpus_files: files({ base: corpus }, 'guidelines/**/*.{pdf,md,txt}', 'recommendations/*.json', 'guidelines.csv'),
      // The corpus's CSVs (guidelines.csv, human-labels.csv): declared when it has one, so its
      // directory is watched and a labels file added later is seen like any other change.
      ...(s.hasCsv ? { cpg_corpus_tables: files({ base: corpus }, '*.csv') } : {}),
      cpg_published: files('data/published/cpgbench-*.csv'),
    },
    problems: [
      ...s.m.problems,
      ...(existsSync(join(s.corpusAbs, 'guidelines'))
        ? []
        : [`the corpus ${s.corpusAbs} has no guidelines/ directory; pass --corpus DIR with DIR/guidelines/<id>.{pdf,md,txt}`]),
    ],
    warnings: s.m.warnings,
    stages: [...constructionStages(s), ...taskStages(s), ...resultStages(s)],
  };
}

export default defineDag((options) => cpgbenchDag(cpgbenchWiring(options)), { corpus: CPGBENCH_SAMPLE });

/** The run's LLM client, loaded only when a stage runs. */
export async function llmClient(project: Project, opts: { mode?: 'live' | 'estimate' } = {}) {
  const { cpgRunLlm } = await import('./stages/models/cpgbench-llm-client.ts');
  return cpgRunLlm(project.ws.store, cpgModelsOf(project.options), { cacheDir: project.ws.llmCache, mode: opts.mode });
}

/** The warehouse views of the LLM call log (llm_calls), without creating a client. */
export const llmViews = (project: Project) => llmCallsViews(project.ws.store, project.ws.llmCache);

/** Commands CPGBench adds to `cdp` (notebooks, serve, export). */
export const cliCommands = cpgCliCommands;

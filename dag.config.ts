/**
 * The MEGA-CDP pipeline as a DAG. Each stage names the module that computes it; open that file
 * to read the stage. Params enter each stage's key: change one here and `cdp run` reruns that
 * stage and what depends on it, nothing else.
 *
 * Models: with no endpoint configured, every LLM role is played by an offline stand-in whose
 * name says "simulated" (or "curated" for the hand-curated sample trees). Set CDP_LLM_BASE_URL
 * (and optionally CDP_LLM_MODEL, CDP_LLM_API_KEY) to run the same DAG against a server.
 */
import { defineDag, stage, files } from './pipeline/index.ts';
import type { Project } from './pipeline/cli/load.ts';
import { runRoster, modelFor } from './stages/models/roster.ts';
import { llmCallsViews } from './stages/models/llm-views.ts';
import { CURATED_BUILDER_NAME, createCuratedBuilderHandler } from './stages/agents/curated-builder.ts';
import { OFFLINE_WRITERS } from './stages/construct/offline-writers.ts';
import { VIGNETTE_GENERATOR } from './stages/construct/vignette-writer.ts';
import { NARRATIVE_GENERATOR } from './stages/construct/narrative-writer.ts';
import { cliCommands as projectCommands } from './stages/cli-commands.ts';

const roster = runRoster();
const builder = modelFor(roster, 'builder', CURATED_BUILDER_NAME);
const vignetteWriter = modelFor(roster, 'builder', VIGNETTE_GENERATOR);
const narrativeWriter = modelFor(roster, 'builder', NARRATIVE_GENERATOR);

export default defineDag({
  sources: {
    guideline_pdfs: files('data/sample/guidelines/**/*.pdf'),
  },
  stages: [
    // §3.1 Guideline-to-case construction
    stage('guidelines', { module: 'stages/ingest/guidelines.stage.ts', inputs: { pdfs: 'guideline_pdfs' }, forEach: 'pdfs', params: { ocrDpi: 300 }, concurrency: 1 }),
    stage('trees', { module: 'stages/construct/trees.stage.ts', inputs: { guidelines: 'guidelines' }, forEach: 'guidelines', params: { builder, maxAttempts: 3 } }),
    stage('tree_nodes', { module: 'stages/construct/tree-nodes.stage.ts', inputs: { trees: 'trees' }, forEach: 'trees' }),
    stage('cdps', { module: 'stages/construct/cdps.stage.ts', inputs: { trees: 'trees', guidelines: 'guidelines' }, params: { testFraction: 440 / 2274, seed: 42 } }),
    stage('cdp_length_stats', { module: 'stages/construct/cdp-length-stats.stage.ts', inputs: { cdps: 'cdps' } }),
    stage('vignettes', { module: 'stages/construct/vignettes.stage.ts', inputs: { cdps: 'cdps' }, forEach: 'cdps', params: { writer: vignetteWriter }, concurrency: 8 }),
    stage('narratives', {
      module: 'stages/construct/narratives.stage.ts',
      inputs: { cdps: 'cdps', vignettes: 'vignettes' },
      forEach: { input: 'cdps', join: { vignettes: 'cdp_id' } },
      params: { writer: narrativeWriter, maxAttempts: 3 },
      concurrency: 8,
    }),
    stage('qc', {
      module: 'stages/construct/qc.stage.ts',
      inputs: { cdps: 'cdps', vignettes: 'vignettes', narratives: 'narratives', tree_nodes: 'tree_nodes' },
      forEach: { input: 'cdps', join: { vignettes: 'cdp_id', narratives: 'cdp_id', tree_nodes: 'guideline_id' } },
      params: { inspectFraction: 0.05, seed: 42 },
    }),
    stage('qc_summary', { module: 'stages/construct/qc-summary.stage.ts', inputs: { qc: 'qc' } }),
  ],
});

/**
 * The run's LLM client: the roster above, offline stand-ins answering when no server is set.
 * Loaded only when a stage runs, so a no-op run never pays for it.
 */
export async function llmClient(project: Project, opts: { mode?: 'live' | 'estimate' } = {}) {
  const { runLlm } = await import('./stages/models/run-llm.ts');
  return runLlm(project.ws.store, roster, { [CURATED_BUILDER_NAME]: createCuratedBuilderHandler(), ...OFFLINE_WRITERS }, opts.mode);
}

/** The warehouse views of the LLM call log (llm_calls), without creating a client. */
export const llmViews = (project: Project) => llmCallsViews(project.ws.store);

/** Commands this project adds to `cdp` (ingest, pathway-metrics). */
export const cliCommands = projectCommands;

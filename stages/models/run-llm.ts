/**
 * The LLM client of one `cdp run`: the run's models, the offline stand-ins' handlers, the
 * durable call cache under the store, and the `llm_calls` view. In estimate mode a real model's
 * miss is answered by the stand-in for its role, so every stage after it is estimated too
 * (trees → vignettes → both settings → judges), not only the first.
 */
import { join } from 'node:path';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { formatEstimate } from '../../pipeline/llm/estimate-report.ts';
import type { ChatRequest } from '../../pipeline/llm/types.ts';
import type { RunLlm } from '../../pipeline/cli/extensions.ts';
import { CURATED_BUILDER_NAME, createCuratedBuilderHandler } from '../agents/curated-builder.ts';
import { worldHandlers } from '../agents/agent-world.ts';
import { ORACLE_NAME } from '../agents/oracle.ts';
import { PATIENT_NAME } from '../agents/offline-patient.ts';
import { OFFLINE_WRITERS } from '../construct/offline-writers.ts';
import { VIGNETTE_GENERATOR } from '../construct/vignette-writer.ts';
import { NARRATIVE_GENERATOR } from '../construct/narrative-writer.ts';
import { simulatedJudgeHandlers, SIMULATED_JUDGE_NAMES } from '../judge/simulated-judges.ts';
import { llmCallsViews } from './llm-views.ts';
import type { RunModels } from './run-models.ts';

/** Which offline model answers in place of a real one while estimating, by stage and role. */
export function estimateStandIn(req: ChatRequest): string | undefined {
  switch (req.stage) {
    case 'trees':
      return CURATED_BUILDER_NAME;
    case 'vignettes':
      return VIGNETTE_GENERATOR;
    case 'narratives':
      return NARRATIVE_GENERATOR;
    case 'predictions_single':
      return ORACLE_NAME;
    case 'dialogues_multi':
      // The oracle asks the reference questions: the reference CDPs' lengths set the dialogues'.
      return req.role === 'patient' ? PATIENT_NAME : ORACLE_NAME;
    case 'step_scores':
    case 'outcome_scores':
      return SIMULATED_JUDGE_NAMES[0];
    default:
      return undefined;
  }
}

export function runLlm(storeDir: string, models: RunModels, mode: 'live' | 'estimate' = 'live'): RunLlm {
  const cacheDir = join(storeDir, 'llm');
  const offlineHandlers = { [CURATED_BUILDER_NAME]: createCuratedBuilderHandler(), ...OFFLINE_WRITERS, ...worldHandlers(), ...simulatedJudgeHandlers() };
  const client = createLlmClient({ cacheDir, roster: models.roster, offlineHandlers, mode, estimateStandIn });
  return {
    client,
    estimate: () => formatEstimate(client.estimateReport()),
    estimateRows: () => client.estimateReport(),
    views: () => llmCallsViews(storeDir),
    close: () => client.close(),
  };
}

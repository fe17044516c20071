/**
 * The LLM client of one `cdp run`: the run's models, the offline stand-ins' providers, the
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
import { ORACLE_NAME } from '../agents/oracle.ts';
import { WALKER_NAME } from '../agents/lexical-walker.ts';
import { DEFAULT_SIMULATED_EVALUATED, offlineHandlers as agentProviders } from '../agents/roster.ts';
import { PATIENT_NAME } from '../agents/offline-patient.ts';
import { OFFLINE_WRITERS } from '../construct/offline-writers.ts';
import { VIGNETTE_GENERATOR } from '../construct/vignette-writer.ts';
import { NARRATIVE_GENERATOR } from '../construct/narrative-writer.ts';
import { simulatedJudgeHandlers, SIMULATED_JUDGE_NAMES } from '../judge/simulated-judges.ts';
import { llmCallsViews } from './llm-views.ts';
import type { RunModels } from './run-models.ts';

/**
 * Which offline model answers in place of a real one while estimating, by stage and role. Each
 * evaluated model gets its own simulated agent (the oracle, then the perturbation agents in
 * turn): identical stand-in answers would make the judges' prompts identical across models and
 * be counted once, where real models' different answers are judged one by one.
 */
export function estimateStandIns(evaluated: readonly string[]): (req: ChatRequest) => string | undefined {
  const agents = DEFAULT_SIMULATED_EVALUATED.filter((a) => a !== WALKER_NAME);
  const agentOf = (model: string) => agents[Math.max(0, evaluated.indexOf(model)) % agents.length] ?? ORACLE_NAME;
  return (req) => {
    switch (req.stage) {
      case 'trees':
        return CURATED_BUILDER_NAME;
      case 'vignettes':
        return VIGNETTE_GENERATOR;
      case 'narratives':
        return NARRATIVE_GENERATOR;
      case 'predictions_single':
        return agentOf(req.model);
      case 'dialogues_multi':
        // The agents ask (about) the reference questions: the reference CDPs' lengths set the dialogues'.
        return req.role === 'patient' ? PATIENT_NAME : agentOf(req.model);
      case 'step_scores':
      case 'outcome_scores':
        return SIMULATED_JUDGE_NAMES[0];
      default:
        return undefined;
    }
  };
}

export function runLlm(storeDir: string, models: RunModels, mode: 'live' | 'estimate' = 'live'): RunLlm {
  const cacheDir = join(storeDir, 'llm');
  // The simulated agents answer from each call's unit context: no state is shared with the stages.
  const offlineHandlers = {
    [CURATED_BUILDER_NAME]: createCuratedBuilderHandler(),
    ...OFFLINE_WRITERS,
    ...agentProviders(),
    ...simulatedJudgeHandlers(),
  };
  const client = createLlmClient({
    cacheDir,
    roster: models.roster,
    offlineHandlers,
    mode,
    estimateStandIn: estimateStandIns(models.evaluated.map((m) => m.name)),
  });
  return {
    client,
    estimate: () => formatEstimate(client.estimateReport()),
    estimateRows: () => client.estimateReport(),
    views: () => llmCallsViews(storeDir),
    close: () => client.close(),
  };
}

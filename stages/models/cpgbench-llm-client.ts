/**
 * The LLM client of one CPGBench run: the run's models, CPGBench's offline stand-ins answering
 * for their simulated names, the durable call cache under the store, the `llm_calls` view. In
 * estimate mode a real model's miss is answered by the stand-in for its stage, so every stage
 * after it is estimated too: the simulated builder for construction, the simulated writer for
 * conversations, the three simulated models in turn for the tasks (so their answers, and the
 * judges' prompts, differ as real models' do), the simulated judge for judgements.
 */
import { join } from 'node:path';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { formatEstimate } from '../../pipeline/llm/estimate-report.ts';
import type { ChatRequest } from '../../pipeline/llm/types.ts';
import type { RunLlm } from '../../pipeline/cli/config-exports.ts';
import { CPG_BUILDER_NAME, CPG_EVALUATED, CPG_JUDGE_NAME, CPG_WRITER_NAME, cpgOfflineHandlers } from '../agents/cpgbench/roster.ts';
import { llmCallsViews } from './llm-views.ts';
import type { CpgRunModels } from './cpgbench-roster.ts';
import type { RunLlmOptions } from './run-llm-client.ts';

export function cpgEstimateStandIns(evaluated: readonly string[]): (req: ChatRequest) => string | undefined {
  return (req) => {
    switch (req.stage) {
      case 'cpg_documents':
      case 'cpg_recommendations':
      case 'cpg_safety':
        return CPG_BUILDER_NAME;
      case 'cpg_conversations':
        return CPG_WRITER_NAME;
      case 'cpg_detection':
      case 'cpg_adherence':
        return CPG_EVALUATED[Math.max(0, evaluated.indexOf(req.model)) % CPG_EVALUATED.length];
      case 'cpg_detection_judgements':
      case 'cpg_adherence_judgements':
        return CPG_JUDGE_NAME;
      default:
        return undefined;
    }
  };
}

export function cpgRunLlm(storeDir: string, models: CpgRunModels, o: RunLlmOptions): RunLlm {
  const client = createLlmClient({
    cacheDir: o.cacheDir,
    storeLogDir: join(storeDir, 'llm'),
    ...(o.progress ? { progress: o.progress } : {}),
    roster: models.roster,
    offlineHandlers: cpgOfflineHandlers(),
    mode: o.mode ?? 'live',
    estimateStandIn: cpgEstimateStandIns(models.evaluated.map((m) => m.name)),
  });
  return {
    client,
    estimate: () => formatEstimate(client.estimateReport()),
    estimateRows: () => client.estimateReport(),
    views: () => llmCallsViews(storeDir, o.cacheDir),
    close: () => client.close(),
  };
}

/**
 * The offline stand-ins of a run (curated builder, writers, simulated agents and judges) by model
 * name, and one call answered by them: what a worker thread runs (pipeline/threads/
 * threaded-providers.ts). Every stand-in answers from the call's prompt and context alone, so a
 * worker's providers answer exactly as the main thread's would.
 */
import type { OfflineHandler, Provider, ProviderResponse } from '../../pipeline/llm/types.ts';
import { offlineProvider } from '../../pipeline/llm/providers/offline.ts';
import type { OfflineCall } from '../../pipeline/threads/threaded-providers.ts';
import { CURATED_BUILDER_NAME, createCuratedBuilderHandler } from '../agents/curated-builder.ts';
import { offlineHandlers as agentProviders } from '../agents/roster.ts';
import { OFFLINE_WRITERS } from '../agents/writers/offline-writers.ts';
import { simulatedJudgeHandlers } from '../agents/judges/simulated-judges.ts';

export function offlineStandIns(): Record<string, OfflineHandler | Provider> {
  return {
    [CURATED_BUILDER_NAME]: createCuratedBuilderHandler(),
    ...OFFLINE_WRITERS,
    ...agentProviders(),
    ...simulatedJudgeHandlers(),
  };
}

let here: Map<string, Provider> | null = null;

/** One offline call, answered by this thread's stand-ins (built on first use). */
export function answerOfflineCall(call: OfflineCall): Promise<ProviderResponse> {
  here ??= new Map(Object.entries(offlineStandIns()).map(([n, h]) => [n, offlineProvider(h)]));
  const p = here.get(call.name);
  if (!p) throw new Error(`no offline stand-in named ${call.name} in this thread`);
  return p.callApi(call.prompt, call.context);
}

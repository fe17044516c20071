/**
 * The LLM client of one `cdp run`: the roster resolved against the environment, the offline
 * stand-ins' handlers, the durable call cache under the store, and the `llm_calls` view.
 */
import { join } from 'node:path';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { formatEstimate } from '../../pipeline/llm/estimate-report.ts';
import { llmCallsViews } from './llm-views.ts';
import type { ModelSpec, OfflineHandler } from '../../pipeline/llm/types.ts';
import type { RunLlm } from '../../pipeline/cli/extensions.ts';

export function runLlm(
  storeDir: string,
  roster: readonly ModelSpec[],
  offlineHandlers: Record<string, OfflineHandler>,
  mode: 'live' | 'estimate' = 'live',
): RunLlm {
  const cacheDir = join(storeDir, 'llm');
  const client = createLlmClient({ cacheDir, roster, offlineHandlers, mode });
  return {
    client,
    estimate: () => formatEstimate(client.estimateReport()),
    views: () => llmCallsViews(storeDir),
    close: () => client.close(),
  };
}

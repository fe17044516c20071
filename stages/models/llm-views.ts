/** The warehouse view over the LLM calls a store used (absent until a call was made). */
import { join } from 'node:path';
import { llmCallsRelation } from '../../pipeline/llm/call-log.ts';

/** `cacheDir`: the project's shared call cache; the store's own part of the log is `<store>/llm`. */
export function llmCallsViews(storeDir: string, cacheDir: string): Record<string, string> {
  const relation = llmCallsRelation(cacheDir, join(storeDir, 'llm'));
  return relation ? { llm_calls: `select * from ${relation}` } : {};
}

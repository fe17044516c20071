/** The warehouse view over the LLM call log, kept with the call cache (absent until a call was made). */
import { join } from 'node:path';
import { llmCallsRelation } from '../../pipeline/llm/call-log.ts';

/** `cacheDir`: the call cache's directory (--call-cache), by default `<store>/llm`. */
export function llmCallsViews(storeDir: string, cacheDir: string | null = null): Record<string, string> {
  const relation = llmCallsRelation(cacheDir ?? join(storeDir, 'llm'));
  return relation ? { llm_calls: `select * from ${relation}` } : {};
}

/** The warehouse view over the LLM call log kept under the store (absent until a call was made). */
import { join } from 'node:path';
import { llmCallsRelation } from '../../pipeline/llm/call-log.ts';

export function llmCallsViews(storeDir: string): Record<string, string> {
  const relation = llmCallsRelation(join(storeDir, 'llm'));
  return relation ? { llm_calls: `select * from ${relation}` } : {};
}

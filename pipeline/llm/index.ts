/**
 * The LLM client's public surface, for the runner and the stages. See client.ts for how the
 * pieces fit.
 */
export { createLlmClient, llmCacheLayout, type LlmClientOptions } from './client.ts';
export { resolveRoster, redact } from './roster.ts';
export { llmCallsRelation, LLM_CALLS_COLUMNS } from './call-log.ts';
export { askStructured, jsonSchemaParser, reaskMessage, type Chatter, type ParseOutcome, type StructuredResult } from './ask-structured.ts';
export { answerProblems } from './schema.ts';
export { stripReasoning, extractJson, type JsonExtraction } from './structured.ts';
export { formatEstimate } from './estimate-report.ts';
export { countTokens } from './tokens.ts';
export type * from './types.ts';

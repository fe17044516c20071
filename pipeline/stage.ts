/**
 * The one module a stage imports from the runner. It is deliberately small: a stage's code
 * identity includes what it imports, so importing the whole runner would rerun every stage
 * whenever the runner changed. The LLM helpers below are part of it (a change to them reruns
 * every stage, the price of one import seam).
 */
export { tableStage, rowStage, missingLlm } from './dag/stage.ts';
export type { StageContext, StageLlm, TableStage, RowStage, Unit, StageImpl } from './dag/stage.ts';
export { resolveParams } from './dag/params.ts';
export type { ParamsDecl } from './dag/params.ts';
export { stageInputs } from './dag/inputs.ts';
export type { InputDecl, InputsDecl } from './dag/inputs.ts';
// The params' schemas: a stage declares each param's type, range and default with zod.
export { z } from 'zod';
export type { Row, Columns } from './dag/define.ts';
// What stages that call models use, so no stage imports pipeline/llm/* itself.
export type { ChatMessage, ChatRequest, ChatResult, ContentPart, EmbedRequest, EmbedResult, ModelSpec } from './llm/types.ts';
export { askStructured, type Chatter, type AnswerParser, type ParseOutcome, type StructuredResult } from './llm/ask-structured.ts';
export { extractJson, prepareAnswer, stripReasoning } from './llm/structured.ts';
// How leniently an answer was read (its format), recorded beside what was read from it.
export { foldWidth, formatOf, truncationReason, variantsOf, type AnswerFormat, type FormatVariant } from './llm/answer-format.ts';
// Prompt budgets: the free upper bound first, the exact count (loaded on first use) when it matters.
export { countTokens, firstTokens, tokenUpperBound, TOKENS_PER_MESSAGE, TOKENS_PER_REPLY } from './llm/tokens.ts';

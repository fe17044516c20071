/**
 * Stage `cpg_conversations`: one doctor–patient conversation per recommendation (§4.3), written
 * by `writer` (the builder, or the simulated writer offline) with the conversation prompt of the
 * recommendation's language (Prompt 7 English, 8 German, 9 Chinese; other languages English).
 *
 * Regeneration. The paper regenerates a conversation until it passes the three format checks
 * (conversation.ts). Here a rejected answer is regenerated, not corrected: the same prompt is
 * sent again as a distinct call (`repeat` 1, 2, …), so every attempt is its own cache entry and
 * a rerun replays them exactly. The limit is `maxAttempts` (default 5) answers in all; a
 * recommendation whose conversation never passes is a failure row whose `error` lists each
 * attempt's failed check and reason, and its answers are withdrawn from the cache
 * (`reject`), so `cdp run --retry-failed` writes fresh ones. Each row records the limit it
 * ran under (`max_attempts`) and whether its writer is a stand-in (`writer_simulated`), which the
 * export's card states.
 */
import { rowStage, z, type ChatResult } from '../../../pipeline/stage.ts';
import { loadTemplate } from '../../prompts/templates.ts';
import { promptMessage } from '../../prompts/prompt-message.ts';
import { modelRefSchema, type ModelRef } from '../../roster/model-ref.ts';
import { checkConversation } from './conversation.ts';
import { factsOf, type CpgCallContext } from './call-context.ts';

export interface CpgConversationsParams {
  /** The writer (the builder, or the simulated writer offline): the wiring's roster value. */
  writer: ModelRef;
  maxAttempts: number;
}

export default rowStage<CpgConversationsParams>({
  inputs: { cpg_recommendations: 'drives' },
  params: { writer: modelRefSchema, maxAttempts: z.int().min(1).max(50).default(5) },
  columns: {
    recommendation_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    writer: 'VARCHAR',
    writer_simulated: 'BOOLEAN',
    messages: 'STRUCT(role VARCHAR, content VARCHAR)[]',
    turns: 'INTEGER',
    marked_turn: 'INTEGER',
    attempts: 'INTEGER',
    max_attempts: 'INTEGER',
    rejected: 'VARCHAR[]',
    answer_format: 'VARCHAR',
    template: 'VARCHAR',
  },
  async run({ row }, ctx) {
    const { maxAttempts } = ctx.params;
    const writer = ctx.params.writer.name;
    const t = loadTemplate('cpg-conversation-generation', String(row.language));
    const facts = factsOf(row);
    const message = promptMessage(ctx.llm, t, {
      Recommendation: facts.recommendation,
      Context: facts.context,
      Action: facts.action,
      Goal: facts.goal,
      Title: facts.title,
      Country: facts.region ?? 'the country of the guideline',
    });
    const context: CpgCallContext = { cpg: 'writer', recommendation: facts };
    const base = {
      recommendation_id: row.recommendation_id,
      guideline_id: row.guideline_id,
      language: row.language,
      writer,
      writer_simulated: ctx.params.writer.simulated,
      max_attempts: maxAttempts,
      template: t.identity,
    };
    const rejected: string[] = [];
    const answers: { result: ChatResult; reason: string }[] = [];
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const r = await ctx.llm.chat({ model: writer, messages: [message], role: 'builder', repeat: attempt - 1, context });
      if (!r.ok) return { ...base, attempts: attempt, rejected, error: `${writer}: ${r.error}` };
      const c = checkConversation(r.text, r.finishReason);
      if (c.ok) {
        return {
          ...base,
          messages: c.messages,
          turns: c.messages.length,
          marked_turn: c.markedTurn,
          attempts: attempt,
          rejected,
          answer_format: c.format,
        };
      }
      const reason = `attempt ${attempt}: ${c.check}: ${c.reason}`;
      rejected.push(reason);
      answers.push({ result: r, reason });
    }
    for (const a of answers) await ctx.llm.reject(a.result, a.reason);
    return {
      ...base,
      attempts: maxAttempts,
      rejected,
      error: `no conversation passed the format checks in ${maxAttempts} attempts (${rejected.join('; ')})`,
    };
  },
});

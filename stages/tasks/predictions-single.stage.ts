/**
 * Stage `predictions_single`: the single-turn vignette setting (paper §3.2). One unit per test
 * CDP × evaluated model: Prompt 4 with the guideline (sent as a blob) and the case vignette, one
 * call, the answer read with `parseSingleTurn` into decision steps and an outcome.
 *
 * - Only `split = 'test'` CDPs are asked; other rows yield no row.
 * - An answer the parser cannot fully read is a result, not a failure: parse_ok = false with
 *   parse_error saying why, and whatever steps or outcome were found (the raw text is kept).
 *   A truncated answer (finish_reason 'length') is such an answer, its parse_error says so.
 * - `answer_format` is the reader's format of an accepted answer: 'strict' (exactly Prompt 4's
 *   layout) or the '+'-joined variants it needed (pipeline/llm/answer-format.ts); null when
 *   parse_ok is false. Strict figures count only 'strict' rows.
 * - A failed call (HTTP errors after the client's retries, a context overflow "context overflow
 *   (N tokens > window W)", an inactive model) is a failure row carrying the client's reason;
 *   `cdp run --retry-failed` asks again.
 * - `simulated` says whether the model is an offline agent (see task-unit.ts). Every call carries
 *   the unit's rows as its `context` (unit-context.ts): offline providers answer from it, the
 *   client never sends it to a server and it is not part of the cache key.
 */
import { rowStage, z } from '../../pipeline/stage.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { parseSingleTurn } from './parse-single-turn.ts';
import { caseInputs, isSimulated, modelOf, stageLlm, type TaskParamsBase } from './task-unit.ts';

export type PredictionsSingleParams = TaskParamsBase;

export default rowStage<PredictionsSingleParams>({
  inputs: { cdps: 'drives', vignettes: 'joined', guidelines: 'joined', trees: 'joined' },
  params: { models: z.array(z.string()), simulated: z.array(z.string()).optional() },
  columns: {
    model: 'VARCHAR',
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    steps: 'VARCHAR[]',
    outcome: 'VARCHAR',
    parse_ok: 'BOOLEAN',
    parse_error: 'VARCHAR',
    answer_format: 'VARCHAR',
    raw: 'VARCHAR',
    template: 'VARCHAR',
    simulated: 'BOOLEAN',
  },
  async run(unit, ctx) {
    const { row } = unit;
    if (row.split !== 'test') return [];
    const model = modelOf(unit.cross);
    const base = {
      model,
      cdp_id: row.cdp_id,
      guideline_id: row.guideline_id,
      language: row.language,
      simulated: isSimulated(model, ctx.params.simulated),
    };
    const inputs = caseInputs(unit);
    if (!inputs.ok) return { ...base, error: inputs.error };
    const llm = stageLlm(ctx.llm, ctx.stage);
    const t = loadTemplate('single-turn-inference', String(row.language));
    const message = promptMessage(llm, t, { Guideline: inputs.value.markdown, Case_Vignette: inputs.value.vignette }, ['Guideline']);
    // One independent sample per case (sample = cdp_id), as the paper ran every case on its own.
    const r = await llm.chat({ model, messages: [message], role: 'evaluated', sample: String(row.cdp_id), context: inputs.value.context });
    if (!r.ok) return { ...base, template: t.identity, error: `${model}: ${r.error}` };
    const parsed = parseSingleTurn(r.text, r.finishReason);
    return {
      ...base,
      template: t.identity,
      raw: r.text,
      parse_ok: parsed.ok,
      parse_error: parsed.ok ? null : parsed.reason,
      answer_format: parsed.ok ? parsed.format : null,
      steps: parsed.steps ?? [],
      outcome: parsed.outcome ?? null,
    };
  },
});

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
 *   (N tokens > window W)", an empty or cut-off 200, an inactive model: every `ok: false` of the
 *   client) is a failure row carrying the client's reason, `failure_kind` 'server';
 *   `cdp run --retry-failed` asks again.
 * - `failure_kind` is 'answer' on a row whose answer could not be read (a result, not a failure
 *   row); `cdp run --retry-answers` recomputes those units, refuses the stored answer and asks for a
 *   fresh sample, and `resampled` counts the fresh samples taken (0: the first answer).
 * - `simulated` is the model's flag (an offline agent, stages/roster/model-ref.ts). Every call carries
 *   the unit's rows as its `context` (unit-context.ts): offline providers answer from it, the
 *   client never sends it to a server and it is not part of the cache key.
 */
import { rowStage } from '../../pipeline/stage.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { parseSingleTurn } from './parse-single-turn.ts';
import { caseInputs, modelOf, type TaskParamsBase } from './task-unit.ts';
import { distinctNames, evaluatedModelSchema } from '../roster/model-ref.ts';

export type PredictionsSingleParams = TaskParamsBase;

export default rowStage<PredictionsSingleParams>({
  inputs: { cdps: 'drives', vignettes: 'joined', guidelines: 'joined', trees: 'joined' },
  params: { models: distinctNames(evaluatedModelSchema) },
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
    failure_kind: 'VARCHAR',
    resampled: 'INTEGER',
  },
  async run(unit, ctx) {
    const { row } = unit;
    if (row.split !== 'test') return [];
    const spec = modelOf(unit.cross);
    const model = spec.name;
    const base = {
      model,
      cdp_id: row.cdp_id,
      guideline_id: row.guideline_id,
      language: row.language,
      simulated: spec.simulated,
    };
    const inputs = caseInputs(unit);
    if (!inputs.ok) return { ...base, error: inputs.error };
    const llm = ctx.llm;
    const t = loadTemplate('single-turn-inference', String(row.language));
    const message = promptMessage(llm, t, { Guideline: inputs.value.markdown, Case_Vignette: inputs.value.vignette }, ['Guideline']);
    // One independent sample per case (sample = cdp_id), as the paper ran every case on its own.
    const request = { model, messages: [message], role: 'evaluated' as const, sample: String(row.cdp_id), context: inputs.value.context };
    let r = await llm.chat(request);
    if (!r.ok) return { ...base, template: t.identity, failure_kind: 'server', error: `${model}: ${r.error}` };
    let parsed = parseSingleTurn(r.text, r.finishReason);
    if (!parsed.ok && r.cached && r.call && ctx.retrying?.includes('answer')) {
      // --retry-answers: the stored unreadable answer is refused, so this asks for a fresh sample.
      await llm.reject(r, `unreadable answer re-asked (--retry-answers): ${parsed.reason}`);
      r = await llm.chat(request);
      if (!r.ok) return { ...base, template: t.identity, failure_kind: 'server', error: `${model}: ${r.error}` };
      parsed = parseSingleTurn(r.text, r.finishReason);
    }
    return {
      ...base,
      template: t.identity,
      raw: r.text,
      parse_ok: parsed.ok,
      parse_error: parsed.ok ? null : parsed.reason,
      answer_format: parsed.ok ? parsed.format : null,
      steps: parsed.steps ?? [],
      outcome: parsed.outcome ?? null,
      failure_kind: parsed.ok ? null : 'answer',
      resampled: r.call?.attempt ?? 0,
    };
  },
});

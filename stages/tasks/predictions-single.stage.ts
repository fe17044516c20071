/**
 * Stage `predictions_single`: the single-turn vignette setting (paper §3.2), one Prompt 4 call per
 * test CDP × evaluated model, read by `parseSingleTurn`. Columns and failures:
 * docs/task-settings.md.
 *
 * An answer the reader cannot use is the model's result (parse_ok false, failure_kind 'answer'),
 * not a failure row: only a failed call (every `ok: false` of the client) is one, of kind
 * 'server'. The unit's rows travel as the call's `context` for offline providers only; the client
 * never sends it and it is not in the cache key.
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

/**
 * Stage `vignettes`: one case vignette per CDP, from Prompt 2 through the vignette writer model.
 * The answer is read by parseVignette; a refused one (a refusal, JSON, a fence, a truncated
 * answer) is re-asked with the reason, up to `maxAttempts` answers, and then the row is a failure
 * whose answers are no longer served from the cache, so `cdp run --retry-failed` asks afresh.
 */
import { askStructured, rowStage, z } from '../../pipeline/stage.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { conditionPathInput } from './prompt-inputs.ts';
import { parseVignette } from './vignette-parse.ts';
import { modelRefOf, modelRefSchema, type ModelRef } from '../roster/model-ref.ts';

export default rowStage<{ writer: ModelRef; maxAttempts: number }>({
  inputs: { cdps: 'drives' },
  params: { writer: modelRefSchema, maxAttempts: z.int().min(1).max(10).default(3) },
  columns: { cdp_id: 'VARCHAR', vignette: 'VARCHAR', generator: 'VARCHAR', template: 'VARCHAR', format: 'VARCHAR' },
  async run({ row }, ctx) {
    const writer = modelRefOf(ctx.params.writer, "stage vignettes: param 'writer'").name;
    const llm = ctx.llm;
    const t = loadTemplate('case-vignette-synthesis', row.language as string);
    const vars = { Primary_Clinical_Focus: row.focus as string, Condition_Path: conditionPathInput(row as never) };
    const base = { cdp_id: row.cdp_id, generator: writer, template: t.identity };
    const answer = await askStructured(
      llm,
      { model: writer, messages: [promptMessage(llm, t, vars)], role: 'builder' },
      (text, finishReason) => {
        const p = parseVignette(text, finishReason);
        return p.ok ? { ok: true, value: p.vignette, format: p.format } : { ok: false, problems: [p.reason] };
      },
      { maxAttempts: ctx.params.maxAttempts },
    );
    if (answer.ok) return { ...base, vignette: answer.value, format: answer.format ?? null };
    const problems = answer.problems.length ? `: ${answer.problems.join('; ')}` : '';
    return { ...base, error: `vignette writer ${writer}: ${answer.error}${problems}` };
  },
});

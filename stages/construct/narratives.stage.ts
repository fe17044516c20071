/**
 * Stage `narratives`: the reference CDP as reasoning statements (Prompt 3), one per decision step
 * plus a closing statement; the single-turn judge compares predicted steps against these.
 */
import { askStructured, rowStage, z } from '../../pipeline/stage.ts';
import { parseNarrative } from './narrative-parse.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { narrativeInput } from './prompt-inputs.ts';
import { modelRefOf, modelRefSchema, type ModelRef } from '../roster/model-ref.ts';

export default rowStage<{ writer: ModelRef; maxAttempts: number }>({
  inputs: { cdps: 'drives', vignettes: 'joined' },
  params: { writer: modelRefSchema, maxAttempts: z.int().min(1).max(10).default(3) },
  columns: { cdp_id: 'VARCHAR', steps: 'VARCHAR[]', generator: 'VARCHAR', template: 'VARCHAR' },
  async run({ row, joined }, ctx) {
    const writer = modelRefOf(ctx.params.writer, "stage narratives: param 'writer'").name;
    const llm = ctx.llm;
    const base = { cdp_id: row.cdp_id, generator: writer };
    const v = joined.vignettes[0];
    if (!v || v.error != null) return { ...base, error: `no vignette for ${row.cdp_id}${v ? `: ${v.error}` : ''}` };
    const t = loadTemplate('reasoning-narrative-conversion', row.language as string);
    const expected = (row.steps as unknown[]).length + 1;
    const answer = await askStructured(
      llm,
      { model: writer, role: 'builder', messages: [promptMessage(llm, t, { Input: narrativeInput(row as never, v.vignette as string) })] },
      (text, finishReason) => {
        const p = parseNarrative(text, expected, finishReason);
        return p.ok ? { ok: true, value: p.steps, format: p.format } : { ok: false, problems: p.problems };
      },
      { maxAttempts: ctx.params.maxAttempts },
    );
    return answer.ok
      ? { ...base, template: t.identity, steps: answer.value }
      : { ...base, template: t.identity, error: `${answer.error}${answer.problems.length ? ': ' + answer.problems.join('; ') : ''}` };
  },
});

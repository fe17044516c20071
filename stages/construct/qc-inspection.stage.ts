/**
 * Stage `qc_inspection`: LLM-based inspection of the seeded sample of cases that `qc` flags
 * `inspect`, when an inspector model is configured (param `inspector`: the wiring's roster value, or null
 * offline, in which case no case is inspected: there is no simulated stand-in for judgement).
 */
import { askStructured, rowStage, z } from '../../pipeline/stage.ts';
import { parseQcVerdict } from './qc-verdict-parse.ts';
import { qcInspectionPrompt, QC_INSPECTION_PROMPT_ID } from './qc-inspection-prompt.ts';
import type { Cdp } from './types.ts';
import { modelRefOf, modelRefSchema, type ModelRef } from '../roster/model-ref.ts';

export default rowStage<{ inspector: ModelRef | null; maxAttempts: number }>({
  inputs: { qc: 'drives', cdps: 'joined', vignettes: 'joined' },
  params: { inspector: modelRefSchema.nullable(), maxAttempts: z.int().min(1).max(10).default(2) },
  columns: { cdp_id: 'VARCHAR', inspector: 'VARCHAR', consistent: 'BOOLEAN', problems: 'VARCHAR[]', prompt: 'VARCHAR' },
  async run({ row, joined }, ctx) {
    if (!ctx.params.inspector || !row.inspect) return [];
    const inspector = modelRefOf(ctx.params.inspector, "stage qc_inspection: param 'inspector'").name;
    const base = { cdp_id: row.cdp_id, inspector, prompt: QC_INSPECTION_PROMPT_ID };
    const cdp = joined.cdps[0] as unknown as Cdp | undefined;
    const v = joined.vignettes[0];
    if (!cdp || !v || v.error != null) return { ...base, error: `nothing to inspect for ${row.cdp_id}: no CDP or vignette` };
    const llm = ctx.llm;
    const answer = await askStructured<{ consistent: boolean; problems: string[] }>(
      llm,
      { model: inspector, role: 'builder', messages: [{ role: 'user', content: qcInspectionPrompt(cdp, v.vignette as string) }] },
      (text, finishReason) => {
        const p = parseQcVerdict(text, finishReason);
        return p.ok
          ? { ok: true, value: { consistent: p.consistent, problems: p.problems }, format: p.format }
          : { ok: false, problems: p.problems };
      },
      { maxAttempts: ctx.params.maxAttempts },
    );
    if (!answer.ok) return { ...base, error: `${answer.error}${answer.problems.length ? ': ' + answer.problems.join('; ') : ''}` };
    return { ...base, consistent: answer.value.consistent, problems: answer.value.problems };
  },
});

/**
 * Stage `cpg_safety`: the safety-critical selection (§2.5), one row per recommendation. A flag
 * the corpus ships with the recommendation (`"safety_critical"` in DIR/recommendations/<id>.json)
 * is imported; otherwise Prompt 3 asks the builder with `criterion`, the paper's definition by
 * default; without a builder the recommendation is left unselected (`safety_critical` null,
 * source null), and the reports count how many are unknown. A failed builder call is a failure
 * row with its reason.
 */
import { rowStage, z } from '../../../pipeline/stage.ts';
import { modelRefSchema, type ModelRef } from '../../roster/model-ref.ts';
import { askBuilder } from './builder-ask.ts';
import { parseSafetyCritical } from './builder-answers.ts';
import { IMPORTED } from './cpg-recommendations.stage.ts';

/** The paper's definition (§2.5), completing "A recommendation is safety-critical when …". */
export const PAPER_SAFETY_CRITERION =
  'its omission, delay, or incorrect execution could reasonably lead to severe patient harm, permanent disability, or death within hours to days.';

export interface CpgSafetyParams {
  /** The builder model (the wiring's roster value); null when none is configured. */
  builder: ModelRef | null;
  criterion: string;
  maxAttempts: number;
}

export default rowStage<CpgSafetyParams>({
  inputs: { cpg_recommendations: 'drives' },
  params: {
    builder: modelRefSchema.nullable(),
    criterion: z.string().min(1).default(PAPER_SAFETY_CRITERION),
    maxAttempts: z.int().min(1).max(10).default(3),
  },
  columns: {
    recommendation_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    safety_critical: 'BOOLEAN',
    source: 'VARCHAR',
    criterion: 'VARCHAR',
    template: 'VARCHAR',
  },
  async run({ row }, ctx) {
    const base = { recommendation_id: row.recommendation_id, guideline_id: row.guideline_id };
    if (typeof row.shipped_safety_critical === 'boolean')
      return { ...base, safety_critical: row.shipped_safety_critical, source: IMPORTED };
    const { criterion, maxAttempts } = ctx.params;
    const builder = ctx.params.builder?.name ?? null;
    if (!builder) return { ...base, safety_critical: null, source: null };
    const vars = {
      Criterion: criterion,
      Recommendation: String(row.recommendation),
      Context: String(row.context),
      Action: String(row.action),
      Title: String(row.title ?? ''),
    };
    const a = await askBuilder(
      ctx.llm,
      builder,
      { id: 'cpg-safety-critical', language: String(row.language), vars, parse: parseSafetyCritical },
      maxAttempts,
    );
    if (!a.ok) return { ...base, source: builder, criterion, template: a.template, error: a.error };
    return { ...base, safety_critical: a.value, source: builder, criterion, template: a.template };
  },
});

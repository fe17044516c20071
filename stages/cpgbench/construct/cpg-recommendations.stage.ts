/**
 * Stage `cpg_recommendations`: every core recommendation of each included document (§4.2), one
 * row each, id `<guideline_id>#<n>`, with its strength, evidence level, context, action and goal
 * and the document's metadata (cpg_documents). A corpus file DIR/recommendations/<id>.json is
 * imported (source 'imported'); otherwise Prompt 4 goes to the builder with the document cut at
 * `maxTokens`, and each row records that cut (`max_tokens`, `document_cut`: whether the document
 * sent was cut; both null for an imported file, which is checked against the whole document). Both are checked the same way (recommendations-check.ts); a file that fails is a
 * failure row naming it, an answer that fails is re-asked up to `maxAttempts`. Excluded documents
 * yield no row (cpg_documents says why they are out).
 */
import { readFile } from 'node:fs/promises';
import { firstTokens, formatOf, type Row, rowStage, type StageContext, z } from '../../../pipeline/stage.ts';
import { modelRefSchema, type ModelRef } from '../../roster/model-ref.ts';
import { readStructuredAnswer } from '../read/structured-answer.ts';
import { askBuilder } from './builder-ask.ts';
import { checkRecommendations, type Recommendation } from './recommendations-check.ts';

export const IMPORTED = 'imported';

export interface CpgRecommendationsParams {
  /** The builder model (the wiring's roster value); null when none is configured. */
  builder: ModelRef | null;
  maxTokens: number;
  maxAttempts: number;
}

export const RECOMMENDATION_COLUMNS = {
  recommendation_id: 'VARCHAR',
  guideline_id: 'VARCHAR',
  n: 'INTEGER',
  language: 'VARCHAR',
  recommendation: 'VARCHAR',
  strength: 'VARCHAR',
  evidence_level: 'VARCHAR',
  context: 'VARCHAR',
  action: 'VARCHAR',
  goal: 'VARCHAR',
  shipped_safety_critical: 'BOOLEAN',
  verbatim: 'BOOLEAN',
  title: 'VARCHAR',
  institute: 'VARCHAR',
  year: 'INTEGER',
  region: 'VARCHAR',
  specialty: 'VARCHAR',
  source: 'VARCHAR',
  template: 'VARCHAR',
  attempts: 'INTEGER',
  max_tokens: 'INTEGER',
  document_cut: 'BOOLEAN',
} as const;

export default rowStage<CpgRecommendationsParams>({
  inputs: { cpg_documents: 'drives', guidelines: 'joined', cpg_corpus_recommendations: 'joined' },
  params: {
    builder: modelRefSchema.nullable(),
    maxTokens: z.int().min(1).default(128000),
    maxAttempts: z.int().min(1).max(10).default(3),
  },
  columns: RECOMMENDATION_COLUMNS,
  async run({ row, joined }, ctx) {
    if (row.included !== true) return [];
    const id = String(row.guideline_id);
    const markdown = String(joined.guidelines[0]?.markdown ?? '');
    if (!markdown) return { guideline_id: id, error: `no Markdown for '${id}'; join guidelines on guideline_id` };
    const file = joined.cpg_corpus_recommendations.find((r) => r.error == null);
    const got = file ? await importFile(String(file.path), markdown, ctx.file) : await extract(id, String(row.language), markdown, ctx);
    if (!got.ok) return { guideline_id: id, source: got.source, template: got.template, error: got.error };
    return got.recommendations.map((r, i) => recommendationRow(row, r, i + 1, got));
  },
});

type Got =
  | {
      ok: true;
      recommendations: Recommendation[];
      source: string;
      template: string | null;
      attempts: number;
      /** The cut of the document the builder read; null when imported (nothing was sent). */
      cut: { max_tokens: number; document_cut: boolean } | null;
    }
  | { ok: false; error: string; source: string | null; template: string | null };

async function importFile(path: string, markdown: string, fileOf: (path: string) => string): Promise<Got> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(fileOf(path), 'utf8'));
  } catch (err) {
    return {
      ok: false,
      source: IMPORTED,
      template: null,
      error: `${path}: not readable JSON (${(err as Error).message}); fix or remove the file`,
    };
  }
  const c = checkRecommendations(value, markdown, { shipped: true });
  if (!c.ok) return { ok: false, source: IMPORTED, template: null, error: `${path}: ${c.problems.join('; ')}` };
  return { ok: true, recommendations: c.recommendations, source: IMPORTED, template: null, attempts: 0, cut: null };
}

async function extract(id: string, language: string, markdown: string, ctx: StageContext<CpgRecommendationsParams>): Promise<Got> {
  const { maxTokens, maxAttempts } = ctx.params;
  const builder = ctx.params.builder?.name ?? null;
  if (!builder)
    return {
      ok: false,
      source: null,
      template: null,
      error: `no recommendations for '${id}': the corpus has no recommendations/${id}.json and no builder model is configured; add the file or give a model the builder role`,
    };
  const sent = firstTokens(markdown, maxTokens);
  const document = sent.text;
  const a = await askBuilder(
    ctx.llm,
    builder,
    {
      id: 'cpg-recommendation-extraction',
      language,
      vars: { Document: document },
      shared: ['Document'],
      parse: (text, finishReason) => {
        const r = readStructuredAnswer(text, finishReason);
        if (!r.ok) return { ok: false, problems: [r.problem] };
        const c = checkRecommendations(r.value, markdown);
        return c.ok ? { ok: true, value: c.recommendations, format: formatOf(r.variants) } : { ok: false, problems: c.problems };
      },
    },
    maxAttempts,
  );
  if (!a.ok) return { ok: false, source: builder, template: a.template, error: a.error };
  const cut = { max_tokens: maxTokens, document_cut: sent.cut };
  return { ok: true, recommendations: a.value, source: builder, template: a.template, attempts: a.attempts, cut };
}

function recommendationRow(doc: Row, r: Recommendation, n: number, got: Got & { ok: true }): Row {
  return {
    recommendation_id: `${String(doc.guideline_id)}#${n}`,
    guideline_id: doc.guideline_id,
    n,
    language: doc.language,
    recommendation: r.recommendation,
    strength: r.strength,
    evidence_level: r.evidence_level,
    context: r.context,
    action: r.action,
    goal: r.goal,
    shipped_safety_critical: r.safety_critical,
    verbatim: r.verbatim,
    title: doc.title,
    institute: doc.institute,
    year: doc.year,
    region: doc.region,
    specialty: doc.specialty,
    source: got.source,
    template: got.template,
    attempts: got.attempts,
    max_tokens: got.cut?.max_tokens ?? null,
    document_cut: got.cut?.document_cut ?? null,
  };
}

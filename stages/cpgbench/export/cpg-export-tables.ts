/**
 * What `cdp --config cpgbench.config.ts export` writes: per kind the tables and the read-only
 * query over the warehouse views that fills each (the ledger's current artifacts). The benchmark
 * leaves failed rows out (the card counts them, from the stages' rows); the results keep them,
 * since a failure is a result: every answer and judgement with its `failure_kind` and `error`.
 */
import { sqlString } from '../../export/export-db.ts';
import type { ExportTable } from '../../export/table-files.ts';
import { IMPORTED } from '../construct/cpg-recommendations.stage.ts';

export type CpgExportKind = 'benchmark' | 'results';

/** The `source` cpg_recommendations records for a recommendation shipped with the corpus (cpg-recommendations.stage.ts). */
const SHIPPED = sqlString(IMPORTED);

const DOCUMENTS = `select d.guideline_id, d.language, d.title, d.institute, d.publication_date, d.year, d.region, d.specialty,
    d.bona_fide, d.included, d.excluded_reason, d.bona_fide_source, d.year_source, d.region_source, d.specialty_source,
    c.source, c.license as corpus_licence, g.source_path, g.sha256 as source_sha256, g.pages,
    d.tokens, d.cut, d.kept_tokens, d.kept_chars, d.max_tokens, d.min_year, d.builder, d.templates, g.markdown
  from {ok:cpg_documents} d
  left join {ok:guidelines} g using (guideline_id)
  left join {ok:cpg_corpus} c using (guideline_id)
  order by d.guideline_id`;

const RECOMMENDATIONS = `select r.recommendation_id, r.guideline_id, r.n, r.language, r.recommendation, r.strength, r.evidence_level,
    r.context, r.action, r.goal, s.safety_critical, s.source as safety_source, s.criterion as safety_criterion,
    case when r.source = ${SHIPPED} then 'shipped' else 'extracted' end as provenance,
    case when r.source = ${SHIPPED} then null else r.source end as extracted_by,
    r.verbatim, r.title, r.institute, r.year, r.region, r.specialty, r.template, r.attempts,
    r.max_tokens as extraction_max_tokens, r.document_cut as extraction_cut
  from {ok:cpg_recommendations} r
  left join {ok:cpg_safety} s using (recommendation_id)
  order by r.guideline_id, r.n`;

const CONVERSATIONS = `select recommendation_id, guideline_id, language, messages, turns, marked_turn, writer, writer_simulated,
    attempts, max_attempts, rejected, answer_format, template
  from {ok:cpg_conversations} order by recommendation_id`;

const TASK_INPUTS = `select recommendation_id, guideline_id, language, detection_messages, adherence_messages, adherence_turns
  from {ok:cpg_task_inputs} order by recommendation_id`;

export const CPG_EXPORT_TABLES: Record<CpgExportKind, ExportTable[]> = {
  benchmark: [
    {
      name: 'documents',
      description:
        'one row per guideline document: its metadata (language, region, specialty, year, institute, source, licence) and where each value came from, ' +
        'whether the filters kept it (bona fide CPG, year) and why not, the token cut, and its Markdown',
      sql: DOCUMENTS,
    },
    {
      name: 'recommendations',
      description:
        'one row per recommendation of a kept document: its text, strength, evidence level, context, action and goal, ' +
        'the safety-critical flag and who set it, and whether it was shipped with the corpus or extracted (by which builder)',
      sql: RECOMMENDATIONS,
    },
    {
      name: 'conversations',
      description:
        'one doctor–patient conversation per recommendation, with the `<recommendation …>` marker in its marked turn, ' +
        'the writer, and the attempts it took (the rejected ones with their failed check)',
      sql: CONVERSATIONS,
    },
    {
      name: 'task_inputs',
      description:
        "the benchmark items: per recommendation the detection task's conversation (markers removed; sent inside the detection prompt) " +
        "and the adherence task's input as sent (the conversation cut before the first marked assistant turn, nothing else)",
      sql: TASK_INPUTS,
    },
  ],
  results: [
    {
      name: 'detection_answers',
      description: "every evaluated model's detection answer per recommendation (failed calls kept with `failure_kind` and `error`)",
      sql: 'select * from cpg_detection order by model, recommendation_id',
    },
    {
      name: 'adherence_answers',
      description: "every evaluated model's next turn per recommendation (failed calls kept with `failure_kind` and `error`)",
      sql: 'select * from cpg_adherence order by model, recommendation_id',
    },
    {
      name: 'judgements',
      description:
        'every judgement (content detection, title grounding, adherence) per (model, recommendation, judge): score, rationale, supporting text, ' +
        'confidence, the judge and whether it is simulated, and for a failure its `failure_kind` and reason (`error`)',
      sql: `select * from (select * from cpg_detection_judgements union all by name select * from cpg_adherence_judgements)
        order by task, model, recommendation_id, judge`,
    },
    {
      name: 'rates',
      description:
        'per (model, judge, task, grouping, group) the rate with n, correct, the failures by kind, the case and guideline-cluster bootstrap CIs and the bootstrap they were computed with (`resamples`, `seed`, `level`)',
      sql: 'select * from cpg_rates order by model, judge, task, grouping, "group"',
    },
    {
      name: 'specialty_tests',
      description: 'per (model, judge, task) the χ² test of the rate across specialties',
      sql: 'select * from cpg_specialty_tests order by model, judge, task',
    },
    {
      name: 'agreement',
      description: "Cohen's κ between the judge and human labels (empty without a human-labels.csv in the corpus)",
      sql: 'select * from cpg_agreement order by kind, task, first, second',
    },
  ],
};

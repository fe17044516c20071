/**
 * What MEGA-CDP's `cdp export` writes: per kind (benchmark, results) the tables and the read-only query over
 * the warehouse views that fills each. The views read the ledger's current artifact of every
 * stage, so an export never mixes in a stale version the way globbing the artifact files does.
 * Failed rows (a non-null `error`) stay out of the benchmark (a case whose QC check or inspection
 * failed keeps its row, with `qc_error` / `qc_inspection_error` saying why); the results keep them,
 * since a failure is a result.
 */
import type { ExportTable } from './table-files.ts';

export type { ExportTable } from './table-files.ts';

export type ExportKind = 'benchmark' | 'results';

export const EXPORT_TABLES: Record<ExportKind, ExportTable[]> = {
  benchmark: [
    {
      name: 'guidelines',
      description: 'one row per source guideline: its Markdown as extracted from the PDF, where it came from, and its licence',
      sql: `select guideline_id, title, language, pages, source_path as source, sha256 as source_sha256, markdown
        from {ok:guidelines} g order by guideline_id`,
    },
    {
      name: 'cases',
      description:
        'one row per clinical decision pathway (CDP): reference steps with their evidence, reference questions, ' +
        'the narrative and vignette written from it, the conclusion, every QC verdict (the deterministic checks, the LLM inspection) ' +
        'and whether the task settings left it out and why',
      sql: `select c.cdp_id, c.guideline_id, c.language, c.split, c.focus, c.length, c.steps as reference_steps,
          c.reference_questions, n.steps as narratives, v.vignette, c.conclusion, c.conclusion_evidence,
          q.cdp_ok as qc_cdp_ok, q.vignette_ok as qc_vignette_ok, q.narrative_ok as qc_narrative_ok, q.problems as qc_problems,
          q.error as qc_error,
          i.inspector as qc_inspector, i.consistent as qc_inspection_consistent, i.problems as qc_inspection_problems,
          i.error as qc_inspection_error,
          coalesce(x.excluded, false) as excluded,
          case when x.excluded then x.reasons else []::varchar[] end as exclusion_reasons,
          v.generator as vignette_writer, n.generator as narrative_writer
        from {ok:cdps} c
        left join {ok:vignettes} v using (cdp_id)
        left join {ok:narratives} n using (cdp_id)
        left join qc q using (cdp_id)
        left join qc_inspection i using (cdp_id)
        left join excluded_cases x using (cdp_id)
        order by c.cdp_id`,
    },
  ],
  results: [
    {
      name: 'predictions_single',
      description: 'single-turn answers: predicted steps and outcome per (model, case)',
      sql: 'select * from predictions_single order by model, cdp_id',
    },
    {
      name: 'dialogues_multi',
      description: 'multi-turn dialogues: every turn of doctor and patient per (model, case)',
      sql: 'select * from dialogues_multi order by model, cdp_id',
    },
    {
      name: 'predicted_pathways',
      description: 'the pathway each model predicted per (setting, case), as the judges saw it',
      sql: 'select * from predicted_pathways order by setting, model, cdp_id',
    },
    {
      name: 'step_scores',
      description: "the judges' step-consistency matrices per (setting, model, case, judge)",
      sql: 'select * from step_scores order by setting, model, cdp_id, judge',
    },
    {
      name: 'outcome_scores',
      description: "the judges' outcome scores per (setting, model, case, judge)",
      sql: 'select * from outcome_scores order by setting, model, cdp_id, judge',
    },
    {
      name: 'pathway_metrics',
      description: 'DTW-PCC, OT-PCC and LNDS-PCS per (setting, model, case, judge)',
      sql: 'select * from pathway_metrics order by setting, model, cdp_id, judge',
    },
    {
      name: 'excluded_cases',
      description: 'the test cases QC flagged: who flagged each (checks, inspection), why, and whether the task settings left it out',
      sql: 'select * from excluded_cases order by cdp_id',
    },
    {
      name: 'model_summary',
      description: 'per (setting, judge, metric, model) the mean with its bootstrap CIs, n and failures',
      sql: 'select * from model_summary order by setting, judge nulls last, metric, model',
    },
    {
      name: 'run_settings',
      description: 'every setting the stages recorded in their rows, with the number of rows holding each value',
      sql: 'select * from run_settings order by stage, setting, judge nulls first, value',
    },
    {
      name: 'run_facts',
      description: 'who produced the run: the corpus, the builders, the models in their roles, the case counts',
      sql: 'select * from run_facts',
    },
  ],
};

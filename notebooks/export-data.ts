/**
 * The warehouse tables the notebooks read, exported as JSON files next to the notebooks.
 * JSON rather than Parquet: the pages then need no DuckDB-Wasm or Parquet decoder, which Notebook
 * Kit would load from a CDN, and the sample's tables are small.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWarehouse } from '../pipeline/store/warehouse.ts';

/** File name (without .json) → the read-only query that fills it. */
export const NOTEBOOK_DATA: Record<string, string> = {
  model_summary: 'select * from model_summary order by setting, judge nulls last, metric, model',
  pathway_metrics: `select setting, model, cdp_id, guideline_id, language, simulated, judge, judge_kind, m, n,
      dtw_pcc, ot_pcc, lnds_pcs, error
    from pathway_metrics order by setting, model, cdp_id, judge`,
  cases: `select setting, model, cdp_id, guideline_id, language, reference, candidate, reference_conclusion,
      candidate_outcome, success, simulated, usable, reason
    from predicted_pathways order by setting, model, cdp_id`,
  case_scores: `select s.setting, s.model, s.cdp_id, s.judge, s.simulated, s.C, s.m, s.n,
      p.dtw_pcc, p.ot_pcc, p.lnds_pcs, p.dtw_path, coalesce(s.error, p.error) as error
    from step_scores s left join pathway_metrics p using (setting, model, cdp_id, judge)
    order by s.setting, s.model, s.cdp_id, s.judge`,
  dialogues: `select model, cdp_id, guideline_id, language, turns, outcome, success, end_reason, patient, simulated, error
    from dialogues_multi order by model, cdp_id`,
};

/**
 * Writes `<outDir>/<name>.json` for every entry of NOTEBOOK_DATA from the DuckDB file at
 * `warehouse` (opened read-only, its views resolved in `storeDir`); returns each file's row count.
 */
export async function exportNotebookData(warehouse: string, storeDir: string, outDir: string): Promise<Record<string, number>> {
  if (!existsSync(warehouse)) throw new Error(`no warehouse at ${warehouse}; run \`cdp run\` first`);
  mkdirSync(outDir, { recursive: true });
  const counts: Record<string, number> = {};
  const w = await openWarehouse(warehouse, storeDir, { readOnly: true });
  try {
    for (const [name, sql] of Object.entries(NOTEBOOK_DATA)) {
      let rows: Record<string, unknown>[];
      try {
        rows = (await w.con.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
      } catch (e) {
        const why = (e as Error).message;
        throw new Error(`notebook data '${name}': query on ${warehouse} failed (${why}); run \`cdp run\` so the table exists`);
      }
      writeFileSync(join(outDir, `${name}.json`), JSON.stringify(rows));
      counts[name] = rows.length;
    }
  } finally {
    w.close();
  }
  return counts;
}

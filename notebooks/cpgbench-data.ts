/**
 * The CPGBench warehouse tables its notebooks (notebooks/cpgbench/) read, exported as Arrow IPC next
 * to them, as export-data.ts does for MEGA-CDP's: the rates, the leaderboard (computed as the
 * report's, stages/cpgbench/report/leaderboard.ts), and per benchmark item the recommendation, its
 * conversation with the marker, both tasks' inputs and answers, and every judgement.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWarehouse } from '../pipeline/store/warehouse.ts';
import { cellsOf, itemsOf } from '../stages/cpgbench/results/outcomes.ts';
import { itemAverages, leaderboard } from '../stages/cpgbench/report/leaderboard.ts';
import { rateRows, recordedBootstrap, reportJudge } from '../stages/cpgbench/report/rate-rows.ts';
import { arrowIpc } from './arrow-table.ts';

export const CPG_NOTEBOOK_DATA: Record<string, string> = {
  rates: 'select * from cpg_rates order by model, judge, task, grouping, "group"',
  items: `select t.recommendation_id, t.guideline_id, t.language, r.recommendation, r.action, r.context, r.goal, r.title,
      r.region, r.specialty, s.safety_critical, c.writer, c.messages, c.marked_turn, c.attempts, c.rejected,
      t.detection_messages, t.adherence_messages
    from cpg_task_inputs t join cpg_recommendations r using (recommendation_id)
      join cpg_conversations c using (recommendation_id) left join cpg_safety s using (recommendation_id)
    where t.error is null order by t.recommendation_id`,
  answers: `select 'detection' as task, model, recommendation_id, answer, response, finish_reason, simulated, failure_kind, error from cpg_detection
    union all select 'adherence', model, recommendation_id, answer, response, finish_reason, simulated, failure_kind, error from cpg_adherence
    order by recommendation_id, model, task`,
  judgements: `select model, judge, task, recommendation_id, score, rationale, supporting_text, confidence, confidence_text,
      answer_format, attempts, simulated, judge_simulated, failure_kind, error from cpg_detection_judgements
    union all select model, judge, task, recommendation_id, score, rationale, supporting_text, confidence, confidence_text,
      answer_format, attempts, simulated, judge_simulated, failure_kind, error from cpg_adherence_judgements
    order by recommendation_id, model, judge, task`,
  construction: 'select * from cpg_construction_summary',
  failures: `select 'cpg_conversations' as stage, recommendation_id, null as model, error from cpg_conversations where error is not null
    union all select 'cpg_detection', recommendation_id, model, error from cpg_detection where error is not null
    union all select 'cpg_adherence', recommendation_id, model, error from cpg_adherence where error is not null
    order by stage, recommendation_id, model`,
};

type Row = Record<string, unknown>;

/** Writes `<outDir>/<name>.arrow` (Arrow IPC, arrow-table.ts) for each table above and the leaderboard; returns the row counts. */
export async function exportCpgNotebookData(warehouse: string, storeDir: string, outDir: string): Promise<Record<string, number>> {
  if (!existsSync(warehouse)) throw new Error(`no warehouse at ${warehouse}; run \`cdp --config cpgbench.config.ts run\` first`);
  mkdirSync(outDir, { recursive: true });
  const counts: Record<string, number> = {};
  const data: Record<string, Row[]> = {};
  const w = await openWarehouse(warehouse, storeDir, { readOnly: true });
  try {
    for (const [name, sql] of Object.entries(CPG_NOTEBOOK_DATA)) {
      try {
        data[name] = (await w.con.runAndReadAll(sql)).getRowObjectsJson() as Row[];
      } catch (e) {
        throw new Error(
          `CPGBench notebook data '${name}': query on ${warehouse} failed (${(e as Error).message}); run \`cdp --config cpgbench.config.ts run\``,
          { cause: e },
        );
      }
    }
  } finally {
    w.close();
  }
  const rates = rateRows(data.rates!);
  const judge = reportJudge(rates, []);
  const inputs = {
    cpg_task_inputs: data.items!,
    cpg_recommendations: data.items!,
    cpg_safety: data.items!,
    cpg_detection_judgements: data.judgements!.filter((j) => j.task !== 'adherence'),
    cpg_adherence_judgements: data.judgements!.filter((j) => j.task === 'adherence'),
  };
  // The paired differences resample as the report's do: with the bootstrap the rate rows record.
  const bootstrap = recordedBootstrap(data.rates!) ?? {};
  const board = leaderboard(rates, itemAverages(itemsOf(inputs), cellsOf(inputs, { models: [], judges: [] }), judge), judge, bootstrap);
  data.leaderboard = board.map((e) => ({
    rank: e.rank,
    model: e.model,
    simulated: e.simulated,
    judge: e.judge,
    // The judge's flag as its cpg_rates rows carry it, so the pages never tell a judge by its name.
    judge_simulated: e.judge === null ? null : rates.some((r) => r.judge === e.judge && r.judge_simulated),
    rates: Object.fromEntries(
      e.cells.map((c) => [
        c.task,
        {
          rate: c.rate,
          ci_low: c.ci_low,
          ci_high: c.ci_high,
          n: c.n,
          answer_failures: c.answer_failures,
          server_failures: c.server_failures,
          unscored: c.unscored,
          missing_cases: c.missing_cases,
          incomplete: c.incomplete,
        },
      ]),
    ),
    next_model: e.next?.model ?? null,
    diff: e.next?.diff ? { diff: e.next.diff.diff, ci_low: e.next.diff.ciLow, ci_high: e.next.diff.ciHigh, n: e.next.diff.n } : null,
  }));
  for (const [name, rows] of Object.entries(data)) {
    writeFileSync(join(outDir, `${name}.arrow`), arrowIpc(rows));
    counts[name] = rows.length;
  }
  return counts;
}

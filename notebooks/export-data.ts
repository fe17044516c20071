/**
 * The warehouse tables the notebooks read, exported as Arrow IPC files next to the notebooks
 * (arrow-table.ts), which the pages read with apache-arrow's tableFromIPC (lib/arrow-rows.js,
 * bundled by Vite). Arrow rather than Parquet or DuckDB-Wasm: Notebook Kit loads those decoders,
 * and its own FileAttachment.arrow(), from a CDN, and the pages must work offline.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWarehouse, type WarehouseConnection } from '../pipeline/store/warehouse.ts';
import { defaultJudge, orderJudges } from '../stages/report/judges.ts';
import type { JudgeFacts } from '../stages/roster/judge-spec.ts';
import { caseValues, leaderboard, rankLabel, type LeaderboardEntry } from '../stages/report/leaderboard.ts';
import { countsText } from '../stages/report/failure-counts.ts';
import { collectSettings, recordedBootstrap, RunSettings } from '../stages/report/run-settings.ts';
import { summaryRows } from '../stages/report/summary-rows.ts';
import { compareRuns } from './compare-data.ts';
import { arrowIpc } from './arrow-table.ts';

/** File name (without .arrow) → the read-only query that fills it. */
export const NOTEBOOK_DATA: Record<string, string> = {
  model_summary: 'select * from model_summary order by setting, judge nulls last, metric, model',
  pathway_metrics: `select setting, model, cdp_id, guideline_id, language, simulated, judge, judge_kind, judge_simulated, m, n,
      dtw_pcc, ot_pcc, lnds_pcs, error
    from pathway_metrics order by setting, model, cdp_id, judge`,
  cases: `select setting, model, cdp_id, guideline_id, language, reference, candidate, reference_conclusion,
      candidate_outcome, success, success_strict, simulated, usable, reason, failure, error
    from predicted_pathways order by setting, model, cdp_id`,
  case_scores: `select s.setting, s.model, s.cdp_id, s.judge, s.simulated, s.judge_simulated, s.C, s.m, s.n, s.calls, s.problems,
      p.dtw_pcc, p.ot_pcc, p.lnds_pcs, p.dtw_path, coalesce(s.error, p.error) as error
    from step_scores s left join pathway_metrics p using (setting, model, cdp_id, judge)
    order by s.setting, s.model, s.cdp_id, s.judge`,
  dialogues: `select model, cdp_id, guideline_id, language, turns, outcome, success, end_reason, patient, patient_simulated, simulated, error
    from dialogues_multi order by model, cdp_id`,
};

/**
 * Every judge run's raw answer: the calls step_scores and outcome_scores recorded (call_keys, in run
 * order, re-asks included), joined with the call log on key and attempt. `answer` numbers a judging's
 * answers from 1; a call the log no longer has keeps its key with a null text. Offline judges record
 * no calls, so they have no rows here.
 */
const JUDGE_ANSWERS_SQL = `with refs as (
    select setting, model, cdp_id, judge, 'steps' as judging, unnest(call_keys) as key, unnest(call_attempts) as attempt,
      unnest(call_runs) as run, unnest(generate_series(1, len(call_keys))) as answer
    from step_scores
    union all
    select setting, model, cdp_id, judge, 'outcome', unnest(call_keys), unnest(call_attempts), unnest(call_runs),
      unnest(generate_series(1, len(call_keys)))
    from outcome_scores),
  calls as (
    select key, attempt, status, text, finish_reason, rejected, rejected_reason, error from llm_calls
    qualify row_number() over (partition by key, attempt order by (status = 'ok') desc, finished_at desc nulls last) = 1)
  select r.setting, r.model, r.cdp_id, r.judge, r.judging, r.run, cast(r.answer as integer) as answer, r.key, c.status, c.text, c.finish_reason,
    c.rejected, c.rejected_reason, c.error
  from refs r left join calls c on c.key = r.key and c.attempt = r.attempt
  order by r.setting, r.model, r.cdp_id, r.judge, r.judging, r.answer`;

/**
 * Tables a run may lack (an older store, a stage another helper adds): exported as [] when their
 * query fails, and the pages say so. predictions holds the single-turn raw answers; judge_answers needs
 * the call log (llm_calls) and the judge stages' call_keys.
 */
export const OPTIONAL_NOTEBOOK_DATA: Record<string, string> = {
  outcome_scores: `select setting, model, cdp_id, judge, judge_simulated, score, correct, simulated, calls, problems, error
    from outcome_scores order by setting, model, cdp_id, judge`,
  run_settings: 'select * from run_settings order by stage, setting, judge nulls first, value',
  predictions: `select model, cdp_id, raw, parse_ok, parse_error, error from predictions_single order by model, cdp_id`,
  judge_answers: JUDGE_ANSWERS_SQL,
};

/** The second run of the compare notebook: another store's warehouse, or this store's at another state. */
export interface CompareSource {
  warehouse: string;
  store: string;
  /** How the pages name the two runs. */
  labels?: [string, string];
}

type Row = Record<string, unknown>;

async function readAll(w: WarehouseConnection, sql: string): Promise<Row[]> {
  return (await w.con.runAndReadAll(sql)).getRowObjectsJson() as Row[];
}

/**
 * The judges as their pathway_metrics rows record them (kind, `judge_simulated`), in the order the
 * reports use for judges they know nothing of (the paper's first, then by name): the default judge
 * is then chosen by the flags, never by a name.
 */
export function judgeFactsOf(rows: readonly Row[]): JudgeFacts[] {
  const facts = new Map<string, JudgeFacts>();
  for (const r of rows) {
    if (typeof r.judge !== 'string' || facts.has(r.judge)) continue;
    const kind = (typeof r.judge_kind === 'string' ? r.judge_kind : 'llm') as JudgeFacts['kind'];
    facts.set(r.judge, { name: r.judge, kind, simulated: r.judge_simulated === true });
  }
  return orderJudges(facts.keys()).map((name) => facts.get(name)!);
}

/**
 * The leaderboard entries as flat JSON rows (fractions), for the overview's chart and table; each
 * row's `judge_simulated` is the flag model_summary's rows of its judge carry (null without a judge).
 */
export function leaderboardRows(entries: readonly LeaderboardEntry[], summary: readonly Row[]): Row[] {
  const judgeSimulated = (judge: string | null) =>
    judge === null ? null : summary.some((r) => r.judge === judge && r.judge_simulated === true);
  return entries.map((e) => {
    const cell = (m: 'dtw_pcc' | 'acc' | 'sr') => {
      const c = e.cells[m];
      return c ? { mean: c.mean, ci_low: c.ci_low, ci_high: c.ci_high, n: c.n, failures: c.failures, counts: countsText(c) } : null;
    };
    const diff = (d: { diff: number; ciLow: number | null; ciHigh: number | null; n: number; guidelines?: number } | null | undefined) =>
      d ? { diff: d.diff, ci_low: d.ciLow, ci_high: d.ciHigh, n: d.n, guidelines: d.guidelines ?? null } : null;
    return {
      setting: e.setting,
      rank: e.rank,
      rank_label: rankLabel(e),
      group: e.group,
      model: e.model,
      note: e.note,
      incomplete: e.incomplete,
      simulated: e.simulated,
      judge: e.judge,
      judge_simulated: judgeSimulated(e.judge),
      pcc: cell('dtw_pcc'),
      acc: cell('acc'),
      sr: cell('sr'),
      next_model: e.next?.model ?? null,
      pcc_diff: diff(e.next?.pcc),
      acc_diff: diff(e.next?.acc),
    };
  });
}

/**
 * Writes `<outDir>/<name>.arrow` for every entry of NOTEBOOK_DATA (and OPTIONAL_NOTEBOOK_DATA) from
 * the DuckDB file at `warehouse` (opened read-only, its views resolved in `storeDir`), the
 * leaderboard (stages/report/leaderboard.ts) and, with `compare`, the two runs side by side
 * (compare-data.ts; `compare_runs.arrow`, one row, names them); returns each file's row count.
 */
export async function exportNotebookData(
  warehouse: string,
  storeDir: string,
  outDir: string,
  opts: { compare?: CompareSource } = {},
): Promise<Record<string, number>> {
  if (!existsSync(warehouse)) throw new Error(`no warehouse at ${warehouse}; run \`cdp run\` first`);
  if (opts.compare && !existsSync(opts.compare.warehouse))
    throw new Error(`compare: no warehouse at ${opts.compare.warehouse}; give the warehouse of a store that has run`);
  mkdirSync(outDir, { recursive: true });
  const counts: Record<string, number> = {};
  const data: Record<string, Row[]> = {};
  const write = (name: string, rows: unknown[]) => {
    writeFileSync(join(outDir, `${name}.arrow`), arrowIpc(rows as Row[]));
    counts[name] = rows.length;
  };
  const w = await openWarehouse(warehouse, storeDir, { readOnly: true });
  try {
    for (const [name, sql] of Object.entries(NOTEBOOK_DATA)) {
      try {
        data[name] = await readAll(w, sql);
      } catch (e) {
        const why = (e as Error).message;
        throw new Error(`notebook data '${name}': query on ${warehouse} failed (${why}); run \`cdp run\` so the table exists`, {
          cause: e,
        });
      }
      write(name, data[name]!);
    }
    for (const [name, sql] of Object.entries(OPTIONAL_NOTEBOOK_DATA)) {
      data[name] = await readAll(w, sql).catch(() => []);
      write(name, data[name]!);
    }
  } finally {
    w.close();
  }
  // The paired differences use the bootstrap model_summary recorded, as the leaderboard report does.
  const bootstrap = recordedBootstrap(new RunSettings(collectSettings({ model_summary: data.model_summary })));
  const summary = summaryRows(data.model_summary!);
  const judges = judgeFactsOf(data.pathway_metrics!);
  const judge = defaultJudge(
    summary.flatMap((r) => (r.judge === null ? [] : [r.judge])),
    judges,
  );
  const values = caseValues(
    { pathway_metrics: data.pathway_metrics, outcome_scores: data.outcome_scores, predicted_pathways: data.cases },
    summary,
    judge,
  );
  write('leaderboard', leaderboardRows(leaderboard(summary, values, judges, bootstrap), data.model_summary!));
  let compare: Row[] = [];
  let labels: [string, string] = ['A', 'B'];
  if (opts.compare) {
    const c = await openWarehouse(opts.compare.warehouse, opts.compare.store, { readOnly: true });
    let other: { pathway_metrics: Row[]; outcome_scores: Row[]; predicted_pathways: Row[]; model_summary: Row[] };
    try {
      other = {
        pathway_metrics: await readAll(c, NOTEBOOK_DATA.pathway_metrics!).catch((e: Error) => {
          throw new Error(
            `compare: pathway_metrics of ${opts.compare!.warehouse} could not be read (${e.message}); run \`cdp run\` on that store`,
          );
        }),
        outcome_scores: await readAll(c, OPTIONAL_NOTEBOOK_DATA.outcome_scores!).catch(() => []),
        // Its failure kinds and policy, so its means and differences are computed as its model_summary's were.
        predicted_pathways: await readAll(c, NOTEBOOK_DATA.cases!).catch(() => []),
        model_summary: await readAll(c, NOTEBOOK_DATA.model_summary!).catch(() => []),
      };
    } finally {
      c.close();
    }
    // This store is B (the current run), the other one A (the baseline it is compared with).
    compare = compareRuns(
      other,
      {
        pathway_metrics: data.pathway_metrics!,
        outcome_scores: data.outcome_scores!,
        predicted_pathways: data.cases!,
        model_summary: data.model_summary!,
      },
      bootstrap,
    ) as unknown as Row[];
    labels = opts.compare.labels ?? [opts.compare.warehouse, warehouse];
  }
  write('compare', compare);
  writeFileSync(
    join(outDir, 'compare_runs.arrow'),
    arrowIpc([{ available: !!opts.compare, a: labels[0], b: labels[1], bootstrap } as unknown as Row]),
  );
  return counts;
}

/**
 * A small warehouse for the notebooks' tests: tables with the columns and DuckDB types of the
 * real stage views (model_summary, pathway_metrics, predicted_pathways, step_scores,
 * dialogues_multi) and a handful of hand-written rows, so a test needs no pipeline run
 * (running the sample DAG takes about a minute of PDF ingestion).
 *
 * Cases: two CDPs (cdp-a: guideline g1, English, 3 steps; cdp-b: guideline g2, Chinese, 2 steps),
 * two models (simulated-oracle, simulated; gpt-test, not simulated), both settings, two judges
 * (judge-llm, simulated-tfidf), plus one failed judging (simulated-char-ngram on cdp-b, single,
 * gpt-test). DTW PCC is 0.1 for every simulated-oracle row and 0.5 for every gpt-test row.
 * Outcome scores by judge-llm: all correct, except gpt-test's single-turn cdp-b; gpt-test's single-turn
 * cdp-b prediction did not parse (its raw answer is kept) and its model_summary cells count 1 failure.
 * judge-llm's calls are in llm_calls (five step-scoring runs and one outcome call per case); on gpt-test's
 * single-turn cdp-b its fifth run's answer and re-ask were both refused (runs_ok 4), and its outcome, an empty
 * conclusion, was scored 1 without a call. The simulated judges have no stored calls. Every row carries
 * its agents' flags (simulated, judge_simulated, patient_simulated: the patient is simulated). run_settings
 * is collected from the other tables, as the stage does.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { llmCallsRelation } from '../../pipeline/llm/call-log.ts';
import { collectSettings } from '../../stages/report/run-settings.ts';

/** The stage module declaring each table: the fixture takes its columns from there, so it cannot drift. */
export const FIXTURE_TABLE_MODULES: Record<string, string> = {
  model_summary: 'stages/evaluate/model-summary.stage.ts',
  pathway_metrics: 'stages/evaluate/pathway-metrics.stage.ts',
  step_scores: 'stages/evaluate/step-scores.stage.ts',
  predicted_pathways: 'stages/evaluate/predicted-pathways.stage.ts',
  dialogues_multi: 'stages/tasks/dialogues-multi.stage.ts',
  outcome_scores: 'stages/evaluate/outcome-scores.stage.ts',
  run_settings: 'stages/report/run-settings.stage.ts',
  predictions_single: 'stages/tasks/predictions-single.stage.ts',
  llm_calls: 'pipeline/llm/call-log.ts',
};

/**
 * Columns other helpers add to a table (summary11: failures, excluded, policy in model_summary);
 * declared here until the stage module declares them, so the notebooks are tested with them.
 */
const PENDING_COLUMNS: Record<string, Record<string, string>> = {
  model_summary: { failures: 'INTEGER', excluded: 'INTEGER', policy: 'VARCHAR' },
};

/**
 * The call log is a view over JSONL (call-log.ts), not a stage: the columns the notebooks read, with
 * the view's types. tableColumns checks each name against the view's SQL so a rename shows here.
 */
const VIEW_COLUMNS: Record<string, Record<string, string>> = {
  llm_calls: {
    key: 'VARCHAR',
    status: 'VARCHAR',
    model: 'VARCHAR',
    stage: 'VARCHAR',
    attempt: 'INTEGER',
    finished_at: 'TIMESTAMP',
    error: 'VARCHAR',
    text: 'VARCHAR',
    finish_reason: 'VARCHAR',
    rejected: 'BOOLEAN',
    rejected_reason: 'VARCHAR',
  },
};

/** A table's columns as the warehouse has them: the declared ones, plus `error` for row-mapped stages. */
export async function tableColumns(root: string, table: string): Promise<Record<string, string>> {
  const view = VIEW_COLUMNS[table];
  if (view) {
    const sql = viewSqlForCheck();
    const missing = Object.keys(view).filter((c) => !new RegExp(`(\\.|as )"?${c}"?[ ,]`).test(sql));
    if (missing.length)
      throw new Error(`fixture view ${table}: columns ${missing.join(', ')} are not in call-log.ts; update fixture-warehouse.ts`);
    return view;
  }
  const mod = (await import(pathToFileURL(join(root, FIXTURE_TABLE_MODULES[table])).href)) as {
    default: { kind: string; columns: Record<string, string> };
  };
  const { kind, columns } = mod.default;
  const all = { ...(PENDING_COLUMNS[table] ?? {}), ...columns };
  return kind === 'row' ? { ...all, error: 'VARCHAR' } : all;
}

/** The view's SQL over a scratch call directory (the relation is null while no call was logged). */
function viewSqlForCheck(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-calls-'));
  mkdirSync(join(dir, 'calls'));
  writeFileSync(join(dir, 'calls', 'x.jsonl'), '');
  return llmCallsRelation(dir)!;
}

type Row = Record<string, unknown>;

/** A Prompt 5/8 answer for a score matrix in [0, 1] (Likert 1–5). */
function likertAnswer(C: number[][]): string {
  return C.map((row, i) => row.map((v, j) => `R${i + 1}-C${j + 1}: ${Math.round(1 + 4 * v)}`).join(', ')).join('\n');
}

const CASES = [
  {
    cdp_id: 'cdp-a',
    guideline_id: 'g1',
    language: 'en',
    reference: ['Fever above 38 C?', 'Cough for more than 3 weeks?', 'Chest X-ray shows cavities?'],
    conclusion: 'Suspected tuberculosis: sputum testing.',
  },
  { cdp_id: 'cdp-b', guideline_id: 'g2', language: 'zh', reference: ['是否头痛？', '是否伴有呕吐？'], conclusion: '考虑偏头痛。' },
];
const MODELS = [
  { model: 'simulated-oracle', simulated: true, dtw: 0.1 },
  { model: 'gpt-test', simulated: false, dtw: 0.5 },
];
const SETTINGS = ['single', 'multi'];
const JUDGES = [
  { judge: 'judge-llm', kind: 'llm', judge_simulated: false },
  { judge: 'simulated-tfidf', kind: 'similarity', judge_simulated: true },
];

/** The oracle predicts the reference; gpt-test leaves out the middle step. */
function candidateOf(model: string, reference: string[]): string[] {
  return model === 'simulated-oracle' ? reference : [reference[0], reference[reference.length - 1]];
}

function matrix(m: number, n: number, model: string): number[][] {
  return Array.from({ length: m }, (_, i) =>
    Array.from({ length: n }, (_, j) => {
      if (model === 'simulated-oracle') return i === j ? 1 : 0.25;
      return (i === 0 && j === 0) || (i === m - 1 && j === n - 1) ? 0.9 : 0.2;
    }),
  );
}

/** The DTW path drawn on the heatmap: the oracle's diagonal, or gpt-test's path through the skipped step. */
function pathOf(m: number, n: number, model: string): number[][] {
  if (model === 'simulated-oracle') return Array.from({ length: m }, (_, i) => [i, i]);
  return m === 3
    ? [
        [0, 0],
        [1, 1],
        [2, 1],
      ]
    : [
        [0, 0],
        [1, 1],
      ];
}

/**
 * `gptTestDtw` changes gpt-test's DTW PCC on cdp-a (default 0.5): the second run of a comparison,
 * as after one param change (a judge prompt, a threshold) that moved one case. `judgeNames` renames
 * the two judges (judge-llm, simulated-tfidf) in every row, their flags unchanged: names that say the
 * opposite of the flags show the pages read the flags.
 */
export interface FixtureVariant {
  gptTestDtw?: number;
  judgeNames?: Partial<Record<'judge-llm' | 'simulated-tfidf', string>>;
}

export function fixtureRows(variant: FixtureVariant = {}): Record<string, Row[]> {
  const named = (judge: string) => variant.judgeNames?.[judge as 'judge-llm'] ?? judge;
  const tables: Record<string, Row[]> = {
    model_summary: [],
    pathway_metrics: [],
    step_scores: [],
    predicted_pathways: [],
    dialogues_multi: [],
    outcome_scores: [],
    predictions_single: [],
    llm_calls: [],
  };
  let clock = 0;
  const logCall = (key: string, text: string, refused?: string) => {
    const finished_at = new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();
    tables.llm_calls.push({
      key,
      status: 'ok',
      model: named('judge-llm'),
      stage: key.split(':')[0],
      attempt: 0,
      finished_at,
      error: null,
      text,
      finish_reason: 'stop',
      rejected: refused !== undefined,
      rejected_reason: refused ?? null,
    });
    return key;
  };
  for (const setting of SETTINGS) {
    for (const { model, simulated, dtw } of MODELS) {
      for (const c of CASES) {
        const candidate = candidateOf(model, c.reference);
        const m = c.reference.length;
        const n = candidate.length;
        const shared = { setting, model, cdp_id: c.cdp_id, guideline_id: c.guideline_id, language: c.language, simulated };
        tables.predicted_pathways.push({
          ...shared,
          reference: c.reference,
          candidate,
          reference_conclusion: c.conclusion,
          candidate_outcome: c.conclusion,
          success: true,
          usable: true,
          reason: null,
        });
        const wrong = model === 'gpt-test' && setting === 'single' && c.cdp_id === 'cdp-b';
        const unit = `${setting}/${model}/${c.cdp_id}`;
        // The unreadable single-turn answer left no conclusion: scored 1 without a judge call.
        const outcomeKeys = wrong ? [] : [logCall(`outcome_scores:${unit}`, '5')];
        tables.outcome_scores.push({
          ...shared,
          judge: named('judge-llm'),
          judge_simulated: false,
          score: wrong ? 1 : 5,
          correct: !wrong,
          cutoff: 4,
          calls: outcomeKeys.length,
          problems: wrong ? ['empty candidate conclusion: scored 1 without a judge call'] : [],
          template: wrong ? null : 'en/9-outcome-accuracy-scoring.md',
          call_keys: outcomeKeys,
          call_attempts: outcomeKeys.map(() => 0),
          call_runs: outcomeKeys.map(() => 0),
          error: null,
        });
        if (setting === 'single') {
          const raw = wrong
            ? 'I think the patient may have a headache.'
            : `Steps:\n${candidate.map((q, k) => `${k + 1}. ${q}`).join('\n')}\nFinal Outcome: ${c.conclusion}`;
          tables.predictions_single.push({
            model,
            cdp_id: c.cdp_id,
            guideline_id: c.guideline_id,
            language: c.language,
            steps: wrong ? [] : candidate,
            outcome: wrong ? '' : c.conclusion,
            parse_ok: !wrong,
            parse_error: wrong ? 'no numbered steps' : null,
            raw,
            template: 'single-turn@x',
            simulated,
            error: null,
          });
        }
        for (const { judge, kind, judge_simulated } of JUDGES) {
          const C = matrix(m, n, model);
          // judge-llm's five runs; on `wrong` the fifth run's answer and its re-ask were refused.
          const refs: { key: string; run: number }[] = [];
          const refusal = 'run 5: answer 1 rejected: missing R2-C2';
          if (judge === 'judge-llm')
            for (let run = 0; run < 5; run++) {
              if (wrong && run === 4) {
                refs.push({ key: logCall(`step_scores:${unit}:r${run}`, 'R1-C1: 5', refusal), run });
                refs.push({
                  key: logCall(`step_scores:${unit}:r${run}.1`, 'R1-C1: 5, R1-C2: 1', 'run 5: answer 2 rejected: missing R2-C2'),
                  run,
                });
              } else refs.push({ key: logCall(`step_scores:${unit}:r${run}`, likertAnswer(C)), run });
            }
          tables.step_scores.push({
            ...shared,
            judge: named(judge),
            judge_simulated,
            judge_kind: kind,
            C,
            m,
            n,
            runs: 5,
            runs_ok: refs.length === 6 ? 4 : 5,
            runs_failed: refs.length === 6 ? 1 : 0,
            blocks: 1,
            calls: refs.length || 5,
            problems: refs.length === 6 ? [refusal, 'run 5: answer 2 rejected: missing R2-C2'] : [],
            call_keys: refs.map((r) => r.key),
            call_attempts: refs.map(() => 0),
            call_runs: refs.map((r) => r.run),
            error: null,
          });
          const value = model === 'gpt-test' && c.cdp_id === 'cdp-a' && variant.gptTestDtw !== undefined ? variant.gptTestDtw : dtw;
          tables.pathway_metrics.push({
            ...shared,
            judge: named(judge),
            judge_simulated,
            judge_kind: kind,
            m,
            n,
            dtw_pcc: value,
            ot_pcc: dtw + 0.05,
            lnds_pcs: 1 - dtw,
            dtw_path: pathOf(m, n, model),
            gamma: 0.2,
            beta: 0.1,
            gamma_calibrated: true,
            ot_lambda: 0.1,
            ot_tau_a: 1,
            ot_tau_b: 1,
            error: null,
          });
        }
      }
      for (const { judge, judge_simulated } of JUDGES) {
        for (const metric of ['dtw_pcc', 'ot_pcc', 'lnds_pcs', 'acc']) {
          const mean = metric === 'dtw_pcc' ? dtw : 0.5;
          const failures = model === 'gpt-test' && setting === 'single' ? 1 : 0;
          tables.model_summary.push({
            setting,
            judge: named(judge),
            judge_simulated,
            metric,
            model,
            simulated,
            mean,
            ci_low: mean - 0.1,
            ci_high: mean + 0.1,
            n: 2,
            cases: 2,
            // gpt-test's single-turn failure: an unreadable answer, scored worst (in n).
            failures,
            answer_failures: failures,
            excluded: 0,
            policy: 'worst',
            cluster_ci_low: null,
            cluster_ci_high: null,
            clusters: 2,
            ...BOOTSTRAP,
          });
        }
      }
      if (setting === 'multi')
        tables.model_summary.push({
          setting,
          judge: null,
          judge_simulated: null,
          metric: 'sr',
          model,
          simulated,
          mean: 1,
          ci_low: 1,
          ci_high: 1,
          n: 2,
          failures: 0,
          excluded: 0,
          policy: 'worst',
          cluster_ci_low: null,
          cluster_ci_high: null,
          clusters: 2,
          ...BOOTSTRAP,
        });
    }
  }
  const failed = {
    setting: 'single',
    model: 'gpt-test',
    cdp_id: 'cdp-b',
    guideline_id: 'g2',
    language: 'zh',
    simulated: false,
    judge: 'simulated-char-ngram',
    judge_simulated: true,
    judge_kind: 'similarity',
    m: 2,
    n: 2,
  };
  tables.step_scores.push({
    ...failed,
    C: null,
    runs_ok: 1,
    runs_failed: 4,
    blocks: 1,
    calls: 5,
    problems: ['too few runs'],
    call_keys: [],
    call_attempts: [],
    call_runs: [],
    error: 'only 1 of 5 judge runs usable',
  });
  tables.pathway_metrics.push({
    ...failed,
    dtw_pcc: null,
    ot_pcc: null,
    lnds_pcs: null,
    dtw_path: null,
    gamma: null,
    beta: null,
    gamma_calibrated: null,
    error: 'upstream step_scores failed',
  });
  for (const { model, simulated } of MODELS) {
    for (const c of CASES) {
      const turns = c.reference.flatMap((q, k) => [
        { role: 'doctor', text: q, parsed: 'question' },
        { role: 'patient', text: k % 2 ? 'No' : 'Yes', parsed: null },
      ]);
      turns.push({ role: 'doctor', text: `Final Conclusion: ${c.conclusion}`, parsed: 'conclusion' });
      tables.dialogues_multi.push({
        model,
        cdp_id: c.cdp_id,
        guideline_id: c.guideline_id,
        language: c.language,
        turns,
        questions: c.reference,
        outcome: c.conclusion,
        success: true,
        end_reason: 'conclusion',
        goal: c.conclusion,
        patient: 'simulated-patient',
        patient_simulated: true,
        simulated,
        cap: c.reference.length * 2 + 4,
        cap_factor: 2,
        cap_extra: 4,
        error: null,
      });
    }
  }
  tables.run_settings = collectSettings(tables);
  return tables;
}

/** The bootstrap model_summary records (its defaults, the paper's). */
const BOOTSTRAP = { resamples: 10000, seed: 42, level: 0.95 };

/**
 * Writes the fixture tables into a new DuckDB file at `path`, typed by the stage modules under
 * `root`; `dir` receives the JSON the tables are loaded from. Returns each table's row count.
 */
export async function writeFixtureWarehouse(
  root: string,
  path: string,
  dir: string,
  variant: FixtureVariant = {},
): Promise<Record<string, number>> {
  mkdirSync(dir, { recursive: true });
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(path);
  const con = await db.connect();
  const counts: Record<string, number> = {};
  try {
    for (const [name, rows] of Object.entries(fixtureRows(variant))) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(rows));
      const declared = await tableColumns(root, name);
      const unknown = Object.keys(rows[0]).filter((c) => !(c in declared));
      if (unknown.length)
        throw new Error(
          `fixture table ${name}: columns ${unknown.join(', ')} are not declared by ${FIXTURE_TABLE_MODULES[name]}; update fixture-warehouse.ts`,
        );
      const columns = Object.entries(declared)
        .map(([c, t]) => `'${c}': '${t}'`)
        .join(', ');
      const cols = Object.keys(declared)
        .map((c) => `"${c}"`)
        .join(', ');
      await con.run(
        `create table ${name} as select ${cols} from read_json('${file.replaceAll("'", "''")}', format = 'array', columns = {${columns}})`,
      );
      counts[name] = rows.length;
    }
  } finally {
    con.closeSync();
    db.closeSync();
  }
  return counts;
}

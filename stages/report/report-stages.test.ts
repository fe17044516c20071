import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveParams, type Row, type StageContext, type TableStage } from '../../pipeline/stage.ts';
import figures from './figures.stage.ts';
import index from './index.stage.ts';
import leaderboardStage from './leaderboard.stage.ts';
import { sha256 } from './report-files.ts';
import scorecard from './scorecard.stage.ts';
import tables from './tables.stage.ts';
import { collectFacts } from './run-facts.ts';
import { settingRows, srow, SUMMARY as TABLE_ROWS } from './testing/report-rows.ts';

// The shared rows and a Table 6 and a Table 7 cell, so that every table has something to show.
const SUMMARY = [
  ...TABLE_ROWS,
  srow('single', 'gpt-5.4-mini', 'ot_pcc', 'Qwen3-8B', 0.3, [0.25, 0.35]),
  srow('single', 'gpt-5.4-mini', 'lnds_pcs', 'Qwen3-8B', 0.6, [0.55, 0.65]),
];

/** run_facts of a run on the bundled sample whose evaluated models are those of `summary`. */
function factRows(summary: readonly { model: string; simulated: boolean }[]): Row[] {
  const models = [...new Map(summary.map((r) => [r.model, r])).values()];
  return collectFacts(
    {
      guidelines: [{ guideline_id: 'g1' }],
      trees: [{ builder: 'imported' }],
      vignettes: [{ generator: 'simulated-vignette-writer' }],
      narratives: [{ generator: 'simulated-narrative-writer' }],
      dialogues_multi: models.map((m) => ({ model: m.model, simulated: m.simulated, patient: 'simulated-patient' })),
      predicted_pathways: models.map((m) => ({ model: m.model, simulated: m.simulated })),
      predictions_single: models.map((m) => ({ model: m.model, simulated: m.simulated })),
      cdps: [{ split: 'test' }],
      test_cases: [{ split: 'test' }],
    },
    { dir: 'data/sample', bundled: true },
    ['simulated-vignette-writer', 'simulated-narrative-writer', 'simulated-patient'].map((name) => ({ name, simulated: true })),
  );
}

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'cdp-report-'));
  cpSync(join(import.meta.dirname, '../../data/published'), join(root, 'data/published'), { recursive: true });
  return root;
}

const ctx = (root: string, params: Record<string, unknown> = {}): StageContext<never> =>
  ({
    stage: 'report',
    params,
    root,
    file: (path: string) => resolve(root, path),
    llm: undefined,
    log: () => {},
    signal: new AbortController().signal,
  }) as unknown as StageContext<never>;

const PUBLISHED = ['table1_main_results.csv', 'table5_dtw_pcc_ci.csv', 'table6_ot_pcc_ci.csv', 'table7_lnds_pcs_ci.csv'].map((f) => ({
  path: `data/published/${f}`,
  sha256: 'x',
  size: 0,
}));

function inputs(summary: readonly { model: string; simulated: boolean }[], settings: Row[] = settingRows()): Record<string, Row[]> {
  return {
    model_summary: summary as unknown as Row[],
    run_settings: settings,
    run_facts: factRows(summary),
    correlations: [
      { setting: 'all', fixed: 'dtw_pcc', pair: 'a vs b', pearson_r: 0.5, spearman_rho: 0.5, kendall_tau: 0.4, kendall_w: 0.7, n: 10 },
    ],
    cdp_length_stats: [{ split: 'full', statistic: 'P95', value: 9 }],
    cdps: [
      { split: 'test', length: 3 },
      { split: 'non-test', length: 10 },
    ],
    threshold_analysis: [
      {
        source: 'simulated-plan',
        simulated: true,
        setting: 'all',
        judge: 'simulated-tfidf',
        model: null,
        t: 0,
        f1: 0.5,
        best_t: 0,
        best_f1: 0.5,
      },
    ],
    deviation_profile: [
      {
        setting: 'single',
        model: 'simulated-oracle',
        source: 'simulated-plan',
        cases: 2,
        omission: 1,
        redundancy: 0,
        skipping: 0,
        reversal: 0,
      },
    ],
    published: PUBLISHED,
  };
}

async function runAll(
  root: string,
  summary: readonly { model: string; simulated: boolean }[],
  params: Record<string, unknown> = {},
  settings: Row[] = settingRows(),
) {
  // The params the runner would pass: the stage's declared defaults under the test's values.
  const run = (s: TableStage<never>, i: Record<string, Row[]>) =>
    Promise.resolve(s.run(i, ctx(root, resolveParams('report', s.params, params).params)));
  const inp = inputs(summary, settings);
  const t = await run(tables as TableStage<never>, inp);
  const f = await run(figures as TableStage<never>, inp);
  const s = await run(scorecard as TableStage<never>, inp);
  const l = await run(leaderboardStage as TableStage<never>, inp);
  const x = await run(index as TableStage<never>, {
    report_leaderboard: l,
    report_tables: t,
    report_figures: f,
    report_scorecard: s,
    qc_summary: [],
    run_settings: inp.run_settings!,
    run_facts: inp.run_facts!,
  });
  return [...l, ...t, ...f, ...s, ...x];
}

describe('report stages', () => {
  test('a PNG font file that does not exist is refused, naming it', async () => {
    await assert.rejects(
      async () => figures.run(inputs(SUMMARY), ctx('/tmp', { pngFontFiles: ['no/such/font.ttf'] }) as never),
      /param pngFontFiles names font file\(s\) that do not exist: \/tmp\/no\/such\/font\.ttf/,
    );
  });

  test('rows list every file written with its sha256; a second run writes the same bytes and touches nothing', async () => {
    const root = project();
    try {
      const first = await runAll(root, SUMMARY);
      assert.equal(first.length, 5 + 12 + 12 + 2 + 1);
      for (const r of first) {
        const bytes = readFileSync(join(root, String(r.file)));
        assert.equal(r.sha256, sha256(bytes), String(r.file));
        assert.equal(r.bytes, bytes.length);
        assert.match(String(r.file), /^reports\//);
      }
      const mtimes = first.map((r) => statSync(join(root, String(r.file))).mtimeMs);
      const second = await runAll(root, SUMMARY);
      assert.deepEqual(second, first);
      assert.deepEqual(
        second.map((r) => statSync(join(root, String(r.file))).mtimeMs),
        mtimes,
        'unchanged files are not rewritten',
      );
      assert.deepEqual(readdirSync(join(root, 'reports')).sort(), ['figures', 'index.md', 'scorecard.csv', 'scorecard.md', 'tables']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('outDir is resolved against the project root; index.md links every file relative to itself', async () => {
    const root = project();
    try {
      const rows = await runAll(root, SUMMARY, { outDir: 'out/rep' });
      assert.ok(rows.every((r) => String(r.file).startsWith('out/rep/')));
      const idx = readFileSync(join(root, 'out/rep/index.md'), 'utf8');
      for (const r of rows.filter((x) => x.kind !== 'index'))
        assert.ok(idx.includes(`](${String(r.file).slice('out/rep/'.length)})`), `index links ${r.file}`);
      assert.match(
        idx,
        /^Produced by: the bundled sample \(data\/sample, 1 guideline\); trees imported from the corpus, .*; evaluated: real models: GPT-5\.4, Qwen3-8B; simulated reference agents: simulated-oracle\.$/m,
      );
      // A real model matched: the scorecard compares it.
      const card = readFileSync(join(root, 'out/rep/scorecard.csv'), 'utf8');
      assert.match(
        card,
        /^Table 5,dtw_pcc,single,Qwen3-8B,gpt-5\.4-mini,47\.88,\(47\.41–48\.35\),44\.61,\(44\.07–45\.16\),9,2,-3\.27,no,no †,3$/m,
      );
      assert.match(card, /^Table 1,sr,multi,Qwen3-8B,,97\.65,,78\.17,—,10,0,-19\.48,—,—,1$/m);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the settings the rows recorded reach Table 6, Table 1, the leaderboard, the scorecard and the index; no report param holds one', async () => {
    const root = project();
    try {
      const settings = settingRows({
        pathway_metrics: [{ judge: 'gpt-5.4-mini', ot_lambda: 1, ot_tau_a: 3, ot_tau_b: 3, gamma: 0.7, beta: 0.2, gamma_calibrated: true }],
        outcome_scores: [{ cutoff: 5 }],
        dialogues_multi: [{ cap_factor: 3, cap_extra: 1 }],
        model_summary: [{ policy: 'exclude', resamples: 2000, seed: 9, level: 0.9 }],
      });
      await runAll(root, SUMMARY, {}, settings);
      const read = (f: string) => readFileSync(join(root, 'reports', f), 'utf8');
      const [t6, t1, board, card, idx] = [
        'tables/table6_ot_pcc_ci.md',
        'tables/table1_main_results.md',
        'tables/leaderboard.md',
        'scorecard.md',
        'index.md',
      ].map(read);
      for (const text of [t6!, card!, idx!]) {
        assert.match(text, /OT-PCC here: λ = 1, τa = τb = 3 \(/);
        assert.match(text, /after ceil\(3 × length \+ 1\) doctor turns/);
      }
      for (const text of [t1!, card!, idx!]) assert.match(text, /score ≥ 5 \(of 1–5\)/);
      for (const text of [t1!, t6!, card!, idx!]) assert.match(text, /90% case-bootstrap CI, 2,000 resamples, seed 9/);
      assert.match(board!, /90% bootstrap CI resampling cases, 2,000 resamples, seed 9/);
      for (const text of [card!, idx!]) assert.match(text, /failure policy `exclude`/);
      for (const text of [t1!, t6!, board!, card!, idx!]) assert.doesNotMatch(text, /λ = 0\.1|score ≥ 4|10,000/);
      for (const stage of [tables, figures, scorecard, leaderboardStage, index] as TableStage<never>[])
        assert.deepEqual(
          resolveParams('report', stage.params, { runParams: {}, resamples: 10 }).problems.map((p) => p.split(';')[0]),
          ["stage 'report': unknown param 'runParams'", "stage 'report': unknown param 'resamples'"],
          'a report stage takes no setting as a param',
        );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a run on simulated agents only: labelled in the index, every table and figure showing agents, and the scorecard', async () => {
    const root = project();
    try {
      const sim = SUMMARY.map((r) => ({ ...r, model: `simulated-${r.model}`, simulated: true }));
      const rows = await runAll(root, sim);
      const idx = readFileSync(join(root, 'reports/index.md'), 'utf8');
      assert.match(
        idx,
        /^Produced by: the bundled sample \(data\/sample, 1 guideline\); .*; evaluated: simulated agents only, no LLM results \(.*\)\.$/m,
      );
      const showsAgents = rows.filter((r) => !/table4|figure5|index/.test(String(r.file)));
      for (const r of showsAgents) assert.match(String(r.title), /simulated/, String(r.file));
      const card = readFileSync(join(root, 'reports/scorecard.md'), 'utf8');
      assert.match(
        card,
        /^# Reproduction scorecard — simulated agents, no claim\n\nProduced by: the bundled sample .*; evaluated: simulated agents only, no LLM results \(.*\)\.\n\n\*\*This run used simulated agents only/,
      );
      const csv = readFileSync(join(root, 'reports/scorecard.csv'), 'utf8').trim().split('\n').slice(1);
      assert.equal(csv.length, 368);
      assert.ok(csv.every((l) => l.endsWith(',not run,,,,n/a (simulated),n/a (simulated),n/a (simulated),')));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

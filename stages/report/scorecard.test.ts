import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAPER_EVALUATED } from '../models/paper-names.ts';
import { parseMetricCiTable, parseTable1, publishedCells, type PublishedCell } from './published.ts';
import { differenceHundredths, insideCi, matchingText, NA_SIMULATED, NOT_RUN, scorecard, scorecardHeader, tally } from './scorecard.ts';
import { recorded, srow } from './testing/report-rows.ts';

const PUBLISHED_DIR = join(import.meta.dirname, '../../data/published');
const publishedTexts = () =>
  Object.fromEntries(
    readdirSync(PUBLISHED_DIR)
      .filter((f) => f.endsWith('.csv'))
      .map((f) => [f, readFileSync(join(PUBLISHED_DIR, f), 'utf8')]),
  );

const cell = (over: Partial<PublishedCell> = {}): PublishedCell => ({
  table: 'Table 5',
  metric: 'dtw_pcc',
  setting: 'single',
  model: 'Qwen3-8B',
  judge: 'gpt-5.4-mini',
  value: 44.61,
  ciLow: 44.07,
  ciHigh: 45.16,
  ...over,
});

describe('scorecard arithmetic', () => {
  test('difference = printed run − published, in percentage points', () => {
    assert.equal(differenceHundredths(0.4472, 44.61), 11);
    assert.equal(differenceHundredths(0.43, 44.61), -161);
    assert.equal(differenceHundredths(0.446149, 44.61), 0, '44.61 as printed');
    assert.equal(differenceHundredths(0.28725, 28.73), 0, 'half rounded as written');
  });

  test('inside CI: compared as printed, bounds inclusive; undefined CI gives "—"', () => {
    assert.equal(insideCi(44.61, 0.442, 0.453), 'yes');
    assert.equal(insideCi(44.61, 0.425, 0.446), 'no', 'high prints 44.60');
    assert.equal(insideCi(44.61, 0.425, 0.44605), 'yes', 'high prints 44.61: on the bound');
    assert.equal(insideCi(44.61, 0.4462, 0.46), 'no', 'low prints 44.62');
    assert.equal(insideCi(44.61, 0.4461, 0.46), 'yes', 'low prints 44.61: on the bound');
    assert.equal(insideCi(44.61, null, null), '—');
  });

  test('rows: matched by (setting, judge, metric, model); the rest "not run"', () => {
    const summary = [
      srow('single', 'gpt-5.4-mini', 'dtw_pcc', 'Qwen3-8B', 0.4472, [0.442, 0.453], [0.4, 0.44]),
      srow('multi', null, 'sr', 'Qwen3-8B', 0.9765, [0.97, 0.98]),
    ];
    const published = [
      cell(),
      cell({ judge: 'qwen3-8b' }),
      cell({ table: 'Table 1', metric: 'sr', setting: 'multi', judge: null, value: 97.65, ciLow: null, ciHigh: null }),
    ];
    const rows = scorecard(published, summary, { simulated: false });
    assert.deepEqual(rows[0], {
      table: 'Table 5',
      metric: 'dtw_pcc',
      setting: 'single',
      model: 'Qwen3-8B',
      judge: 'gpt-5.4-mini',
      published: '44.61',
      published_ci: '(44.07–45.16)',
      run: '44.72',
      run_ci: '(44.20–45.30)',
      n: '10',
      failures: '0',
      difference: '0.11',
      inside_ci: 'yes',
      inside_cluster_ci: 'no †',
      clusters: '3',
    });
    assert.deepEqual([rows[1]!.run, rows[1]!.difference, rows[1]!.inside_ci, rows[1]!.clusters], [NOT_RUN, NOT_RUN, NOT_RUN, '']);
    assert.deepEqual(
      [rows[2]!.judge, rows[2]!.published_ci, rows[2]!.run, rows[2]!.difference, rows[2]!.inside_ci, rows[2]!.inside_cluster_ci],
      ['', '', '97.65', '0.00', 'yes', '—'],
    );
    assert.deepEqual(tally(rows), { cells: 3, run: 2, notRun: 1, insideCi: 2, outsideCi: 0, fewClusters: 1 });
  });

  test('a simulated run compares nothing: "n/a (simulated)" in every comparison column, and says so at the top', () => {
    const summary = [srow('single', 'gpt-5.4-mini', 'dtw_pcc', 'Qwen3-8B', 0.4472, [0.442, 0.453])];
    const rows = scorecard([cell(), cell({ model: 'GPT-5.4' })], summary, { simulated: true });
    for (const r of rows) assert.deepEqual([r.difference, r.inside_ci, r.inside_cluster_ci], [NA_SIMULATED, NA_SIMULATED, NA_SIMULATED]);
    assert.equal(rows[1]!.run, NOT_RUN);
    const profile = 'the bundled sample (data/sample, 6 guidelines); …';
    const header = scorecardHeader(rows, { simulated: true, profile, settings: recorded(), paperNames: {}, published: [cell()] });
    assert.match(
      header,
      /^Produced by: the bundled sample \(data\/sample, 6 guidelines\); …\.\n\n\*\*This run used simulated agents only\. It reproduces nothing and makes no claim/,
    );
    assert.doesNotMatch(header, /inside the run's 95% case-bootstrap CI: \d/);
    assert.match(header, /Simulated agents and judges stand for no paper model, so nothing is compared\./);
  });
});

describe('scorecard: clusters and the settings the paper leaves open', () => {
  test('the cluster-CI verdict is marked † below 10 guidelines, not at 10; the number of guidelines is its own column', () => {
    const row = srow('single', 'gpt-5.4-mini', 'dtw_pcc', 'Qwen3-8B', 0.4472, [0.442, 0.453], [0.44, 0.45]);
    const at = (clusters: number) => scorecard([cell()], [{ ...row, clusters }], { simulated: false })[0]!;
    assert.deepEqual([at(10).inside_cluster_ci, at(10).clusters], ['yes', '10']);
    assert.deepEqual([at(9).inside_cluster_ci, at(9).clusters], ['yes †', '9']);
    assert.equal(tally([at(9), at(10)]).fewClusters, 1);
  });

  test("golden header of a real run: tallies, the † rule with its count, and the run's λ, τ, cut-off and turn cap", () => {
    const summary = [
      srow('single', 'gpt-5.4-mini', 'dtw_pcc', 'Qwen3-8B', 0.4472, [0.442, 0.453], [0.4, 0.44]),
      srow('multi', null, 'sr', 'Qwen3-8B', 0.9765, [0.97, 0.98]),
    ];
    const sr = cell({ table: 'Table 1', metric: 'sr', setting: 'multi', judge: null, value: 97.65, ciLow: null, ciHigh: null });
    const rows = scorecard([cell(), sr], summary, { simulated: false });
    const settings = recorded({
      pathway_metrics: [{ judge: 'judge-x', ot_lambda: 1, ot_tau_a: 2, ot_tau_b: 2, gamma: 0.9, beta: 0.2, gamma_calibrated: true }],
      outcome_scores: [{ cutoff: 3 }],
      step_scores: [{ judge: 'judge-x', runs: 5 }],
    });
    const paperNames = { 'my-qwen': 'Qwen3-8B', 'judge-x': 'gpt-5.4-mini' };
    assert.equal(
      scorecardHeader(rows, {
        simulated: false,
        profile: 'the corpus /c (2 guidelines); …',
        settings,
        paperNames,
        published: [cell(), sr],
      }),
      [
        'Produced by: the corpus /c (2 guidelines); ….',
        '',
        'Cells: 2 published (Tables 1, 5, 6 and 7); 2 present in this run, 0 not run. ' +
          "Published value inside the run's 95% case-bootstrap CI: 2; outside: 0.",
        '',
        'The published cells are judged by gpt-5.4-mini (Table 1: none). ' +
          'A model or judge is compared only when the models file names the paper model it stands for (`"paper"`): ' +
          'my-qwen → Qwen3-8B, judge-x → gpt-5.4-mini. ' +
          'Difference = run − published in percentage points, both as printed with 2 decimals; ' +
          '"inside CI" compares the published value with the run\'s CI as printed, bounds included; ' +
          'the cluster CI is over guidelines ("—" when undefined), `clusters` is its number of guidelines; ' +
          "`n` is the cases in the run's mean and `failures` the cell's test cases that failed, of any kind (answer, server, patient, missing).",
        '',
        '†: cluster CI from fewer than 10 guidelines (the number follows the mark), unreliable: ' +
          'so few clusters give few distinct resamples and an interval that covers less often than 95%. Marked here: 1 of the 2 cells run.',
        '',
        '**Settings of this run, as its rows recorded them** (the paper states no λ, τ, cut-off or turn cap; the published numbers may rest on other values):',
        '',
        '- OT-PCC here: λ = 1, τa = τb = 2 (entropic regularisation and marginal relaxation, stages/metrics/ot.ts; as recorded in pathway_metrics). ' +
          'The paper gives no λ or τ and OT-PCC depends on both, so a published OT cell may rest on other values.',
        '- Outcome accuracy counts a judge score ≥ 3 (of 1–5) as correct; the paper states no cut-off.',
        '- Multi-turn dialogues end unfinished after ceil(2 × length + 4) doctor turns (length = decision steps of the reference CDP); ' +
          'the paper states no turn cap, and SR and the multi-turn pathways depend on it.',
        '- Step scores: 5 judge runs per pathway (every judge); γ (LNDS threshold) and β (OT positional weight) per judge — judge-x: γ = 0.9, β = 0.2.',
        '- Means: 95% case-bootstrap CI, 10,000 resamples, seed 42 and the 95% cluster-bootstrap CI over guidelines; failure policy `worst`.',
      ].join('\n'),
    );
  });

  test("how models meet the paper is said from the models file's `paper` fields, never from a file or a name match", () => {
    const published = [cell(), cell({ table: 'Table 1', judge: 'gpt-5.4-mini' })];
    const none = matchingText({ simulated: false, paperNames: {}, published });
    assert.match(
      none,
      /No model or judge of this run names the paper model it stands for \(`"paper"` in the models file\), so no cell is compared\./,
    );
    assert.doesNotMatch(none, /matched by name|paper-roster/);
    assert.match(matchingText({ simulated: false, paperNames: { a: 'GPT-5.4' }, published }), /\(`"paper"`\): a → GPT-5\.4\.$/);
  });
});

describe('published tables (data/published)', () => {
  const cells = publishedCells(publishedTexts());

  test('every cell of Tables 1 and 5–7: 16 models × 5 + 3 metrics × 2 settings × 16 models × 3 judges', () => {
    assert.equal(cells.filter((c) => c.table === 'Table 1').length, 16 * 5);
    for (const t of ['Table 5', 'Table 6', 'Table 7']) assert.equal(cells.filter((c) => c.table === t).length, 2 * 16 * 3);
    assert.equal(cells.length, 368);
    assert.deepEqual([...new Set(cells.map((c) => c.model))], [...PAPER_EVALUATED], "the paper roster's names, in its order");
    assert.deepEqual([...new Set(cells.map((c) => c.judge))].sort(), [null, 'bertscore', 'gpt-5.4-mini', 'qwen3-8b'].sort());
  });

  test("transcription cross-check: Table 1's PCC is Table 5's GPT-5.4 Mini DTW-PCC, and every value lies in its own CI", () => {
    const t5 = new Map(cells.filter((c) => c.table === 'Table 5').map((c) => [`${c.setting}/${c.model}/${c.judge}`, c.value]));
    const pcc = cells.filter((c) => c.table === 'Table 1' && c.metric === 'dtw_pcc');
    assert.equal(pcc.length, 32);
    for (const c of pcc) assert.equal(c.value, t5.get(`${c.setting}/${c.model}/gpt-5.4-mini`), `${c.setting} ${c.model}`);
    for (const c of cells)
      if (c.ciLow !== null) assert.ok(c.ciLow <= c.value && c.value <= c.ciHigh!, `${c.table} ${c.setting} ${c.model} ${c.judge}`);
  });

  test('bad input is reported with file, line and column', () => {
    assert.throws(() => parseTable1('model,single_pcc_pct\nA,1\n'), /table1_main_results\.csv: missing column\(s\) single_acc_pct/);
    const head = 'metric,setting,model,judge,value_pct,ci_low_pct,ci_high_pct\n';
    assert.throws(
      () => parseMetricCiTable(`${head}dtw_pcc,single,A,j,x,1,2\n`, 'Table 5', 't5.csv'),
      /t5\.csv line 2: column value_pct must be a number, got "x"/,
    );
    assert.throws(
      () => publishedCells({}),
      /table1_main_results\.csv not found; the scorecard needs data\/published\/table1_main_results\.csv/,
    );
  });
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { judgesNote, metricCiTable, table1, table4 } from './paper-tables.ts';
import { tableCsv, tableMarkdown } from './report-table.ts';
import { table2 } from './table2.ts';
import { JUDGES, recorded, SUMMARY, srow } from './testing/report-rows.ts';
import { realJudge } from '../roster/testing/specs.ts';

describe('Table 1', () => {
  test('golden Markdown: default judge gpt-5.4-mini (the simulated judge\'s row is not shown), paper order, simulated last, "—" for cells not run', () => {
    const t = table1(SUMMARY, JUDGES, recorded());
    assert.equal(t.judge, 'gpt-5.4-mini');
    assert.equal(
      tableMarkdown(t),
      [
        '# Table 1: main results (judge: gpt-5.4-mini) — includes simulated agents (not LLM results)',
        '',
        'Per model, the mean over test cases. PCC is the DTW-based pathway consistency cost (lower is better), Acc the outcome accuracy and SR the multi-turn success rate (higher is better). PCC and Acc are judged by gpt-5.4-mini; SR needs no judge. ' +
          'Each cell: mean (95% case-bootstrap CI, 10,000 resamples, seed 42), then n and the failures by kind. ' +
          'Beside n (cases in the mean), the failures by kind: answer (unreadable or cut off), server (a call that failed), patient (the patient could not go on), missing (an imported set without the case), unscored (the judge failed). ' +
          'Failure policy worst: answer failures (unreadable or cut-off answers) and missing cases score the worst value; server and patient failures and unscored cases are left out of the mean and mark it incomplete. ' +
          '1 model is incomplete: its means leave out cases a retry may still score. "—": not run. ' +
          'Outcome accuracy counts a judge score ≥ 4 (of 1–5) as correct; the paper states no cut-off. ' +
          'Multi-turn dialogues end unfinished after ceil(2 × length + 4) doctor turns (length = decision steps of the reference CDP); ' +
          'the paper states no turn cap, and SR and the multi-turn pathways depend on it.',
        '',
        '| Model | Single PCC (%) ↓ [gpt-5.4-mini] | Single Acc (%) ↑ [gpt-5.4-mini] | Multi PCC (%) ↓ [gpt-5.4-mini] | Multi Acc (%) ↑ [gpt-5.4-mini] | Multi SR (%) ↑ |',
        '|---|---|---|---|---|---|',
        '| GPT-5.4 | — | 50.00 n=10 | — | — | — |',
        // One unreadable answer (scored worst, in n) and one server failure (left out): incomplete, with what to retry.
        '| Qwen3-8B (incomplete: single-turn 1 server failure — retry with `cdp run --retry-failed`) | 44.61 (44.07–45.16) n=9 · answer 1 · server 1 | 65.00 n=10 | 50.00 (45.00–55.00) n=10 | 28.73 n=10 | 78.17 n=10 |',
        '| simulated-oracle | 0.00 (0.00–0.00) n=10 | — | — | — | — |',
        '',
      ].join('\n'),
    );
  });

  test('only real models: no "simulated" in the title; only simulated judges: the first simulated judge is the default', () => {
    const real = SUMMARY.filter((r) => !r.simulated);
    assert.equal(table1(real, JUDGES).title, 'Table 1: main results (judge: gpt-5.4-mini)');
    assert.match(
      table1(
        SUMMARY.map((r) => ({ ...r, simulated: true })),
        JUDGES,
      ).title,
      / — simulated agents, not LLM results$/,
    );
    const simOnly = SUMMARY.filter((r) => r.judge === 'simulated-token-f1');
    assert.equal(table1(simOnly, JUDGES).judge, 'simulated-token-f1');
    assert.deepEqual(table1(simOnly, JUDGES).rows, [['Qwen3-8B', '90.00 n=10', '—', '—', '—', '—']]);
  });
});

describe('Tables 5–7', () => {
  test('golden CSV of Table 5: per judge the mean with its case CI, then the cluster CI (3 guidelines: †); simulated judges last', () => {
    const t = metricCiTable(
      SUMMARY.filter((r) => r.model === 'Qwen3-8B'),
      'dtw_pcc',
      [],
      recorded(),
    );
    assert.equal(t.title, 'Table 5: DTW-PCC (%) ↓ with 95% bootstrap CIs');
    assert.equal(
      tableCsv(t),
      [
        'Setting,Model,gpt-5.4-mini,gpt-5.4-mini cluster CI,qwen3-8b,qwen3-8b cluster CI,simulated-token-f1,simulated-token-f1 cluster CI',
        'single-turn,Qwen3-8B (incomplete: 1 server failure — retry with `cdp run --retry-failed`),44.61 (44.07–45.16) n=9 · answer 1 · server 1,(43.00–46.00) † 3 guidelines,33.67 (33.16–34.19) n=10,—,90.00 n=10,—',
        'multi-turn,Qwen3-8B,50.00 (45.00–55.00) n=10,(40.00–60.00) † 3 guidelines,—,—,—,—',
        '',
      ].join('\n'),
    );
    assert.match(t.caption, /†: cluster CI from fewer than 10 guidelines \(the number follows the mark\), unreliable/);
    assert.doesNotMatch(t.caption, /λ/, 'only Table 6 states the OT parameters');
  });

  test('cluster CIs from 10 or more guidelines are not marked, 9 are; no footnote when nothing is marked', () => {
    const row = srow('single', 'gpt-5.4-mini', 'lnds_pcs', 'Qwen3-8B', 0.5, [0.4, 0.6], [0.3, 0.7]);
    const at = (clusters: number) => metricCiTable([{ ...row, clusters }], 'lnds_pcs');
    assert.deepEqual(at(10).rows, [['single-turn', 'Qwen3-8B', '50.00 (40.00–60.00) n=10', '(30.00–70.00)']]);
    assert.doesNotMatch(at(10).caption, /†/);
    assert.deepEqual(at(9).rows, [['single-turn', 'Qwen3-8B', '50.00 (40.00–60.00) n=10', '(30.00–70.00) † 9 guidelines']]);
    assert.match(at(9).caption, /†: cluster CI from fewer than 10 guidelines/);
  });

  const ot = [
    { ...srow('single', 'gpt-5.4-mini', 'ot_pcc', 'Qwen3-8B', 0.2471, [0.2402, 0.2545], [0.2301, 0.265]), clusters: 12 },
    { ...srow('multi', 'gpt-5.4-mini', 'ot_pcc', 'Qwen3-8B', 0.3, [0.28, 0.33], [0.25, 0.36]), clusters: 9 },
  ];

  test("golden Markdown of Table 6: the run's OT λ, τ, β and turn cap as its rows recorded them; † with the number of guidelines", () => {
    assert.equal(
      tableMarkdown(metricCiTable(ot, 'ot_pcc', [realJudge('gpt-5.4-mini')], recorded())),
      [
        '# Table 6: OT-PCC (%) ↓ with 95% bootstrap CIs',
        '',
        'Each entry: mean (95% case-bootstrap CI, 10,000 resamples, seed 42) with n and the failures by kind, ' +
          'then the 95% cluster-bootstrap CI over guidelines ("—" when the cases come from a single guideline). ' +
          'Beside n (cases in the mean), the failures by kind: answer (unreadable or cut off), server (a call that failed), patient (the patient could not go on), missing (an imported set without the case), unscored (the judge failed). ' +
          'Failure policy worst: answer failures (unreadable or cut-off answers) and missing cases score the worst value; server and patient failures and unscored cases are left out of the mean and mark it incomplete. ' +
          "Judges: the run's LLM judges (gpt-5.4-mini) and no similarity judge. " +
          'Step scores: 5 judge runs per pathway (every judge). ' +
          '†: cluster CI from fewer than 10 guidelines (the number follows the mark), unreliable: ' +
          'so few clusters give few distinct resamples and an interval that covers less often than 95%. ' +
          'OT-PCC here: λ = 0.1, τa = τb = 1 (entropic regularisation and marginal relaxation, stages/metrics/ot.ts; as recorded in pathway_metrics). ' +
          'The paper gives no λ or τ and OT-PCC depends on both, so a published OT cell may rest on other values. ' +
          'γ (LNDS threshold) and β (OT positional weight) per judge — gpt-5.4-mini: γ = 0.7, β = 0.2. ' +
          'Multi-turn dialogues end unfinished after ceil(2 × length + 4) doctor turns (length = decision steps of the reference CDP); ' +
          'the paper states no turn cap, and SR and the multi-turn pathways depend on it.',
        '',
        '| Setting | Model | gpt-5.4-mini | gpt-5.4-mini cluster CI |',
        '|---|---|---|---|',
        '| single-turn | Qwen3-8B | 24.71 (24.02–25.45) n=10 | (23.01–26.50) |',
        '| multi-turn | Qwen3-8B | 30.00 (28.00–33.00) n=10 | (25.00–36.00) † 9 guidelines |',
        '',
      ].join('\n'),
    );
  });

  test('Tables 6 and 7 print the values the rows recorded, not the defaults; mixed rows say so', () => {
    const settings = recorded({
      pathway_metrics: [
        { judge: 'gpt-5.4-mini', ot_lambda: 1, ot_tau_a: 2, ot_tau_b: 3, gamma: 0.9, beta: 0.3, gamma_calibrated: false },
        { judge: 'gpt-5.4-mini', ot_lambda: 0.5, ot_tau_a: 2, ot_tau_b: 3, gamma: 0.9, beta: 0.3, gamma_calibrated: false },
      ],
      dialogues_multi: [{ cap_factor: 1.5, cap_extra: 3 }],
      model_summary: [{ policy: 'exclude+common', resamples: 2000, seed: 7, level: 0.9 }],
      step_scores: [{ judge: 'gpt-5.4-mini', runs: 3 }],
    });
    const caption = metricCiTable(ot, 'ot_pcc', [], settings).caption;
    assert.match(caption, /OT-PCC here: λ: 0\.5 and 1 \(mixed\), τa = 2, τb = 3 \(/);
    assert.match(caption, /after ceil\(1\.5 × length \+ 3\) doctor turns/);
    assert.match(caption, /gpt-5\.4-mini: γ = 0\.9, β = 0\.3 \(γ not calibrated for this judge\)/);
    assert.match(
      caption,
      /^Each entry: mean \(90% case-bootstrap CI, 2,000 resamples, seed 7\) with n .*, then the 90% cluster-bootstrap CI/,
    );
    assert.match(caption, /Step scores: 3 judge runs per pathway/);
    assert.doesNotMatch(caption, /λ = 0\.1|95%/);
    assert.equal(metricCiTable(ot, 'ot_pcc', [], settings).title, 'Table 6: OT-PCC (%) ↓ with 90% bootstrap CIs');
    const lnds = metricCiTable([{ ...ot[0]!, metric: 'lnds_pcs' }], 'lnds_pcs', [], settings).caption;
    assert.match(lnds, /gpt-5\.4-mini: γ = 0\.9, β = 0\.3/);
    assert.doesNotMatch(lnds, /λ/, 'only Table 6 states the OT parameters');
  });

  test('the judges note names the judges shown and never promises one that is not there', () => {
    assert.equal(
      judgesNote(['gpt-5.4-mini', 'simulated-token-f1', 'simulated-tfidf'], ['gpt-5.4-mini', 'simulated-token-f1'], false, JUDGES),
      "Judges: the run's LLM judges (gpt-5.4-mini) and one similarity judge (simulated-token-f1); not shown: simulated-tfidf (param allJudges shows every judge).",
    );
    // A real run without --simulated: no similarity judge at all.
    const real = [realJudge('judge-x'), realJudge('judge-y')];
    assert.equal(
      judgesNote(['judge-x', 'judge-y'], ['judge-x', 'judge-y'], false, real),
      "Judges: the run's LLM judges (judge-x, judge-y) and no similarity judge.",
    );
    const rows = [srow('single', 'judge-x', 'dtw_pcc', 'm', 0.3)];
    assert.match(
      metricCiTable(rows, 'dtw_pcc', real, recorded()).caption,
      /Judges: the run's LLM judges \(judge-x\) and no similarity judge\./,
    );
    assert.doesNotMatch(metricCiTable(rows, 'dtw_pcc', real, recorded()).caption, /one similarity judge/);
  });

  test('Tables 5–7 show the LLM judges and one similarity judge (the real one when configured); allJudges shows all', () => {
    const judges = ['gpt-5.4-mini', 'qwen3-8b', 'simulated-token-f1', 'simulated-char-ngram', 'simulated-tfidf'];
    const rows = judges.map((j, k) => ({ ...srow('single', j, 'dtw_pcc', 'Qwen3-8B', 0.1 * (k + 1)), failures: k, answer_failures: k }));
    const header = (t: { columns: string[] }) => t.columns.filter((c) => !c.endsWith('cluster CI')).slice(2);
    assert.deepEqual(header(metricCiTable(rows, 'dtw_pcc', JUDGES)), ['gpt-5.4-mini', 'qwen3-8b', 'simulated-token-f1']);
    assert.deepEqual(header(metricCiTable(rows, 'dtw_pcc', JUDGES, recorded(), true)), judges);
    const withEmbedding = [...rows, srow('single', 'embed-bge-m3', 'dtw_pcc', 'Qwen3-8B', 0.7)];
    assert.deepEqual(header(metricCiTable(withEmbedding, 'dtw_pcc', JUDGES)), ['gpt-5.4-mini', 'qwen3-8b', 'embed-bge-m3']);
    // Each shown cell carries its own n and failures by kind.
    assert.deepEqual(
      metricCiTable(rows, 'dtw_pcc', JUDGES).rows[0]!.filter((_, i) => i >= 2 && i % 2 === 0),
      ['10.00 n=10', '20.00 n=10 · answer 1', '30.00 n=10 · answer 2'],
    );
  });

  test('a metric with no cell is absent, with the reason; Tables 6 and 7 name their metric; an unknown metric is refused', () => {
    assert.equal(metricCiTable(SUMMARY, 'lnds_pcs').absent, 'model_summary has no lnds_pcs cell: no pathway was judged in this run');
    assert.equal(metricCiTable(SUMMARY, 'dtw_pcc').absent, undefined);
    assert.equal(
      metricCiTable(SUMMARY, 'ot_pcc', [], recorded()).title,
      'Table 6: OT-PCC (%) ↓ with 95% bootstrap CIs — includes simulated agents (not LLM results)',
      'labelled by the run even when empty',
    );
    assert.deepEqual(metricCiTable(SUMMARY, 'lnds_pcs').rows, []);
    assert.throws(() => metricCiTable(SUMMARY, 'acc'), /metric "acc" is none of dtw_pcc, ot_pcc, lnds_pcs/);
  });
});

describe('Tables 2 and 4', () => {
  test('Table 2: correlations with 2 decimals, Kendall\'s W only on a group\'s first row, null as "—"; the W groups said from the pairs', () => {
    const t = table2(
      [
        {
          setting: 'all',
          fixed: 'dtw_pcc',
          pair: 'a vs b',
          pearson_r: 0.786316,
          spearman_rho: 0.7689,
          kendall_tau: 0.62083,
          kendall_w: 0.888,
          n: 560,
        },
        {
          setting: 'all',
          fixed: 'dtw_pcc',
          pair: 'b vs c',
          pearson_r: 0.5,
          spearman_rho: null,
          kendall_tau: -0.125,
          kendall_w: null,
          n: 560,
        },
      ],
      'all',
    );
    assert.equal(t.title, 'Table 2: correlations between judges and between metrics — simulated agents, not LLM results');
    assert.match(t.caption, /Kendall's W once per group of raters, on its first row: the 3 judges when a metric is fixed \(LNDS-PCS/);
    assert.equal(
      tableCsv(t),
      "Setting,Fixed,Pair,Pearson r,Spearman ρ,Kendall τ,Kendall's W,n\nall,dtw_pcc,a vs b,0.79,0.77,0.62,0.89,560\nall,dtw_pcc,b vs c,0.50,—,-0.13,,560\n",
    );
  });

  test("Table 4: statistic × split in the paper's split order, integers kept as integers", () => {
    const stats = [
      ['full', 'Mean', 6.5128],
      ['test', 'Mean', 6.12],
      ['non-test', 'Mean', 6.59],
      ['non-test', 'P95', 13],
      ['full', 'P95', 13],
      ['test', 'P95', 9.049999999999997],
    ].map(([split, statistic, value]) => ({ split, statistic, value }));
    assert.equal(
      tableMarkdown(table4(stats)),
      [
        '# Table 4: CDP length statistics',
        '',
        'Length = number of decision steps of a reference CDP.',
        '',
        '| Statistic | full | test | non-test |',
        '|---|---|---|---|',
        '| Mean | 6.51 | 6.12 | 6.59 |',
        '| P95 | 13 | 9.05 | 13 |',
        '',
      ].join('\n'),
    );
  });
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { metricCiTable, table1, table2, table4 } from './paper-tables.ts';
import { tableCsv, tableMarkdown } from './report-table.ts';
import { SUMMARY } from './test-rows.ts';

describe('Table 1', () => {
  test('golden Markdown: default judge gpt-5.4-mini (the simulated judge\'s row is not shown), paper order, simulated last, "—" for cells not run', () => {
    const t = table1(SUMMARY);
    assert.equal(t.judge, 'gpt-5.4-mini');
    assert.equal(tableMarkdown(t), [
      '# Table 1: main results (judge: gpt-5.4-mini) — includes simulated agents (not LLM results)',
      '',
      'Per model, the mean over test cases. PCC is the DTW-based pathway consistency cost (lower is better), Acc the outcome accuracy and SR the multi-turn success rate (higher is better). PCC and Acc are judged by gpt-5.4-mini; SR needs no judge. "—": not run.',
      '',
      '| Model | Single PCC (%) ↓ [gpt-5.4-mini] | Single Acc (%) ↑ [gpt-5.4-mini] | Multi PCC (%) ↓ [gpt-5.4-mini] | Multi Acc (%) ↑ [gpt-5.4-mini] | Multi SR (%) ↑ |',
      '|---|---|---|---|---|---|',
      '| GPT-5.4 | — | 50.00 | — | — | — |',
      '| Qwen3-8B | 44.61 | 65.00 | 50.00 | 28.73 | 78.17 |',
      '| simulated-oracle | 0.00 | — | — | — | — |',
      '',
    ].join('\n'));
  });

  test('only real models: no "simulated" in the title; only simulated judges: the first simulated judge is the default', () => {
    const real = SUMMARY.filter((r) => !r.simulated);
    assert.equal(table1(real).title, 'Table 1: main results (judge: gpt-5.4-mini)');
    assert.match(table1(SUMMARY.map((r) => ({ ...r, simulated: true }))).title, / — simulated agents, not LLM results$/);
    const simOnly = SUMMARY.filter((r) => r.judge === 'simulated-token-f1');
    assert.equal(table1(simOnly).judge, 'simulated-token-f1');
    assert.deepEqual(table1(simOnly).rows, [['Qwen3-8B', '90.00', '—', '—', '—', '—']]);
  });
});

describe('Tables 5–7', () => {
  test('golden CSV of Table 5: per judge the mean with its case CI, then the cluster CI; simulated judges after real ones', () => {
    const t = metricCiTable(SUMMARY.filter((r) => r.model === 'Qwen3-8B'), 'dtw_pcc');
    assert.equal(t.title, 'Table 5: DTW-PCC (%) ↓ with 95% bootstrap CIs');
    assert.equal(tableCsv(t), [
      'Setting,Model,gpt-5.4-mini,gpt-5.4-mini cluster CI,qwen3-8b,qwen3-8b cluster CI,simulated-token-f1,simulated-token-f1 cluster CI',
      'single-turn,Qwen3-8B,44.61 (44.07–45.16),(43.00–46.00),33.67 (33.16–34.19),—,90.00,—',
      'multi-turn,Qwen3-8B,50.00 (45.00–55.00),(40.00–60.00),—,—,—,—',
      '',
    ].join('\n'));
  });

  test('Tables 6 and 7 name their metric; an unknown metric is refused', () => {
    assert.equal(metricCiTable(SUMMARY, 'ot_pcc').title, 'Table 6: OT-PCC (%) ↓ with 95% bootstrap CIs — includes simulated agents (not LLM results)', 'labelled by the run even when empty');
    assert.deepEqual(metricCiTable(SUMMARY, 'lnds_pcs').rows, []);
    assert.throws(() => metricCiTable(SUMMARY, 'acc'), /metric "acc" is none of dtw_pcc, ot_pcc, lnds_pcs/);
  });
});

describe('Tables 2 and 4', () => {
  test('Table 2: correlations with 2 decimals, Kendall\'s W only on a group\'s first row, null as "—"', () => {
    const t = table2([
      { setting: 'all', fixed: 'dtw_pcc', pair: 'a vs b', pearson_r: 0.786316, spearman_rho: 0.7689, kendall_tau: 0.62083, kendall_w: 0.888, n: 560 },
      { setting: 'all', fixed: 'dtw_pcc', pair: 'b vs c', pearson_r: 0.5, spearman_rho: null, kendall_tau: -0.125, kendall_w: null, n: 560 },
    ], 'all');
    assert.equal(t.title, 'Table 2: correlations between judges and between metrics — simulated agents, not LLM results');
    assert.equal(tableCsv(t), "Setting,Fixed,Pair,Pearson r,Spearman ρ,Kendall τ,Kendall's W,n\nall,dtw_pcc,a vs b,0.79,0.77,0.62,0.89,560\nall,dtw_pcc,b vs c,0.50,—,-0.13,,560\n");
  });

  test('Table 4: statistic × split in the paper\'s split order, integers kept as integers', () => {
    const stats = [
      ['full', 'Mean', 6.5128], ['test', 'Mean', 6.12], ['non-test', 'Mean', 6.59],
      ['non-test', 'P95', 13], ['full', 'P95', 13], ['test', 'P95', 9.049999999999997],
    ].map(([split, statistic, value]) => ({ split, statistic, value }));
    assert.equal(tableMarkdown(table4(stats)), [
      '# Table 4: CDP length statistics', '', 'Length = number of decision steps of a reference CDP.', '',
      '| Statistic | full | test | non-test |', '|---|---|---|---|', '| Mean | 6.51 | 6.12 | 6.59 |', '| P95 | 13 | 9.05 | 13 |', '',
    ].join('\n'));
  });
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { indexMarkdown } from './report-index.ts';
import { collectFacts, RunFacts } from './run-facts.ts';
import { RunSettings } from './run-settings.ts';
import { recorded } from './testing/report-rows.ts';

const FILES = [
  { file: 'reports/tables/leaderboard.md', kind: 'table', title: 'Leaderboard' },
  { file: 'reports/tables/leaderboard.csv', kind: 'table-csv', title: 'Leaderboard' },
  { file: 'reports/tables/table2.md', kind: 'table', title: 'Table 2', absent: 'the correlations stage has no rows' },
  { file: 'reports/tables/table2.csv', kind: 'table-csv', title: 'Table 2', absent: 'the correlations stage has no rows' },
  { file: 'reports/figures/fig1c.svg', kind: 'figure', title: 'Figure 1(c)' },
  { file: 'reports/figures/fig4.svg', kind: 'figure', title: 'Figure 4', absent: 'no ground truth in this run' },
  { file: 'reports/figures/fig4.png', kind: 'figure-png', title: 'Figure 4', absent: 'no ground truth in this run' },
  { file: 'reports/scorecard.md', kind: 'scorecard', title: 'Scorecard' },
];

// qc_summary rows as qc-summary.stage.ts writes them, other measures mixed in.
const QC = [
  { measure: 'instances checked', value: 49, paper_bound: null, within_paper: null },
  { measure: 'CDP problem rate', value: 0.02, paper_bound: 0.005, within_paper: false },
  { measure: 'instances inspected by an LLM', value: 49, paper_bound: null, within_paper: null },
  { measure: 'test cases', value: 12, paper_bound: null, within_paper: null },
  { measure: 'test cases flagged by the QC checks', value: 2, paper_bound: null, within_paper: null },
  { measure: 'test cases flagged by the LLM inspection', value: 1, paper_bound: null, within_paper: null },
  { measure: 'test cases excluded from the task settings', value: 3, paper_bound: null, within_paper: null },
];

/** A run on the corpus /data/corpus, built by builder-x, two real models, a patient and a judge; `evaluated` test cases. */
function facts(evaluated: number): RunFacts {
  const cases = (model: string, simulated = false) => Array.from({ length: evaluated }, () => ({ model, simulated, patient: 'patient-x' }));
  const rows = collectFacts(
    {
      guidelines: [{ guideline_id: 'g1' }, { guideline_id: 'g2' }, { guideline_id: 'g3', error: 'no text' }],
      trees: [{ builder: 'builder-x' }, { builder: 'builder-x' }],
      vignettes: [{ generator: 'builder-x' }],
      narratives: [{ generator: 'builder-x' }],
      qc_inspection: [{ inspector: 'builder-x' }],
      predictions_single: [...cases('my-llm'), ...cases('base-7b')],
      dialogues_multi: [...cases('my-llm'), ...cases('base-7b')],
      predicted_pathways: [...cases('my-llm'), ...cases('base-7b'), ...cases('my-llm'), ...cases('base-7b')],
      step_scores: [{ judge: 'judge-x', judge_kind: 'llm' }],
      cdps: Array.from({ length: 12 }, () => ({ split: 'test' })),
      test_cases: Array.from({ length: evaluated }, () => ({ split: 'test' })),
    },
    { dir: '/data/corpus', bundled: false },
  );
  return new RunFacts(rows);
}

describe('reports/index.md', () => {
  test('golden: who produced it, the QC and case counts, the settings, then the links (absent files with their reason)', () => {
    const md = indexMarkdown(FILES, 'reports', { facts: facts(9), settings: recorded(), qcSummary: QC });
    assert.equal(
      md,
      [
        '# MEGA-CDP reproduction: reports',
        '',
        'Produced by: the corpus /data/corpus (2 guidelines); trees, vignettes and narratives by builder-x; evaluated: real models: base-7b, my-llm.',
        '',
        '## What produced them',
        '',
        '- Corpus: the corpus /data/corpus (2 guidelines)',
        '- Trees: by builder-x',
        '- Vignettes: by builder-x',
        '- Narratives: by builder-x',
        '- QC inspection: builder-x',
        '- Evaluated: real models: base-7b, my-llm',
        '- Patient (multi-turn): patient-x',
        '- Judges: judge-x [llm]',
        '',
        '## Test cases and quality control',
        '',
        '- Test cases in the test split: 12',
        '- Test cases flagged by the QC checks: 2',
        '- Test cases flagged by the LLM inspection: 1',
        '- Test cases excluded from the task settings: 3',
        '- Test cases evaluated in this run: 9',
        '',
        'The tables and figures below are over the test cases evaluated; `qc_summary` has the problem rates.',
        '',
        '## Settings of this run, as its rows recorded them',
        '',
        '- Test split: each guideline held out with probability 0.5 (split seed 156).',
        '- Multi-turn dialogues end unfinished after ceil(2 × length + 4) doctor turns (length = decision steps of the reference CDP); the paper states no turn cap, and SR and the multi-turn pathways depend on it.',
        '- Step scores: 5 judge runs per pathway (every judge).',
        '- Outcome accuracy counts a judge score ≥ 4 (of 1–5) as correct; the paper states no cut-off.',
        '- OT-PCC here: λ = 0.1, τa = τb = 1 (entropic regularisation and marginal relaxation, stages/metrics/ot.ts; as recorded in pathway_metrics). The paper gives no λ or τ and OT-PCC depends on both, so a published OT cell may rest on other values.',
        '- γ (LNDS threshold) and β (OT positional weight) per judge — gpt-5.4-mini: γ = 0.7, β = 0.2.',
        '- Means: 95% case-bootstrap CI, 10,000 resamples, seed 42 and the 95% cluster-bootstrap CI over guidelines; failure policy `worst`.',
        '',
        '## Tables',
        '',
        '- Leaderboard: [Markdown](tables/leaderboard.md), [CSV](tables/leaderboard.csv)',
        '- Table 2: not written — the correlations stage has no rows',
        '',
        '## Figures',
        '',
        '- Figure 1(c): [SVG](figures/fig1c.svg)',
        '- Figure 4: not written — no ground truth in this run',
        '',
        '## Reproduction scorecard',
        '',
        '- Scorecard: [Markdown](scorecard.md)',
        '',
        'Every file is regenerated by `cdp run`; the same data gives the same bytes.',
        '',
      ].join('\n'),
    );
  });

  test('a smoke run (--limit 5) counts its own cases, not the test split', () => {
    const md = indexMarkdown(FILES, 'reports', { facts: facts(5), settings: recorded(), qcSummary: QC });
    assert.match(
      md,
      /\n- Test cases evaluated in this run: 5 of the 9 left after the exclusions \(a smoke run: `cdp run --limit` chose them\)\n/,
    );
    assert.doesNotMatch(md, /Test cases: /);
  });

  test('a qc_summary without test-case rows says the counts are not available rather than printing zeros', () => {
    const md = indexMarkdown(FILES, 'reports', { facts: facts(9), settings: new RunSettings([]), qcSummary: QC.slice(0, 2) });
    assert.match(
      md,
      /\n## Test cases and quality control\n\nQC exclusion counts are not available \(qc_summary has no test-case rows\)\.\n- Test cases evaluated in this run: 9\n/,
    );
    assert.match(md, /\n- Test split: not recorded \(no cdps row\)\.\n/);
  });

  test('offline (no inspector ran) the inspection count says it was not inspected', () => {
    const offline = QC.filter((r) => r.measure !== 'instances inspected by an LLM');
    assert.match(
      indexMarkdown(FILES, 'reports', { facts: facts(9), settings: recorded(), qcSummary: offline }),
      /\n- Test cases flagged by the LLM inspection: 1 \(no LLM inspection in this run\)\n/,
    );
  });
});

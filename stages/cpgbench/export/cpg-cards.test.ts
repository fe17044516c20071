// CPGBench's export cards from hand-made rows: a build whose recommendations a builder
// extracted, under mixed settings, with failures left out; results of a real and a simulated
// model with real and simulated judges, failures by kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WrittenTable } from '../../export/table-files.ts';
import { cpgBenchmarkCard } from './cpg-benchmark-card.ts';
import { cpgResultsCard } from './cpg-results-card.ts';

type Row = Record<string, unknown>;
const table = (name: string, rows: Row[]): WrittenTable => ({
  name,
  description: `the ${name}`,
  rows,
  columns: [{ name: 'x', type: 'INTEGER' }],
});

const doc = (id: string, o: Row): Row => ({
  guideline_id: id,
  bona_fide: true,
  included: true,
  bona_fide_source: 'corpus',
  year_source: 'corpus',
  region_source: 'builder-x',
  specialty_source: null,
  min_year: 2015,
  max_tokens: 128000,
  cut: false,
  builder: 'builder-x',
  ...o,
});

test('benchmark card: extracted recommendations, builder-selected safety flags, mixed settings, a real writer, failures counted', () => {
  const written = [
    table('documents', [
      doc('a', {}),
      doc('b', { min_year: 2016, cut: true }),
      doc('c', { included: false, year: 2010 }),
      doc('d', { included: false, bona_fide: false }),
    ]),
    table('recommendations', [
      {
        provenance: 'extracted',
        extracted_by: 'builder-x',
        safety_critical: true,
        safety_source: 'builder-x',
        safety_criterion: 'harm within hours',
      },
      {
        provenance: 'extracted',
        extracted_by: 'builder-x',
        safety_critical: false,
        safety_source: 'builder-x',
        safety_criterion: 'harm within hours',
      },
      { provenance: 'shipped', extracted_by: null, safety_critical: null, safety_source: null, safety_criterion: null },
    ]),
    table('conversations', [
      { writer: 'builder-x', writer_simulated: false, attempts: 1, max_attempts: 5 },
      { writer: 'builder-x', writer_simulated: false, attempts: 3, max_attempts: 5 },
    ]),
    table('task_inputs', [{}, {}]),
  ];
  const card = cpgBenchmarkCard(
    {
      licences: [{ guideline_id: 'a', source: 'g/a.md', licence: 'CC BY 4.0' }],
      notices: [],
      failures: [
        { stage: 'cpg_documents', n: 0 },
        { stage: 'cpg_conversations', n: 1 },
      ],
      prompts: ['en/cpgbench-recommendation-extraction.md'],
      sqlCommand: 'cdp --config cpgbench.config.ts sql',
    },
    written,
  );
  assert.match(card, /^\| documents \| 4 \| the documents \|$/m);
  assert.match(
    card,
    /^- counts: 4 documents, 2 kept \(1 not a bona fide CPG, 1 by year\); 3 recommendations; 2 conversations; 2 benchmark items/m,
  );
  assert.match(card, /^- builder: `builder-x`$/m);
  assert.match(card, /^- metadata of the kept documents \(.*\): guidelines\.csv 4, `builder-x` 2; unknown 2$/m);
  assert.match(card, /^- recommendations: 1 of 3 shipped with the corpus .*; extracted by `builder-x` 2$/m);
  assert.match(card, /^- conversations written by: `builder-x` 2 conversations$/m);
  assert.match(card, /^- Year filter \(`min_year`\): 2015 \(3 document rows\) and 2016 \(1 document row\) \(mixed\); .* left out: 1 /m);
  assert.match(card, /^- Document cut \(`max_tokens`\): 128,000 \(4 document rows\) tokens; 1 document cut/m);
  assert.match(
    card,
    /^- Safety-critical selection: 1 of 3 recommendations flagged \(`safety_critical`\); 0 flags shipped with the corpus, 2 selected by `builder-x` \(Prompt 3\) under the criterion "harm within hours" \(2 recommendations\), 1 unknown \(no shipped flag and no builder\)\.$/m,
  );
  assert.match(
    card,
    /^- Regeneration limit \(`max_attempts`\): 5 \(2 conversation rows\) answers per conversation, .*; 1 of 2 passed after a regeneration/m,
  );
  assert.match(card, /^- failures left out of these files: cpg_conversations 1 \(each a row with its `error`/m);
  assert.match(card, /^\| a \| g\/a\.md \| CC BY 4\.0 \|$/m);
  assert.doesNotMatch(card, /simulated/);
  // A store built before the rows recorded the limit says so, never a default.
  const old = cpgBenchmarkCard({ licences: [], notices: [], failures: [], prompts: [], sqlCommand: 'x' }, [
    table('conversations', [{ attempts: 1 }]),
  ]);
  assert.match(old, /^- Regeneration limit \(`max_attempts`\): not recorded by the exported rows, regenerated/m);
});

test('results card: real and simulated models and judges apart, failures by kind, settings from the rate rows', () => {
  const answer = (model: string, simulated: boolean, o: Row = {}): Row => ({
    model,
    simulated,
    template: 'en/cpgbench-detection.md',
    ...o,
  });
  const written = [
    table('detection_answers', [
      answer('gpt-x', false),
      answer('gpt-x', false, { failure_kind: 'server', error: 'HTTP 503' }),
      answer('simulated-a', true),
    ]),
    table('adherence_answers', [
      answer('gpt-x', false, { template: null }),
      answer('simulated-a', true, { template: null, failure_kind: 'answer' }),
    ]),
    table('judgements', [
      { judge: 'judge-y', judge_simulated: false, task: 'adherence', template: 'en/cpgbench-judge-adherence.md' },
      { judge: 'sim-judge', judge_simulated: true, task: 'adherence', failure_kind: 'judge', error: 'unreadable' },
      { judge: 'judge-y', judge_simulated: false, task: null, error: 'upstream cpg_detection failed' },
    ]),
    table('rates', [
      { resamples: 10000, seed: 42, level: 0.95, incomplete: true, few_guidelines: true },
      { resamples: 2000, seed: 7, level: 0.95, incomplete: false, few_guidelines: true },
    ]),
  ];
  const card = cpgResultsCard(written);
  assert.match(card, /^- produced by: real models: gpt-x; simulated stand-ins: simulated-a$/m);
  assert.match(card, /^- real evaluated models: `gpt-x`$/m);
  assert.match(card, /^- simulated stand-ins \(not LLM results\): `simulated-a`$/m);
  assert.match(card, /^- real judges: `judge-y`$/m);
  assert.match(card, /^- simulated judges: `sim-judge`$/m);
  assert.match(card, /^- detection_answers: 3 answers; failures: server 1$/m);
  assert.match(card, /^- adherence_answers: 2 answers; failures: answer 1$/m);
  assert.match(card, /^- judgements of adherence: 2; failures: judge 1$/m);
  assert.match(card, /^- judgement failure rows without a task: 1 \(error 1\)$/m);
  assert.match(card, /^- rates: 2 rows, 1 incomplete .*, 2 with CIs from fewer than 10 guidelines/m);
  assert.match(card, /^- prompts: `en\/cpgbench-detection\.md`, `en\/cpgbench-judge-adherence\.md` /m);
  assert.match(card, /^- adherence: 2 of 2 answers record no prompt template/m);
  assert.match(
    card,
    /^- Rates: .* at level 95% \(2 rate rows\), resamples 2,000 \(1 rate row\) and 10,000 \(1 rate row\) \(mixed\), seed 7 \(1 rate row\) and 42 \(1 rate row\) \(mixed\)\.$/m,
  );
});

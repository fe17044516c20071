// The whole CPGBench DAG offline on the bundled sample: the stand-ins' known rates come out in
// every group, a rerun recomputes nothing, and a guideline added later computes only its rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addSepsisGuideline, computed, cpgProject } from './testing/cpgbench-project.ts';
import type { Row } from '../../pipeline/dag/define.ts';

const EXPECTED: Record<string, Record<string, number>> = {
  'simulated-cpg-oracle': { content_detection: 1, title_grounding: 1, adherence: 1, average: 1 },
  'simulated-cpg-no-titles': { content_detection: 1, title_grounding: 0, adherence: 1, average: 2 / 3 },
  'simulated-cpg-every-other': { content_detection: 1, title_grounding: 1, adherence: 0.5, average: 2.5 / 3 },
};

test('offline on the bundled sample: construction, both tasks, judging and the stand-ins’ known rates in every group', async () => {
  const p = cpgProject();
  try {
    const first = await p.run();
    assert.equal(first.ok, true, JSON.stringify(first.stages.filter((s) => s.error)));

    const docs = new Map(p.rows('cpg_documents').map((d) => [d.guideline_id, d]));
    assert.equal(docs.size, 7);
    assert.equal(docs.get('ca-2012-low-back-pain')!.excluded_reason, 'published in 2012, before 2015');
    assert.equal(docs.get('au-2021-vitamin-d-position')!.excluded_reason, 'not a bona fide clinical practice guideline (corpus)');
    assert.deepEqual(
      [...docs.values()]
        .filter((d) => d.included)
        .map((d) => d.language)
        .sort(),
      ['de', 'en', 'en', 'en', 'zh'],
    );
    assert.ok([...docs.values()].every((d) => d.error == null && d.cut === false && d.max_tokens === 128000 && d.min_year === 2015));

    const recs = p.rows('cpg_recommendations');
    assert.equal(recs.length, 10);
    assert.ok(
      recs.every((r) => r.source === 'imported' && r.verbatim === true),
      'every shipped recommendation is found in its document',
    );
    assert.equal(p.rows('cpg_safety').filter((s) => s.safety_critical === true).length, 4);
    const convs = p.rows('cpg_conversations');
    assert.ok(convs.every((c) => c.error == null && c.attempts === 1 && c.writer === 'simulated-cpg-writer' && c.marked_turn === 4));
    // Each row records the limit it ran under and that its writer is a stand-in (the export's card states both).
    assert.ok(convs.every((c) => c.max_attempts === 5 && c.writer_simulated === true));
    assert.deepEqual(
      convs.map((c) => c.template).sort(),
      [
        ...Array(6).fill('en/cpgbench-conversation-generation.md'),
        ...Array(2).fill('de/cpgbench-conversation-generation.md'),
        ...Array(2).fill('zh/cpgbench-conversation-generation.md'),
      ].sort(),
    );
    const inputs = p.rows('cpg_task_inputs');
    assert.ok(inputs.every((i) => (i.adherence_messages as Row[]).length === 4 && (i.adherence_messages as Row[]).at(-1)!.role === 'user'));
    assert.ok(inputs.every((i) => !JSON.stringify(i.detection_messages).includes('<recommendation')));

    // 10 items × 3 models for each task; 2 judgements per detection answer, 1 per adherence answer.
    assert.equal(p.rows('cpg_detection').length, 30);
    assert.equal(p.rows('cpg_adherence').length, 30);
    assert.equal(p.rows('cpg_detection_judgements').length, 60);
    assert.equal(p.rows('cpg_adherence_judgements').length, 30);
    assert.ok(
      p.rows('cpg_adherence').every((a) => a.template === null),
      'the adherence task sends no prompt template',
    );

    const rates = p.rows('cpg_rates');
    const groupings = new Set(rates.map((r) => `${r.grouping}/${r.group}`));
    assert.deepEqual([...groupings].sort(), [
      'language/de',
      'language/en',
      'language/zh',
      'overall/all',
      'region/Chinese Mainland',
      'region/Germany',
      'region/United Kingdom',
      'region/United States',
      'region/WHO',
      'safety/safety-critical',
      'specialty/Emergency Medicine',
      'specialty/Family Medicine',
      'specialty/Internal Medicine',
      'specialty/Pediatrics',
      'specialty/Preventive Medicine',
    ]);
    assert.equal(rates.length, 3 * 4 * groupings.size);
    for (const r of rates) {
      const want = EXPECTED[String(r.model)]![String(r.task)]!;
      assert.ok(Math.abs(Number(r.rate) - want) < 1e-12, `${r.model} ${r.task} ${r.grouping}/${r.group}: ${r.rate}`);
      assert.deepEqual([r.answer_failures, r.server_failures, r.unscored, r.missing_cases, r.incomplete], [0, 0, 0, 0, false]);
      assert.equal(r.judge, 'simulated-cpg-judge');
      assert.equal(r.few_guidelines, true);
      // Each guideline holds two recommendations, one even: every guideline resample keeps the rate.
      if (Number(r.guidelines) >= 2)
        assert.ok(Math.abs(Number(r.cluster_ci_low) - want) < 1e-12 && Math.abs(Number(r.cluster_ci_high) - want) < 1e-12);
      else assert.equal(r.cluster_ci_low, null);
    }
    const overall = rates.find((r) => r.model === 'simulated-cpg-every-other' && r.task === 'adherence' && r.grouping === 'overall')!;
    assert.deepEqual([overall.n, overall.correct, overall.guidelines, overall.resamples, overall.level], [10, 5, 5, 10000, 0.95]);
    assert.ok(Number(overall.ci_low) < 0.5 && Number(overall.ci_high) > 0.5);
    const chi = p.rows('cpg_specialty_tests').filter((r) => r.model === 'simulated-cpg-every-other' && r.task === 'adherence');
    assert.deepEqual([chi[0]!.statistic, chi[0]!.df, chi[0]!.specialties], [0, 4, 5], 'half of every specialty: no association');
    assert.equal(p.rows('cpg_agreement').length, 0, 'the sample ships no human labels');

    const again = await p.run();
    assert.equal(again.ok, true);
    assert.deepEqual(
      again.stages.filter((s) => s.status !== 'reused').map((s) => s.stage),
      [],
      'a rerun recomputes nothing',
    );
    assert.equal(
      again.stages.reduce((n, s) => n + s.llmCalls + (s.counters.offline ?? 0), 0),
      0,
      'and calls nothing',
    );
  } finally {
    p.remove();
  }
});

test('a guideline added to the corpus computes only its own rows', async () => {
  const p = cpgProject();
  try {
    assert.equal((await p.run()).ok, true);
    addSepsisGuideline(p.corpus, [
      {
        recommendation: 'Give antibiotics within one hour to adults with suspected septic shock.',
        strength: 'strong',
        evidence_level: 'low',
        context: 'An adult with suspected septic shock.',
        action: 'Give antibiotics within one hour.',
        goal: 'Reduce mortality.',
        safety_critical: true,
      },
      {
        recommendation: 'Measure serum lactate in adults with suspected sepsis.',
        strength: 'weak',
        evidence_level: 'low',
        context: 'An adult with suspected sepsis.',
        action: 'Measure serum lactate.',
        goal: 'Assess severity.',
        safety_critical: false,
      },
    ]);
    const second = await p.run();
    assert.equal(second.ok, true, JSON.stringify(second.stages.filter((s) => s.error)));
    const c = computed(second);
    // Units computed: one document, one extraction unit (2 recommendations), 2 × 3 task units, 2 × 3 judge units each.
    assert.deepEqual(c.guidelines, ['ran', 1]);
    assert.deepEqual(c.cpg_documents, ['ran', 1]);
    assert.deepEqual(c.cpg_recommendations, ['ran', 1]);
    assert.deepEqual(c.cpg_safety, ['ran', 2]);
    assert.deepEqual(c.cpg_conversations, ['ran', 2]);
    assert.deepEqual(c.cpg_task_inputs, ['ran', 2]);
    assert.deepEqual(c.cpg_detection, ['ran', 6]);
    assert.deepEqual(c.cpg_adherence, ['ran', 6]);
    assert.deepEqual(c.cpg_detection_judgements, ['ran', 6]);
    assert.equal(p.rows('cpg_detection_judgements').length, 72, 'two judgements per unit');
    assert.deepEqual(c.cpg_adherence_judgements, ['ran', 6]);
    const overall = p
      .rows('cpg_rates')
      .find((r) => r.model === 'simulated-cpg-every-other' && r.task === 'adherence' && r.grouping === 'overall')!;
    assert.deepEqual([overall.n, overall.correct], [12, 6]);
    assert.ok(readFileSync(join(p.corpus, 'guidelines.csv'), 'utf8').includes('us-2022-sepsis'));
  } finally {
    p.remove();
  }
});

test('human labels added to the corpus later: κ of the judge against them, in the agreement table', async () => {
  const p = cpgProject();
  try {
    assert.equal((await p.run()).ok, true);
    const ids = p
      .rows('cpg_task_inputs')
      .map((r) => String(r.recommendation_id))
      .sort();
    // The judge scores every-other's adherence 1 on even-numbered recommendations; the human agrees on 8 of 10.
    const judged = (id: string) => (Number(id.split('#')[1]) % 2 === 0 ? 1 : 0);
    const human = ids.map((id, i) => (i === 0 || i === 1 ? 1 - judged(id) : judged(id)));
    const lines = [
      'task,recommendation_id,model,annotator,human',
      ...ids.map((id, i) => `adherence,${id},simulated-cpg-every-other,clinician,${human[i]}`),
    ];
    lines.push(`title_grounding,${ids[0]},simulated-cpg-no-titles,clinician,0.5`);
    writeFileSync(join(p.corpus, 'human-labels.csv'), lines.join('\n') + '\n');
    const second = await p.run();
    assert.equal(second.ok, true);
    assert.deepEqual(computed(second).cpg_agreement, ['ran', 2]);
    const rows = p.rows('cpg_agreement');
    const adherence = rows.find((r) => r.task === 'adherence')!;
    assert.deepEqual(
      [adherence.kind, adherence.first, adherence.second, adherence.n, adherence.half],
      ['judge-human', 'simulated-cpg-judge', 'clinician', 10, 0],
    );
    // Confusion [[4, 1], [1, 4]]: p_o 0.8, p_e 0.5, κ 0.6.
    assert.ok(Math.abs(Number(adherence.kappa) - 0.6) < 1e-12);
    const title = rows.find((r) => r.task === 'title_grounding')!;
    assert.deepEqual([title.n, title.kappa, title.half, title.half_judged_1], [0, null, 1, 0]);
    assert.match(
      readFileSync(join(p.reports, 'tables', 'cpgbench_judge_agreement.md'), 'utf8'),
      /\| judge-human \| Adherence \| simulated-cpg-judge \| clinician \| 10 \| 0\.60 \|/,
    );
  } finally {
    p.remove();
  }
});

// The scale benchmark's corpus keeps the paper's proportions: a change to the generator that
// shrinks the test set, skews the lengths or the languages, or writes cases QC would leave out
// fails here, not 25 minutes into a benchmark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chainShape,
  generateScaleCorpus,
  leafCounts,
  pathLengths,
  planGuidelines,
  rng,
  SHAPES,
  TABLE4,
  writeScaleCorpus,
  PAPER,
} from './scale-corpus.ts';
import { lengthStatistics } from '../stages/construct/length-stats.ts';
import { enumeratePaths } from '../stages/construct/paths.ts';
import { writeVignette } from '../stages/agents/writers/vignette-writer.ts';
import { writeNarrative } from '../stages/agents/writers/narrative-writer.ts';
import { checkInstance } from '../stages/construct/qc-checks.ts';
import { treeNodeRows } from '../stages/construct/tree-nodes.ts';
import { validateTree } from '../stages/construct/tree-validate.ts';
import type { ReasoningTree } from '../stages/construct/types.ts';

type Generated = ReturnType<typeof generateScaleCorpus>;
const stats = (lengths: number[]) => Object.fromEntries(lengthStatistics(lengths).map((s) => [s.statistic, s.value]));
const count = (gs: Generated, pick: (g: Generated[number]) => boolean) => gs.filter(pick).reduce((a, g) => a + g.lengths.length, 0);

// Generation only (no files, no pipeline): about a second for the whole corpus.
const paper = generateScaleCorpus(1);

test("at fraction 1 the corpus has the paper's counts: 2,274 guidelines, 440 test (230 en, 210 zh), 7,458 test CDPs of 42,353", () => {
  assert.equal(paper.length, 2274);
  assert.equal(paper.filter((g) => g.split === 'test' && g.language === 'en').length, 230);
  assert.equal(paper.filter((g) => g.split === 'test' && g.language === 'zh').length, 210);
  assert.equal(paper.filter((g) => g.language === 'zh').length, PAPER.zh);
  assert.equal(
    count(paper, (g) => g.split === 'test'),
    7458,
  );
  assert.equal(
    count(paper, () => true),
    42353,
  );
  // Both languages carry a share of the test CDPs near their share of test guidelines (230 : 210).
  const en = count(paper, (g) => g.split === 'test' && g.language === 'en') / 7458;
  assert.ok(en > 0.45 && en < 0.59, `English share of test CDPs ${en}`);
});

test('at fraction 1 path lengths follow Table 4 in each split: quantiles and max exact, mean and SD within 0.1', () => {
  for (const split of ['test', 'non-test', 'full'] as const) {
    const s = stats(paper.filter((g) => split === 'full' || g.split === split).flatMap((g) => g.lengths));
    const t = TABLE4[split];
    const quantiles = { Min: s.Min, P5: s.P5, P25: s.P25, Median: s.Median, P75: s.P75, P95: s.P95, Max: s.Max };
    assert.deepEqual(quantiles, { Min: t.min, P5: t.p5, P25: t.p25, Median: t.median, P75: t.p75, P95: t.p95, Max: t.max }, split);
    assert.ok(Math.abs(s.Mean! - t.mean) <= 0.1, `${split} mean ${s.Mean} vs ${t.mean}`);
    assert.ok(Math.abs(s['Std. Dev.']! - t.sd) <= 0.1, `${split} SD ${s['Std. Dev.']} vs ${t.sd}`);
  }
});

test("a small fraction keeps the paper's proportions: test share of guidelines and CDPs, languages, lengths", () => {
  const f = 0.1;
  const gs = generateScaleCorpus(f);
  assert.equal(gs.length, 227);
  assert.equal(gs.filter((g) => g.split === 'test' && g.language === 'en').length, 23);
  assert.equal(gs.filter((g) => g.split === 'test' && g.language === 'zh').length, 21);
  assert.equal(gs.filter((g) => g.language === 'zh').length, Math.round((227 * 1100) / 2274));
  assert.equal(
    count(gs, (g) => g.split === 'test'),
    Math.round(7458 * f),
  );
  assert.equal(
    count(gs, (g) => g.split !== 'test'),
    Math.round((42353 - 7458) * f),
  );
  // A sample of 44 test guidelines: the median and quartiles hold, the mean within 0.5.
  for (const split of ['test', 'non-test'] as const) {
    const s = stats(gs.filter((g) => g.split === split).flatMap((g) => g.lengths));
    assert.deepEqual([s.P25, s.Median, s.P75], [TABLE4[split].p25, TABLE4[split].median, TABLE4[split].p75], split);
    assert.ok(Math.abs(s.Mean! - TABLE4[split].mean) <= 0.5, `${split} mean ${s.Mean}`);
    assert.ok(s.Max! <= TABLE4[split].max, `${split} max ${s.Max}`);
  }
});

test('every tree is valid with its evidence verbatim, and every test CDP passes QC with the offline writers', () => {
  // What test_cases keeps: the test CDPs QC does not flag. Each must pass, or the benchmark
  // silently evaluates fewer cases than the paper (as it once did: 4,402 of 7,458).
  let checked = 0;
  for (const g of generateScaleCorpus(0.05)) {
    const tree = g.tree as ReasoningTree;
    const v = validateTree(tree, g.markdown);
    assert.deepEqual([v.valid, v.problems, v.evidenceVerbatimRate], [true, [], 1], g.id);
    if (g.split !== 'test') continue;
    const nodes = treeNodeRows(g.id, tree);
    const { cdps } = enumeratePaths(tree, { guideline_id: g.id, language: g.language, split: g.split });
    assert.deepEqual(
      cdps.map((c) => c.length),
      g.lengths,
      g.id,
    );
    for (const cdp of cdps) {
      const vignette = writeVignette(cdp).vignette;
      const report = checkInstance({ cdp, vignette, narrative: writeNarrative(cdp).steps, treeNodes: nodes });
      assert.deepEqual(report.problems, [], `${cdp.cdp_id}: ${vignette}`);
      checked++;
    }
  }
  assert.equal(checked, Math.round(7458 * 0.05));
});

test("each English decision of a guideline asks about its own finding: QC's content-word match cannot take one for another", () => {
  const g = paper.find((x) => x.language === 'en' && x.lengths.length >= 40)!;
  const conditions: string[] = [];
  const walk = (n: { description?: string; yes?: unknown; no?: unknown }) => {
    if (n.description) conditions.push(n.description.replace(/^Does the patient have (.*)\?$/, '$1'));
    for (const c of [n.yes, n.no]) if (c) walk(c as typeof n);
  };
  walk(g.tree.decision_tree);
  assert.equal(conditions.length, g.lengths.length - 1);
  assert.equal(new Set(conditions).size, conditions.length);
  // No word of one finding shares its first five letters with a different word of another.
  const words = [...new Set(conditions.flatMap((c) => c.split(' ')))];
  assert.equal(new Set(words.map((w) => w.slice(0, 5))).size, words.length);
});

test('leafCounts: the counts sum to the total exactly, each within 2 … 256', () => {
  const counts = leafCounts(440, 7458, SHAPES.test, rng(3));
  assert.equal(counts.length, 440);
  assert.equal(
    counts.reduce((a, b) => a + b, 0),
    7458,
  );
  assert.ok(counts.every((c) => c >= 2 && c <= 256));
  assert.throws(() => leafCounts(10, 19, SHAPES.test, rng(3)), /10 trees cannot have 19 leaves/);
});

test('chainShape(k) has paths of length 1 … k and one more of length k', () => {
  assert.deepEqual(pathLengths(chainShape(4)), [1, 2, 3, 4, 4]);
  assert.deepEqual(pathLengths(chainShape(0)), [0]);
});

test('planGuidelines: Chinese first, each language its first ones test; refuses a fraction outside (0, 1]', () => {
  const plan = planGuidelines(0.01);
  assert.deepEqual(
    plan.slice(0, 3).map((p) => `${p.id} ${p.split}`),
    ['zh-00000 test', 'zh-00001 test', 'zh-00002 non-test'],
  );
  assert.equal(plan.length, 23);
  assert.equal(plan.filter((p) => p.language === 'zh').length, 11);
  assert.equal(plan.find((p) => p.language === 'en')!.split, 'test');
  assert.throws(() => planGuidelines(0), /fraction must be in \(0, 1\], got 0/);
  assert.throws(() => planGuidelines(1.5), /got 1.5/);
});

test('writeScaleCorpus writes one Markdown file and one tree per guideline and a guidelines.csv with the splits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdp-scale-test-'));
  const c = writeScaleCorpus(dir, 0.01);
  assert.equal(readdirSync(join(dir, 'guidelines')).length, c.guidelines);
  assert.equal(readdirSync(join(dir, 'trees')).length, c.guidelines);
  const csv = readFileSync(join(dir, 'guidelines.csv'), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'guideline_id,language,title,split,year,source');
  assert.equal(csv.filter((l) => l.split(',')[3] === 'test').length, c.test);
  assert.equal(c.lengths.test.length, Math.round(7458 * 0.01));
  assert.equal(c.cdps, c.lengths.test.length + c.lengths['non-test'].length);
  assert.equal(c.byLanguage.en.test.cdps + c.byLanguage.zh.test.cdps, c.lengths.test.length);
});

/**
 * Stage `cdps`: every root-to-leaf path of every valid tree, with the guideline's split and the
 * reference questioning pathway for the multi-turn setting. Each guideline's split depends on
 * its id and the seed only (split.ts), so adding a guideline leaves every other row as it was.
 * It stays a table stage because the checks span all guidelines (unique ids, testIds known).
 *
 * Optional input `split_pins`: a files source of pin CSVs (`guideline_id,split`, split-pins.ts)
 * that fix single guidelines' splits; the file contents enter the stage's key through their
 * sha256, so editing a pin file reruns the split (a path param would not). Wire it in
 * dag.config.ts with a source `split_pins: files('data/splits.csv')` and the input
 * `split_pins: 'split_pins'` (a source matching no file fails the run, so it is not wired by
 * default). Pins of guidelines that are not in the run are logged, not errors.
 *
 * Every row records how its guideline's split was decided (`split_by`: 'fraction', 'pin' or
 * 'test-ids') and the rule's settings (`test_fraction`, `split_seed`; null under testIds, which
 * uses neither), which is where the reports and the benchmark export read them. A changed
 * fraction or seed therefore changes every row, and everything downstream is recomputed (the
 * call cache still answers every prompt that did not change).
 */
import { readFileSync } from 'node:fs';
import { tableStage, z } from '../../pipeline/stage.ts';
import { enumeratePaths } from './paths.ts';
import { splitGuidelines, unusedPins, type Split } from './split.ts';
import { parseSplitPins } from './split-pins.ts';
import { referenceQuestions } from './reference-questions.ts';
import type { ReasoningTree } from './types.ts';

export interface CdpsParams {
  /** Probability that a guideline is held out as test (each language's expected share); the paper's is 440/2,274. */
  testFraction: number;
  seed: number;
  /** Guideline ids to put in the test split instead of the rule (all others non-test); not with split_pins. */
  testIds?: string[];
}

export default tableStage<CdpsParams>({
  inputs: { trees: 'whole', guidelines: 'whole', split_pins: 'optional whole' },
  params: {
    testFraction: z
      .number()
      .min(0)
      .max(1)
      .default(440 / 2274),
    seed: z.int().default(42),
    testIds: z.array(z.string()).optional(),
  },
  columns: {
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    focus: 'VARCHAR',
    split: 'VARCHAR',
    length: 'INTEGER',
    steps: 'STRUCT(node_index INTEGER, condition VARCHAR, decision_outcome VARCHAR, evidence VARCHAR[])[]',
    conclusion: 'VARCHAR',
    conclusion_evidence: 'VARCHAR[]',
    leaf_index: 'INTEGER',
    reference_questions: 'VARCHAR[]',
    split_by: 'VARCHAR',
    test_fraction: 'DOUBLE',
    split_seed: 'INTEGER',
  },
  run({ trees, guidelines, split_pins }, ctx) {
    const usable = guidelines
      .filter((g) => g.error == null)
      .map((g) => ({ guideline_id: g.guideline_id as string, language: g.language as string }));
    const pinFiles = split_pins.map((f) => ({ name: String(f.path), text: readFileSync(ctx.file(String(f.path)), 'utf8') }));
    // Splits the corpus pins (its guidelines.csv), then those of pin files, which win.
    const pins = new Map(
      guidelines.filter((g) => g.error == null && g.pinned_split != null).map((g) => [g.guideline_id as string, g.pinned_split as Split]),
    );
    for (const [id, s] of parseSplitPins(pinFiles)) pins.set(id, s);
    const unused = unusedPins(usable, pins);
    if (unused.length > 0) {
      const shown = unused.slice(0, 5).join(', ') + (unused.length > 5 ? ', …' : '');
      ctx.log(`split pins: ${unused.length} pinned guideline(s) not in this run, ignored: ${shown}`);
    }
    const { testFraction, seed, testIds } = ctx.params;
    const split = splitGuidelines(usable, { testFraction, seed, testIds, pins });
    const language = new Map(usable.map((g) => [g.guideline_id as string, g.language as string]));
    const rule = (id: string) =>
      testIds !== undefined
        ? { split_by: 'test-ids', test_fraction: null, split_seed: null }
        : { split_by: pins.has(id) ? 'pin' : 'fraction', test_fraction: testFraction, split_seed: seed };
    const out: Record<string, unknown>[] = [];
    for (const t of trees) {
      if (!t.valid) continue;
      const id = t.guideline_id as string;
      const { cdps, warnings } = enumeratePaths(JSON.parse(t.tree_json as string) as ReasoningTree, {
        guideline_id: id,
        language: language.get(id) ?? 'en',
        split: split.get(id) ?? 'non-test',
      });
      for (const w of warnings) ctx.log(`${id}: ${w}`);
      for (const c of cdps) out.push({ ...c, reference_questions: referenceQuestions(c), ...rule(id) });
    }
    return out;
  },
});

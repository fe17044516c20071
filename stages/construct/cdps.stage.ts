/**
 * Stage `cdps`: every root-to-leaf path of every valid tree, with the guideline's split and the
 * reference questioning pathway for the multi-turn setting. A table stage because the split is
 * drawn over all guidelines at once (stratified by language, seeded).
 */
import { tableStage } from '../../pipeline/stage.ts';
import { enumeratePaths } from './paths.ts';
import { splitGuidelines } from './split.ts';
import { referenceQuestions } from './reference-questions.ts';
import type { ReasoningTree } from './types.ts';

export interface CdpsParams {
  /** Share of guidelines (per language) held out as the test split; the paper's is 440/2,274. */
  testFraction: number;
  seed: number;
  /** Guideline ids to put in the test split instead of drawing them. */
  testIds?: string[];
}

export default tableStage<CdpsParams>({
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
  },
  run({ trees, guidelines }, ctx) {
    const usable = guidelines.filter((g) => g.error == null);
    const split = splitGuidelines(
      usable.map((g) => ({ guideline_id: g.guideline_id as string, language: g.language as string })),
      { testFraction: ctx.params.testFraction, seed: ctx.params.seed, testIds: ctx.params.testIds },
    );
    const language = new Map(usable.map((g) => [g.guideline_id as string, g.language as string]));
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
      for (const c of cdps) out.push({ ...c, reference_questions: referenceQuestions(c) });
    }
    return out;
  },
});

/**
 * Stage `cpg_specialty_tests`: the χ² test of independence across specialties (§2.4) for every
 * model × judge × task (specialty-test.ts), with df, p, n and the smallest expected count.
 */
import { tableStage } from '../../../pipeline/stage.ts';
import { fromGuidelineOutcomes } from './guideline-outcomes.ts';
import { specialtyTests } from './specialty-test.ts';

export default tableStage({
  // The items and outcomes guideline by guideline (cpg_outcomes): a few rows, not every judgement.
  inputs: { cpg_outcomes: 'whole' },
  params: {},
  columns: {
    model: 'VARCHAR',
    judge: 'VARCHAR',
    simulated: 'BOOLEAN',
    task: 'VARCHAR',
    specialties: 'INTEGER',
    n: 'INTEGER',
    statistic: 'DOUBLE',
    df: 'INTEGER',
    p: 'DOUBLE',
    min_expected: 'DOUBLE',
    reason: 'VARCHAR',
  },
  run(inputs) {
    const { items, cells } = fromGuidelineOutcomes(inputs.cpg_outcomes!);
    return specialtyTests(items, cells).map((r) => ({ ...r }));
  },
});

/**
 * Stage `cpg_specialty_tests`: the χ² test of independence across specialties (§2.4) for every
 * model × judge × task (specialty-test.ts), with df, p, n and the smallest expected count.
 */
import { tableStage } from '../../../pipeline/stage.ts';
import { OUTCOME_PARAMS, cellsOf, itemsOf, type OutcomeParams } from './outcomes.ts';
import { specialtyTests } from './specialty-test.ts';
import { RESULT_INPUTS, RESULT_READS } from './cpg-rates.stage.ts';

export default tableStage<OutcomeParams>({
  inputs: RESULT_INPUTS,
  params: OUTCOME_PARAMS,
  reads: RESULT_READS,
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
  run(inputs, ctx) {
    return specialtyTests(itemsOf(inputs), cellsOf(inputs, ctx.params)).map((r) => ({ ...r }));
  },
});

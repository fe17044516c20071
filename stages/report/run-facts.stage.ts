/**
 * Stage `run_facts`: who produced the run, one row per fact (run-facts.ts): the corpus, the
 * benchmark's builders, the models in each role and the case counts, read from the rows of the
 * stages that produced them (only the columns it needs). Param `corpus` (required): the corpus
 * directory and whether it is the bundled sample, as the wiring knows them. The report stages and
 * `cdp export` say who produced the numbers from these rows.
 */
import { tableStage, z } from '../../pipeline/stage.ts';
import { collectFacts, FACT_COLUMNS, FACT_READS, type CorpusFact } from './run-facts.ts';

export default tableStage<{ corpus: CorpusFact }>({
  inputs: Object.fromEntries(Object.keys(FACT_READS).map((name) => [name, 'whole' as const])),
  params: { corpus: z.object({ dir: z.string().min(1), bundled: z.boolean() }) },
  reads: FACT_READS,
  columns: FACT_COLUMNS,
  run(inputs, ctx) {
    const c = ctx.params.corpus;
    if (!c || typeof c.dir !== 'string' || typeof c.bundled !== 'boolean')
      throw new RangeError(
        `run_facts: param corpus must be { dir: string, bundled: boolean }, got ${JSON.stringify(c)}; the wiring passes it`,
      );
    return collectFacts(inputs, c);
  },
});

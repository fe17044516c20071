/**
 * Stage `run_facts`: who produced the run, one row per fact (run-facts.ts): the corpus, the
 * benchmark's builders, the models in each role and the case counts, read from the rows of the
 * stages that produced them (only the columns it needs). Param `corpus` (required): the corpus
 * directory and whether it is the bundled sample, as the wiring knows them; param `models`: the
 * roster's models (name and simulated flag) for the rows that carry no flag of their own (the
 * writers', the inspector's, the patient's). The report stages and
 * `cdp export` say who produced the numbers from these rows.
 */
import { tableStage, z } from '../../pipeline/stage.ts';
import { collectFacts, FACT_COLUMNS, FACT_READS, type CorpusFact, type KnownModel } from './run-facts.ts';

export default tableStage<{ corpus: CorpusFact; models: KnownModel[] }>({
  inputs: Object.fromEntries(Object.keys(FACT_READS).map((name) => [name, 'whole' as const])),
  params: {
    corpus: z.object({ dir: z.string().min(1), bundled: z.boolean() }),
    models: z.array(z.object({ name: z.string().min(1), simulated: z.boolean() })).default([]),
  },
  reads: FACT_READS,
  columns: FACT_COLUMNS,
  run(inputs, ctx) {
    return collectFacts(inputs, ctx.params.corpus, ctx.params.models);
  },
});

/**
 * Test-only stage: one unit per (row × crossed model), each one chat call to its model, as the
 * task stages cross the evaluated models (stage-width.test.ts, bench/llm-width.bench.ts).
 */
import { rowStage, z } from '../../../pipeline/stage.ts';

export default rowStage<{ models: { name: string }[] }>({
  inputs: { rows: 'drives' },
  params: { models: z.array(z.object({ name: z.string().min(1) })).min(1) },
  columns: { id: 'INTEGER', model: 'VARCHAR', answer: 'VARCHAR' },
  async run(unit, ctx) {
    const model = (unit.cross as { name: string }).name;
    const r = await ctx.llm.chat({
      model,
      role: 'evaluated',
      sample: String(unit.row.id),
      messages: [{ role: 'user', content: String(unit.row.prompt) }],
    });
    return r.ok ? { id: unit.row.id, model, answer: r.text } : { id: unit.row.id, model, error: r.error };
  },
});

/** Benchmark stage: one LLM call per row, as a judging stage makes them (bench/llm-client.bench.ts). */
import { rowStage, z } from '../../pipeline/stage.ts';

export default rowStage<{ model: string }>({
  inputs: { rows: 'drives' },
  params: { model: z.string().default('bench') },
  columns: { id: 'INTEGER', answer: 'VARCHAR' },
  async run(unit, ctx) {
    const r = await ctx.llm.chat({
      model: ctx.params.model,
      role: 'judge',
      messages: [
        { role: 'system', content: 'You are a judge. Score each predicted step from 1 to 5.' },
        { role: 'user', content: String(unit.row.prompt) },
      ],
    });
    return r.ok ? { id: unit.row.id, answer: r.text } : { id: unit.row.id, error: r.error };
  },
});

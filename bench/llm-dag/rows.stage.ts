/** Benchmark stage: `n` rows, one per judge-sized prompt for the `ask` stage (bench/llm-client.bench.ts). */
import { tableStage, z } from '../../pipeline/stage.ts';

export default tableStage<{ n: number; tag: string }>({
  params: { n: z.int().min(1).default(1000), tag: z.string().default('') },
  columns: { id: 'INTEGER', prompt: 'VARCHAR' },
  run(_inputs, ctx) {
    const filler = 'The predicted step matches the reference step on the key decision point. '.repeat(26);
    return Array.from({ length: ctx.params.n }, (_, id) => ({ id, prompt: `${ctx.params.tag} case ${id}. ${filler}` }));
  },
});

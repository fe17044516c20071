/** Test-only stage: `n` rows of short prompts, driving a stage that asks models about each (stage-width.test.ts). */
import { tableStage, z } from '../../../pipeline/stage.ts';

export default tableStage<{ n: number }>({
  inputs: {},
  params: { n: z.int().min(1).default(10) },
  columns: { id: 'INTEGER', prompt: 'VARCHAR' },
  run(_inputs, ctx) {
    return Array.from({ length: ctx.params.n }, (_, id) => ({ id, prompt: `Which step comes first for case ${id}?` }));
  },
});

/** Stage `vignettes`: one case vignette per CDP, from Prompt 2 through the vignette writer model. */
import { required, rowStage, stripReasoning } from '../../pipeline/stage.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { conditionPathInput } from './prompt-inputs.ts';

export default rowStage<{ writer: string }>({
  params: { writer: required<string>() },
  columns: { cdp_id: 'VARCHAR', vignette: 'VARCHAR', generator: 'VARCHAR', template: 'VARCHAR' },
  async run({ row }, ctx) {
    const llm = ctx.llm;
    const t = loadTemplate('case-vignette-synthesis', row.language as string);
    const vars = { Primary_Clinical_Focus: row.focus as string, Condition_Path: conditionPathInput(row as never) };
    const r = await llm.chat({ model: ctx.params.writer, messages: [promptMessage(llm, t, vars)] });
    const base = { cdp_id: row.cdp_id, generator: ctx.params.writer, template: t.identity };
    if (!r.ok) return { ...base, error: r.error };
    const vignette = stripReasoning(r.text);
    return vignette ? { ...base, vignette } : { ...base, error: 'the writer answered with an empty vignette' };
  },
});

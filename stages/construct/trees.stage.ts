/**
 * Stage `trees`: one reasoning tree per guideline, from Prompt 1 through the builder model.
 * An answer that does not parse or validate is re-asked with its problems listed, up to
 * `maxAttempts`; then the guideline's row records the failure. Evidence quotes that are not
 * verbatim in the Markdown lower `evidence_verbatim_rate` but do not invalidate a tree.
 */
import { askStructured, extractJson, required, rowStage } from '../../pipeline/stage.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { checkTreeAnswer, type TreeCheck } from './tree-check.ts';
import { isEvidenceNotFound } from './tree-validate.ts';

export interface TreesParams {
  /** Roster name of the builder model. */
  builder: string;
  maxAttempts: number;
}

export default rowStage<TreesParams>({
  params: { builder: required<string>(), maxAttempts: 3 },
  columns: {
    guideline_id: 'VARCHAR',
    builder: 'VARCHAR',
    primary_clinical_focus: 'VARCHAR',
    tree_json: 'VARCHAR',
    valid: 'BOOLEAN',
    problems: 'VARCHAR[]',
    evidence_verbatim_rate: 'DOUBLE',
    attempts: 'INTEGER',
    template: 'VARCHAR',
  },
  async run({ row }, ctx) {
    const llm = ctx.llm;
    const markdown = row.markdown as string;
    const t = loadTemplate('reasoning-tree-extraction', row.language as string);
    let last: TreeCheck | null = null;
    const answer = await askStructured(
      llm,
      { model: ctx.params.builder, messages: [promptMessage(llm, t, { Guideline: markdown }, ['Guideline'])] },
      (text, finishReason) => {
        const json = extractJson(text, { finishReason });
        if (!json.ok) return { ok: false, problems: [json.problem] };
        last = checkTreeAnswer(json.value, markdown, json.format);
        const fatal = last.problems.filter((p) => !isEvidenceNotFound(p));
        return last.valid ? { ok: true, value: last, format: last.format } : { ok: false, problems: fatal };
      },
      { maxAttempts: ctx.params.maxAttempts },
    );
    const base = { guideline_id: row.guideline_id, builder: ctx.params.builder, template: t.identity };
    const check: TreeCheck | null = answer.ok ? answer.value : last;
    if (!check?.tree) return { ...base, valid: false, attempts: answer.attempts, problems: answer.ok ? [] : answer.problems, error: answer.ok ? null : answer.error };
    const rate = check.evidenceVerbatimRate;
    return {
      ...base,
      primary_clinical_focus: check.tree.primary_clinical_focus,
      tree_json: JSON.stringify(check.tree),
      valid: check.valid,
      problems: check.problems,
      evidence_verbatim_rate: Number.isFinite(rate) ? rate : null,
      attempts: answer.attempts,
      error: answer.ok ? null : `invalid tree after ${answer.attempts} attempts: ${answer.ok ? '' : answer.error}`,
    };
  },
});

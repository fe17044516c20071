/**
 * Stage `trees`: one reasoning tree per guideline. A tree the corpus brings (DIR/trees/<id>.json,
 * joined from `corpus_trees`) is imported: checked exactly as a built one and recorded with
 * builder `imported`. Otherwise Prompt 1 goes to the builder model. An answer that does not parse or validate is re-asked with its problems listed, up to
 * `maxAttempts`; then the guideline's row records the failure. Evidence quotes that are not
 * verbatim in the Markdown lower `evidence_verbatim_rate` but do not invalidate a tree.
 */
import { readFile } from 'node:fs/promises';
import { askStructured, extractJson, rowStage, z } from '../../pipeline/stage.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { promptMessage } from '../prompts/prompt-message.ts';
import { checkTreeAnswer, type TreeCheck } from './tree-check.ts';
import { isEvidenceNotFound } from './tree-validate.ts';
import { modelRefOf, modelRefSchema, type ModelRef } from '../roster/model-ref.ts';

export const IMPORTED_BUILDER = 'imported';

export interface TreesParams {
  /** The builder model (the wiring's roster value); null when none is configured (every tree must be imported). */
  builder: ModelRef | null;
  maxAttempts: number;
}

export default rowStage<TreesParams>({
  // A corpus without trees of its own (or a DAG without corpus_trees) has every tree built.
  inputs: { guidelines: 'drives', corpus_trees: 'optional joined' },
  params: { builder: modelRefSchema.nullable(), maxAttempts: z.int().min(1).max(10).default(3) },
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
  async run({ row, joined }, ctx) {
    const markdown = row.markdown as string;
    const t = loadTemplate('reasoning-tree-extraction', row.language as string);
    const own = joined.corpus_trees.find((r) => r.error == null);
    if (own) return importTree(row.guideline_id as string, String(own.path), markdown, t.identity, ctx.file);
    if (!ctx.params.builder) {
      return {
        guideline_id: row.guideline_id,
        builder: null,
        template: t.identity,
        valid: false,
        attempts: 0,
        problems: [],
        error: `no tree for '${row.guideline_id}': the corpus has no trees/${row.guideline_id}.json and no builder model is configured; add the tree or give a model the builder role`,
      };
    }
    const builder = modelRefOf(ctx.params.builder, "stage trees: param 'builder'").name;
    const llm = ctx.llm;
    let last: TreeCheck | null = null;
    const answer = await askStructured(
      llm,
      { model: builder, role: 'builder', messages: [promptMessage(llm, t, { Guideline: markdown }, ['Guideline'])] },
      (text, finishReason) => {
        const json = extractJson(text, { finishReason });
        if (!json.ok) return { ok: false, problems: [json.problem] };
        last = checkTreeAnswer(json.value, markdown, json.format);
        const fatal = last.problems.filter((p) => !isEvidenceNotFound(p));
        return last.valid ? { ok: true, value: last, format: last.format } : { ok: false, problems: fatal };
      },
      { maxAttempts: ctx.params.maxAttempts },
    );
    const base = { guideline_id: row.guideline_id, builder, template: t.identity };
    const check: TreeCheck | null = answer.ok ? answer.value : last;
    if (!check?.tree)
      return {
        ...base,
        valid: false,
        attempts: answer.attempts,
        problems: answer.ok ? [] : answer.problems,
        error: answer.ok ? null : answer.error,
      };
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

/** A corpus tree, checked as a built answer is: a file that is not JSON or not a valid tree is a failure naming it. */
async function importTree(guidelineId: string, path: string, markdown: string, template: string, file: (path: string) => string) {
  const base = { guideline_id: guidelineId, builder: IMPORTED_BUILDER, template, attempts: 0 };
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file(path), 'utf8'));
  } catch (err) {
    return {
      ...base,
      valid: false,
      problems: [],
      error: `${path}: not a readable JSON tree (${(err as Error).message}); fix or remove the file`,
    };
  }
  const check = checkTreeAnswer(raw, markdown);
  const fatal = check.problems.filter((p) => !isEvidenceNotFound(p));
  const rate = check.evidenceVerbatimRate;
  return {
    ...base,
    primary_clinical_focus: check.tree?.primary_clinical_focus ?? null,
    tree_json: check.tree ? JSON.stringify(check.tree) : null,
    valid: check.valid,
    problems: check.problems,
    evidence_verbatim_rate: Number.isFinite(rate) ? rate : null,
    error: check.valid ? null : `${path}: not a valid tree in Prompt 1's format: ${fatal.join('; ')}`,
  };
}

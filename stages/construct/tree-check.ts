/**
 * Parse and validate in one call: what the tree-extraction stage stores per guideline
 * (a row of `trees`). A tree is valid only if it parsed without problems and validated
 * without problems other than `evidence not found:` ones.
 */
import type { ReasoningTree } from './types.ts';
import { parseTree } from './tree-parse.ts';
import { validateTree } from './tree-validate.ts';
import type { TreeValidation } from './tree-validate.ts';
import { type AnswerFormat, formatOf, variantsOf } from '../../pipeline/stage.ts';

export interface TreeCheck extends TreeValidation {
  /** Null when the answer held no readable decision tree. */
  tree: ReasoningTree | null;
  /** How the answer departed from Prompt 1's JSON: the extraction's variants and parseTree's. */
  format: AnswerFormat;
}

/** `extractionFormat` is extractJson's format for the answer text, when the JSON came from one. */
export function checkTreeAnswer(raw: unknown, markdown: string, extractionFormat: AnswerFormat = 'strict'): TreeCheck {
  const parsed = parseTree(raw);
  const format = formatOf([...variantsOf(extractionFormat), ...variantsOf(parsed.format)]);
  if (parsed.tree === null) {
    return { tree: null, valid: false, problems: parsed.problems, evidenceVerbatimRate: Number.NaN, evidenceChecked: 0, format };
  }
  const v = validateTree(parsed.tree, markdown);
  return {
    tree: parsed.tree,
    valid: parsed.problems.length === 0 && v.valid,
    problems: [...parsed.problems, ...v.problems],
    evidenceVerbatimRate: v.evidenceVerbatimRate,
    evidenceChecked: v.evidenceChecked,
    format,
  };
}

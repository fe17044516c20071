/**
 * Whether a reasoning tree is what Prompt 1 asked for, and how much of its evidence is
 * verbatim guideline text.
 *
 * Structural and content problems make a tree invalid: a decision node without both a yes
 * and a no child (one branch, or none), a leaf without a conclusion, a leaf with children, a decision node that also
 * carries a conclusion, a missing, non-integer or repeated index, a focus outside diagnosis /
 * classification / screening / management, an empty description, conclusion or quote, a node
 * with no evidence quote (Prompt 1: "for each node, identify and quote"), and a mapping key
 * that names no node.
 *
 * Quotes that cannot be found in the guideline are recorded with the prefix
 * `evidence not found:` but do NOT make the tree invalid: the paper reports the verbatim rate
 * as a property of extraction rather than a reason to drop a tree, and near-verbatim quotes
 * (a reworded clause, an OCR typo) still point at the right passage. Filter on the rate if a
 * stricter corpus is wanted.
 *
 * The verbatim rate is matched quotes / checked quotes over every quote in the mapping
 * (including quotes under keys that name no node). An empty quote counts as checked and not
 * matched, and is reported as empty rather than as not found. With no quotes at all the rate
 * is NaN (undefined), and the tree is invalid anyway for lacking evidence.
 */
import { FOCI } from './types.ts';
import type { ReasoningTree } from './types.ts';
import { createEvidenceMatcher } from './evidence.ts';
import { isLeafNode, nodeLabel, preorder } from './tree-walk.ts';

export const EVIDENCE_NOT_FOUND = 'evidence not found:';

export interface TreeValidation {
  valid: boolean;
  problems: string[];
  evidenceVerbatimRate: number;
  evidenceChecked: number;
}

/** True for problems that are recorded but do not make a tree invalid. */
export function isEvidenceNotFound(problem: string): boolean {
  return problem.startsWith(EVIDENCE_NOT_FOUND);
}

const blank = (s: string | undefined): boolean => s === undefined || s.trim() === '';
const excerpt = (s: string): string => JSON.stringify(s.length > 120 ? `${s.slice(0, 117)}...` : s);

export function validateTree(tree: ReasoningTree, markdown: string): TreeValidation {
  const problems: string[] = [];
  const focus: unknown = tree.primary_clinical_focus;
  if (!(FOCI as readonly unknown[]).includes(focus)) {
    problems.push(`primary_clinical_focus ${JSON.stringify(focus)} is not one of ${FOCI.join(', ')}`);
  }

  const mapping = tree.node_guideline_mapping ?? {};
  const indexCounts = new Map<number, number>();

  for (const v of preorder(tree.decision_tree)) {
    const { node } = v;
    const label = nodeLabel(v);
    if (!Number.isInteger(node.index)) {
      problems.push(`${label}: index ${Number.isFinite(node.index) ? node.index : 'is missing or not a number and'} is not an integer`);
    } else {
      indexCounts.set(node.index, (indexCounts.get(node.index) ?? 0) + 1);
    }

    if (isLeafNode(node)) {
      if (node.conclusion === undefined) problems.push(`${label}: leaf has no conclusion`);
      else if (blank(node.conclusion)) problems.push(`${label}: leaf has an empty conclusion`);
      if (node.yes !== undefined || node.no !== undefined)
        problems.push(`${label}: marked as a leaf but has a ${node.yes !== undefined ? 'yes' : 'no'} child`);
    } else {
      if (node.yes === undefined && node.no === undefined) {
        problems.push(
          `${label}: decision node has neither a yes nor a no child; give it both branches, or make it a leaf with a conclusion`,
        );
      } else if (node.yes === undefined || node.no === undefined) {
        const [has, lacks] = node.yes === undefined ? ['no', 'yes'] : ['yes', 'no'];
        problems.push(
          `${label}: decision node has a ${has} child but no ${lacks} child (one branch); a yes/no question needs both, so add the ${lacks} branch`,
        );
      }
      if (node.description === undefined) problems.push(`${label}: decision node has no description`);
      else if (blank(node.description)) problems.push(`${label}: decision node has an empty description`);
      if (node.conclusion !== undefined) problems.push(`${label}: decision node also has a conclusion; conclusions belong in leaves`);
    }

    if (Number.isInteger(node.index)) {
      const quotes = Object.hasOwn(mapping, String(node.index)) ? mapping[String(node.index)]! : [];
      if (quotes.length === 0) problems.push(`${label}: no evidence quote in node_guideline_mapping`);
    }
  }

  for (const [index, count] of indexCounts) {
    if (count > 1) problems.push(`node ${index}: index is used by ${count} nodes; indices must be unique`);
  }

  const matcher = createEvidenceMatcher(markdown);
  let checked = 0;
  let matched = 0;
  const notFound: string[] = [];
  for (const [key, quotes] of Object.entries(mapping)) {
    const n = Number(key);
    const known = Number.isInteger(n) && String(n) === key && indexCounts.has(n);
    if (!known)
      problems.push(`node_guideline_mapping key ${JSON.stringify(key)} refers to no node in the tree (node ${key} does not exist)`);
    quotes.forEach((quote, i) => {
      checked++;
      if (blank(quote)) {
        problems.push(`node ${key}: evidence quote ${i + 1} is empty`);
      } else if (matcher.contains(quote)) {
        matched++;
      } else {
        notFound.push(`${EVIDENCE_NOT_FOUND} node ${key}: quote ${i + 1} ${excerpt(quote)}`);
      }
    });
  }

  const valid = problems.length === 0;
  problems.push(...notFound);
  return { valid, problems, evidenceVerbatimRate: checked === 0 ? Number.NaN : matched / checked, evidenceChecked: checked };
}

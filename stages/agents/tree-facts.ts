/**
 * What the offline agents need from a reasoning tree besides walking it: the criteria that lie
 * off a case's path (the pool redundant steps are drawn from) and the leaf conclusions (the pool
 * a wrong outcome is drawn from). Both in the tree's preorder, so draws are reproducible.
 */
import type { Cdp, ReasoningTree } from '../construct/types.ts';
import { isLeafNode, preorder } from '../construct/tree-walk.ts';
import { normaliseQuestion } from './text-match.ts';

/**
 * Conditions of decision nodes not on the path, without duplicates and without any whose text
 * equals a path condition (trees repeat a criterion in two branches; asking it again would be a
 * repeat, not a criterion from elsewhere, and would make the ground-truth mapping wrong).
 */
export function offPathConditions(tree: ReasoningTree, cdp: Pick<Cdp, 'steps'>): string[] {
  const onPath = new Set(cdp.steps.map((s) => s.node_index));
  const pathTexts = new Set(cdp.steps.map((s) => normaliseQuestion(s.condition)));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { node } of preorder(tree.decision_tree)) {
    if (isLeafNode(node) || onPath.has(node.index)) continue;
    const text = (node.description ?? '').replace(/\s+/g, ' ').trim();
    const key = normaliseQuestion(text);
    if (text === '' || pathTexts.has(key) || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

/** Distinct non-empty leaf conclusions of the tree other than `except`. */
export function otherConclusions(tree: ReasoningTree, except: string): string[] {
  const skip = except.replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  for (const { node } of preorder(tree.decision_tree)) {
    if (!isLeafNode(node)) continue;
    const c = (node.conclusion ?? '').replace(/\s+/g, ' ').trim();
    if (c !== '' && c !== skip && !out.includes(c)) out.push(c);
  }
  return out;
}

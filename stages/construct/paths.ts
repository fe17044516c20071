/**
 * Clinical decision pathways: every root-to-leaf path of a reasoning tree (paper §3.1),
 * in preorder (yes before no), each a `Cdp`.
 *
 * - A step is a decision node on the path: condition = its description, decision_outcome =
 *   the branch taken, evidence = its quotes. The leaf gives the conclusion and its evidence.
 * - length = number of decision (non-leaf) nodes on the path (Appendix C).
 * - The split is decided per guideline (`splitGuidelines`) and passed in by the caller, so
 *   every path of a guideline lands in the same split.
 * - A path of length 0 (a tree that is a single leaf) is dropped with a warning by default:
 *   it has no decision to follow, so no vignette or questioning pathway can be built from it
 *   and the pathway metrics (divided by the number of reference steps) are undefined; the
 *   paper's minimum length is 1. Pass `minLength: 0` to keep such paths.
 * - cdp_id = `<guideline_id>-<first 12 hex digits of SHA-256>` over the UTF-8 JSON text of
 *   `[guideline_id, [[condition, decision_outcome], …], conclusion]`. Arrays, not objects, so
 *   the text has one canonical form. The id depends on content only: re-extracting the same
 *   tree, or renumbering its nodes, or editing evidence, keeps ids; changing a condition, an
 *   outcome or a conclusion changes them. Two paths of one tree always differ in the outcome
 *   at the node where they part, so ids are unique within a tree.
 * The walk is iterative (safe at any depth) and does work proportional to the output size.
 */
import { createHash } from 'node:crypto';
import type { Cdp, CdpStep, ReasoningTree, TreeNodeJson } from './types.ts';
import { isLeafNode } from './tree-walk.ts';

export interface PathContext {
  guideline_id: string;
  language: string;
  split: Cdp['split'];
}

export interface PathOptions {
  /** Paths with fewer decision steps are dropped with a warning. Default 1. */
  minLength?: number;
}

export interface PathEnumeration {
  cdps: Cdp[];
  warnings: string[];
}

export function cdpId(guidelineId: string, steps: readonly Pick<CdpStep, 'condition' | 'decision_outcome'>[], conclusion: string): string {
  const canonical = JSON.stringify([guidelineId, steps.map((s) => [s.condition, s.decision_outcome]), conclusion]);
  return `${guidelineId}-${createHash('sha256').update(canonical, 'utf8').digest('hex').slice(0, 12)}`;
}

export function enumeratePaths(tree: ReasoningTree, ctx: PathContext, options: PathOptions = {}): PathEnumeration {
  const minLength = options.minLength ?? 1;
  const mapping = tree.node_guideline_mapping ?? {};
  const evidenceOf = (node: TreeNodeJson): string[] => {
    const key = String(node.index);
    return Object.hasOwn(mapping, key) ? [...mapping[key]!] : [];
  };

  const cdps: Cdp[] = [];
  const warnings: string[] = [];
  // `steps` holds the decisions from the root down to the node being visited; each stack entry
  // carries the decision that leads to it, so popping restores the prefix in O(1).
  const steps: CdpStep[] = [];
  const stack: Array<{ node: TreeNodeJson; depth: number; via: CdpStep | null }> = [{ node: tree.decision_tree, depth: 0, via: null }];

  while (stack.length > 0) {
    const { node, depth, via } = stack.pop()!;
    steps.length = Math.max(0, depth - 1);
    if (via !== null) steps.push(via);

    if (isLeafNode(node)) {
      const conclusion = node.conclusion ?? '';
      if (steps.length < minLength) {
        warnings.push(
          `${ctx.guideline_id}: the path to leaf ${node.index} has ${steps.length} decision step(s), fewer than the minimum ${minLength}; dropped`,
        );
        continue;
      }
      // Fresh step objects per path: the stack shares them between paths under one branch.
      const pathSteps = steps.map((s) => ({ ...s, evidence: [...s.evidence] }));
      cdps.push({
        cdp_id: cdpId(ctx.guideline_id, pathSteps, conclusion),
        guideline_id: ctx.guideline_id,
        language: ctx.language,
        focus: tree.primary_clinical_focus,
        split: ctx.split,
        length: pathSteps.length,
        steps: pathSteps,
        conclusion,
        conclusion_evidence: evidenceOf(node),
        leaf_index: node.index,
      });
      continue;
    }

    if (node.yes === undefined || node.no === undefined) {
      throw new Error(
        `enumeratePaths: in guideline ${ctx.guideline_id}, node ${node.index} is a decision node without a ${node.yes === undefined ? 'yes' : 'no'} child; ` +
          'enumerate only trees that validateTree accepts',
      );
    }
    const condition = node.description ?? '';
    const evidence = evidenceOf(node);
    stack.push({ node: node.no, depth: depth + 1, via: { node_index: node.index, condition, decision_outcome: 'no', evidence } });
    stack.push({ node: node.yes, depth: depth + 1, via: { node_index: node.index, condition, decision_outcome: 'yes', evidence } });
  }
  return { cdps, warnings };
}

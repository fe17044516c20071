/**
 * Walking a reasoning tree without recursion, so that a model's 100-level-deep tree cannot
 * overflow the call stack. Every consumer (validation, node rows, path enumeration) visits
 * nodes in the same preorder — node, then its yes subtree, then its no subtree — so rows
 * and paths come out in one predictable order.
 */
import type { TreeNodeJson } from './types.ts';

/**
 * A leaf is what Prompt 1 marks `leaf: true`, or an unmarked node with neither child (so
 * hand-built trees may omit the flag; `parseTree` already sets it on leaves a model wrote
 * without it). A node marked `leaf: false` is a decision node even without children, so
 * validation reports its missing children instead of accepting it as a leaf.
 */
export function isLeafNode(node: TreeNodeJson): boolean {
  return node.leaf === true || (node.leaf !== false && node.yes === undefined && node.no === undefined);
}

export interface VisitedNode {
  node: TreeNodeJson;
  parent: TreeNodeJson | null;
  /** Which branch of the parent leads here; null for the root. */
  branch: 'yes' | 'no' | null;
  depth: number;
}

/** Preorder (node, yes subtree, no subtree), iterative. Children of leaves are still visited. */
export function* preorder(root: TreeNodeJson): Generator<VisitedNode> {
  const stack: VisitedNode[] = [{ node: root, parent: null, branch: null, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    yield item;
    const { node, depth } = item;
    // Push no first so that yes is popped (visited) first.
    if (node.no !== undefined) stack.push({ node: node.no, parent: node, branch: 'no', depth: depth + 1 });
    if (node.yes !== undefined) stack.push({ node: node.yes, parent: node, branch: 'yes', depth: depth + 1 });
  }
}

/** How a problem message names a node: by its index, or by where it hangs if the index is unusable. */
export function nodeLabel(v: Pick<VisitedNode, 'node' | 'parent' | 'branch'>): string {
  if (Number.isFinite(v.node.index)) return `node ${v.node.index}`;
  if (v.parent === null) return 'the root node (no valid index)';
  return `the ${v.branch} child of ${Number.isFinite(v.parent.index) ? `node ${v.parent.index}` : 'a node without a valid index'} (no valid index)`;
}

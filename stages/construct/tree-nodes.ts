/**
 * A reasoning tree as table rows (`tree_nodes`), one per node in preorder (node, yes
 * subtree, no subtree), so the tree can be queried and drawn without parsing JSON.
 */
import type { ReasoningTree, TreeNodeRow } from './types.ts';
import { isLeafNode, preorder } from './tree-walk.ts';

export function treeNodeRows(guidelineId: string, tree: ReasoningTree): TreeNodeRow[] {
  const mapping = tree.node_guideline_mapping ?? {};
  const rows: TreeNodeRow[] = [];
  for (const { node, parent, branch } of preorder(tree.decision_tree)) {
    const leaf = isLeafNode(node);
    const key = String(node.index);
    rows.push({
      guideline_id: guidelineId,
      node_index: node.index,
      parent_index: parent === null ? null : parent.index,
      branch,
      is_leaf: leaf,
      text: (leaf ? node.conclusion : node.description) ?? '',
      // A copy, so editing a row cannot change the tree it came from.
      evidence: Object.hasOwn(mapping, key) ? [...mapping[key]!] : [],
    });
  }
  return rows;
}

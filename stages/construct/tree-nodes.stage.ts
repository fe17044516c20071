/** Stage `tree_nodes`: every node of every valid tree, in preorder. */
import { rowStage } from '../../pipeline/stage.ts';
import { treeNodeRows } from './tree-nodes.ts';
import type { ReasoningTree } from './types.ts';

export default rowStage({
  inputs: { trees: 'drives' },
  // A function of the unit and the params: its units may run on worker threads (--workers).
  pure: true,
  params: {},
  columns: {
    guideline_id: 'VARCHAR',
    node_index: 'INTEGER',
    parent_index: 'INTEGER',
    branch: 'VARCHAR',
    is_leaf: 'BOOLEAN',
    text: 'VARCHAR',
    evidence: 'VARCHAR[]',
  },
  run({ row }) {
    if (!row.valid) return [];
    return treeNodeRows(row.guideline_id as string, JSON.parse(row.tree_json as string) as ReasoningTree).map((n) => ({ ...n }));
  },
});

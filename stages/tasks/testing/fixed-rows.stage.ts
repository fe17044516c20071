/**
 * Test-only stage: emits the rows given in its `rows` param, so a test DAG can stand in for the
 * construction tables (guidelines, trees, cdps, vignettes) with hand-built rows. Its columns are
 * the union of what the task stages read from those tables; a table fills only its own.
 */
import { tableStage } from '../../../pipeline/stage.ts';
import type { Row } from '../../../pipeline/stage.ts';

export default tableStage<{ rows: Row[] }>({
  columns: {
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    title: 'VARCHAR',
    markdown: 'VARCHAR',
    tree_json: 'VARCHAR',
    valid: 'BOOLEAN',
    cdp_id: 'VARCHAR',
    focus: 'VARCHAR',
    split: 'VARCHAR',
    length: 'INTEGER',
    steps: 'STRUCT(node_index INTEGER, condition VARCHAR, decision_outcome VARCHAR, evidence VARCHAR[])[]',
    conclusion: 'VARCHAR',
    conclusion_evidence: 'VARCHAR[]',
    leaf_index: 'INTEGER',
    reference_questions: 'VARCHAR[]',
    vignette: 'VARCHAR',
    error: 'VARCHAR',
  },
  run(_inputs, ctx) {
    return ctx.params.rows;
  },
});

/**
 * Test-only stage: emits the rows given in its `rows` param, so a test DAG can stand in for the
 * construction tables (guidelines, trees, cdps, vignettes) with hand-built rows. Its columns are
 * the union of what the task stages read from those tables; a table fills only its own.
 */
import { tableStage } from '../../../pipeline/stage.ts';
import type { Row } from '../../../pipeline/stage.ts';

const COLUMNS = {
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
};

export default tableStage<{ rows: Row[] }>({
  columns: COLUMNS,
  run(_inputs, ctx) {
    // Rows copied from the real tables carry more columns than the task stages read; keep ours.
    return ctx.params.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k in COLUMNS)));
  },
});

/**
 * Test-only stages that emit the rows given in their params, typed like the tables the
 * evaluation consumes (predictions_single, dialogues_multi, cdps, narratives, trees), so an
 * evaluation DAG can be run without the construction and task stages.
 */
import { tableStage, z, type Columns } from '../../../pipeline/stage.ts';

export const fixtureTable = (columns: Columns) =>
  tableStage<{ rows: Record<string, unknown>[] }>({
    columns,
    inputs: {},
    params: { rows: z.array(z.record(z.string(), z.unknown())) },
    run: (_inputs, ctx) => ctx.params.rows,
  });

export const FIXTURE_COLUMNS: Record<string, Columns> = {
  predictions_single: {
    model: 'VARCHAR',
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    steps: 'VARCHAR[]',
    outcome: 'VARCHAR',
    parse_ok: 'BOOLEAN',
    parse_error: 'VARCHAR',
    raw: 'VARCHAR',
    simulated: 'BOOLEAN',
    error: 'VARCHAR',
  },
  dialogues_multi: {
    model: 'VARCHAR',
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    questions: 'VARCHAR[]',
    outcome: 'VARCHAR',
    success: 'BOOLEAN',
    end_reason: 'VARCHAR',
    simulated: 'BOOLEAN',
    error: 'VARCHAR',
  },
  cdps: {
    cdp_id: 'VARCHAR',
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    focus: 'VARCHAR',
    split: 'VARCHAR',
    length: 'INTEGER',
    steps: 'STRUCT(node_index INTEGER, condition VARCHAR, decision_outcome VARCHAR, evidence VARCHAR[])[]',
    conclusion: 'VARCHAR',
    conclusion_evidence: 'VARCHAR[]',
    leaf_index: 'INTEGER',
    reference_questions: 'VARCHAR[]',
  },
  narratives: { cdp_id: 'VARCHAR', steps: 'VARCHAR[]' },
  trees: { guideline_id: 'VARCHAR', tree_json: 'VARCHAR', valid: 'BOOLEAN' },
};

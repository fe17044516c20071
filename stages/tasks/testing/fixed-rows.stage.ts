/**
 * Test-only stage: emits the rows given in its `rows` param, so a test DAG can stand in for the
 * construction tables (guidelines, trees, cdps, vignettes) with hand-built rows. Its columns are
 * the union of those stages' columns; a table fills only its own.
 */
import { tableStage, z } from '../../../pipeline/stage.ts';
import type { Row } from '../../../pipeline/stage.ts';
import guidelines from '../../ingest/guidelines.stage.ts';
import trees from '../../construct/trees.stage.ts';
import cdps from '../../construct/cdps.stage.ts';
import vignettes from '../../construct/vignettes.stage.ts';

// The real tables' columns, so the fixtures cannot drift from what the stages produce.
const COLUMNS = { ...guidelines.columns, ...trees.columns, ...cdps.columns, ...vignettes.columns, error: 'VARCHAR' };

export default tableStage<{ rows: Row[] }>({
  inputs: {},
  params: { rows: z.array(z.record(z.string(), z.unknown())) },
  columns: COLUMNS,
  run(_inputs, ctx) {
    // Rows copied from the real tables carry more columns than the task stages read; keep ours.
    return ctx.params.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k in COLUMNS)));
  },
});

/** Stage `cpg_construction_summary`: the counts of construction-summary.ts, one row per step. */
import { tableStage } from '../../../pipeline/stage.ts';
import { constructionSummary } from './construction-summary.ts';

export default tableStage({
  inputs: {
    cpg_documents: 'whole',
    cpg_recommendations: 'whole',
    cpg_safety: 'whole',
    cpg_conversations: 'whole',
    cpg_task_inputs: 'whole',
  },
  params: {},
  reads: {
    cpg_documents: ['error', 'bona_fide', 'bona_fide_source', 'included', 'min_year', 'cut', 'max_tokens'],
    cpg_recommendations: ['error', 'source'],
    cpg_safety: ['error', 'safety_critical', 'source'],
    cpg_conversations: ['error', 'attempts', 'writer'],
    cpg_task_inputs: ['error'],
  },
  columns: { step: 'VARCHAR', count: 'INTEGER', detail: 'VARCHAR' },
  run(inputs) {
    return constructionSummary(inputs).map((c) => ({ ...c }));
  },
});

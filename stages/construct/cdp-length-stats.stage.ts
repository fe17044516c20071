/** Stage `cdp_length_stats`: the paper's Table 4 (CDP length statistics per split). */
import { tableStage } from '../../pipeline/stage.ts';
import { cdpLengthStats } from './length-stats.ts';
import type { Cdp } from './types.ts';

export default tableStage({
  inputs: { cdps: 'whole' },
  params: {},
  reads: { cdps: ['length', 'split'] },
  columns: { split: 'VARCHAR', statistic: 'VARCHAR', value: 'DOUBLE' },
  run({ cdps }) {
    return cdpLengthStats(cdps as unknown as Cdp[]).map((r) => ({ ...r, value: Number.isFinite(r.value) ? r.value : null }));
  },
});

/**
 * Stage `simulated_preferences` (paper §4.3, simulated): one unit per test case, its pairs of
 * perturbation agents' pathways in each setting and the two simulated raters' choices between
 * them (simulated-preferences.ts: the true choice from the agents' deviation counts, each rater
 * flipping it with probability `raterNoise`, seeded per pair and rater). No person labelled
 * anything: every row says `simulated`.
 *
 * A case's pairs and choices depend on that case's pathways and plans alone, so a new guideline
 * computes its cases' pairs and reuses the others'; `preference_agreement` reads these rows as it
 * reads the human label files. A case that failed upstream, or whose pathways are no agent's
 * plan, has no pairs (no row).
 */
import { rowStage, z, type Row } from '../../pipeline/stage.ts';
import { planIndex } from './agent-plans.ts';
import { SIMULATED_RATERS, noisyChoice, simulatedPairs } from './simulated-preferences.ts';

export interface SimulatedPreferenceParams {
  raterNoise: number;
  seed: number;
}

export const SIMULATED_PREFERENCE_COLUMNS = {
  pair_id: 'VARCHAR',
  group: 'VARCHAR',
  cdp_id: 'VARCHAR',
  model_a: 'VARCHAR',
  model_b: 'VARCHAR',
  deviations_a: 'INTEGER',
  deviations_b: 'INTEGER',
  truth: 'VARCHAR',
  /** simulated-rater-1's choice ('A', 'B' or 'tie'). */
  choice_1: 'VARCHAR',
  /** simulated-rater-2's choice. */
  choice_2: 'VARCHAR',
  simulated: 'BOOLEAN',
} as const;

/** The pairs of these pathways whose agents have these plans, with both raters' choices, as rows. */
export function simulatedPreferenceRows(pathways: readonly Row[], plans: readonly Row[], params: SimulatedPreferenceParams): Row[] {
  const { raterNoise: noise, seed } = params;
  if (!(noise >= 0 && noise <= 1)) throw new RangeError(`simulated raters: raterNoise must be in [0, 1], got ${noise}`);
  const [first, second] = SIMULATED_RATERS;
  return simulatedPairs(pathways, planIndex(plans)).map((p) => ({
    pair_id: p.pair_id,
    group: p.group,
    cdp_id: p.cdp_id,
    model_a: p.modelA,
    model_b: p.modelB,
    deviations_a: p.deviationsA,
    deviations_b: p.deviationsB,
    truth: p.truth,
    choice_1: noisyChoice(p.truth, noise, seed, p.pair_id, first),
    choice_2: noisyChoice(p.truth, noise, seed, p.pair_id, second),
    simulated: true,
  }));
}

export default rowStage<SimulatedPreferenceParams>({
  inputs: { test_cases: 'drives', predicted_pathways: 'joined', agent_plans: 'joined' },
  params: {
    raterNoise: z.number().min(0).max(1).default(0.1),
    seed: z.int().default(42),
  },
  columns: SIMULATED_PREFERENCE_COLUMNS,
  // A failed case has no pathways to pair: no row, and its failure is upstream's.
  seesFailedRows: true,
  // A function of the case's rows and the params (the raters are seeded): units may run on worker threads.
  pure: true,
  run({ row, joined }, ctx) {
    if (row.error != null) return [];
    return simulatedPreferenceRows(joined.predicted_pathways!, joined.agent_plans!, ctx.params);
  },
});

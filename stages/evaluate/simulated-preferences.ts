/**
 * Simulated pairwise preferences (paper §4.3) from the perturbation agents' ground truth. A pair
 * is two perturbation agents' pathways for the same case in the same setting, both exactly
 * their agents' plans (the agent_plans table); the true choice prefers the pathway with fewer
 * true deviations (the plan's four counts summed), 'tie' when equal.
 *
 * The paper had two human annotators; here two simulated raters, 'simulated-rater-1' and
 * 'simulated-rater-2', each report the true choice except that with probability `noise` (default
 * 0.1) they report one of the two other choices, uniformly. Each rater's draw for a pair comes
 * from its own stream, seeded by (seed, pair_id, rater), so a pair's labels never depend on
 * which other pairs exist. Everything here is a simulation: no person labelled anything.
 *
 * Groups are the settings ('single', 'multi'), the paper's two groups of pairs.
 */
import type { Row } from '../../pipeline/stage.ts';
import { fnv1a } from '../stats/string-hash.ts';
import { createRng } from '../stats/rng.ts';
import type { Choice } from '../stats/agreement.ts';
import { planMismatch, planOf, totalDeviations, type PlanIndex } from './agent-plans.ts';

export const SIMULATED_RATERS = ['simulated-rater-1', 'simulated-rater-2'] as const;

export interface SimulatedPair {
  pair_id: string;
  group: string;
  cdp_id: string;
  modelA: string;
  modelB: string;
  deviationsA: number;
  deviationsB: number;
  truth: Choice;
}

export function trueChoice(deviationsA: number, deviationsB: number): Choice {
  return deviationsA === deviationsB ? 'tie' : deviationsA < deviationsB ? 'A' : 'B';
}

export function noisyChoice(truth: Choice, noise: number, seed: number, pairId: string, rater: string): Choice {
  const rng = createRng(fnv1a(`${seed}\u0000${pairId}\u0000${rater}`));
  if (rng.nextFloat() >= noise) return truth;
  const others = (['A', 'B', 'tie'] as const).filter((c) => c !== truth);
  return others[rng.nextInt(2)]!;
}

/** Every pair of distinct perturbation agents whose pathways are their plans, per setting and case. */
export function simulatedPairs(pathways: readonly Row[], index: PlanIndex): SimulatedPair[] {
  const byCase = new Map<string, { model: string; deviations: number }[]>();
  for (const p of pathways) {
    if (p.usable !== true) continue;
    const model = String(p.model),
      cdpId = String(p.cdp_id),
      setting = String(p.setting);
    const plan = planOf(index, model, cdpId);
    if (!plan || planMismatch(plan, setting, (p.candidate as string[]) ?? [])) continue;
    const key = JSON.stringify([setting, cdpId]);
    if (!byCase.has(key)) byCase.set(key, []);
    byCase.get(key)!.push({ model, deviations: totalDeviations(plan) });
  }
  const pairs: SimulatedPair[] = [];
  for (const [key, agents] of [...byCase.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [group, cdp_id] = JSON.parse(key) as [string, string];
    agents.sort((a, b) => (a.model < b.model ? -1 : 1));
    for (let i = 0; i < agents.length; i++) {
      for (let j = i + 1; j < agents.length; j++) {
        const a = agents[i]!,
          b = agents[j]!;
        pairs.push({
          pair_id: `${group}|${cdp_id}|${a.model}|${b.model}`,
          group,
          cdp_id,
          modelA: a.model,
          modelB: b.model,
          deviationsA: a.deviations,
          deviationsB: b.deviations,
          truth: trueChoice(a.deviations, b.deviations),
        });
      }
    }
  }
  return pairs;
}

/**
 * A perturbation agent's profile: its deviation rates, its wrong-outcome rate and its seed.
 * Names carry the whole profile, so a roster entry is enough to rebuild the agent (and its
 * ground-truth plans) anywhere:
 *
 *   simulated-<type>-<rate>[-wrong-<rate>]   type ∈ omission, redundancy, skipping, reversal
 *   simulated-mixed-<rate>[-wrong-<rate>]    all four types at <rate>
 *   simulated-oracle                         no deviation (the perturbation view of the oracle)
 *
 * Rates are decimals in [0, 1] ("0.3", "1", "0.05"). The agent seed is a 32-bit FNV-1a hash of
 * the name, so two agents never share random streams by accident and renaming an agent gives
 * it new ones. Each case's stream mixes the agent seed with the cdp_id (`caseSeed`), so a
 * case's plan does not depend on which other cases ran, or in which order.
 */
import { fnv1a } from '../stats/string-hash.ts';
import { DEVIATION_TYPES, type DeviationRates, type DeviationType } from './perturb.ts';

export interface PerturbationProfile {
  name: string;
  seed: number;
  rates: DeviationRates;
  /** Probability that the final outcome is another leaf's conclusion of the same tree. */
  wrongOutcomeRate: number;
  /** Longest skipped run. */
  skipMax: number;
}

export { fnv1a };

/** The seed of one case's stream (`stream` separates independent draws, e.g. steps vs outcome). */
export function caseSeed(agentSeed: number, cdpId: string, stream: string): number {
  return fnv1a(`${agentSeed >>> 0}\u0000${cdpId}\u0000${stream}`);
}

const RATE = '(0(?:\\.\\d+)?|1(?:\\.0+)?)';
const NAME = new RegExp(`^simulated-(omission|redundancy|skipping|reversal|mixed)-${RATE}(?:-wrong-${RATE})?$`);

export function isPerturbationName(name: string): boolean {
  return name === 'simulated-oracle' || NAME.test(name);
}

export function profileFromName(name: string): PerturbationProfile {
  const rates: DeviationRates = { omission: 0, redundancy: 0, skipping: 0, reversal: 0 };
  if (name === 'simulated-oracle') return { name, seed: fnv1a(name), rates, wrongOutcomeRate: 0, skipMax: 2 };
  const m = NAME.exec(name);
  if (!m) {
    throw new Error(
      `profileFromName: "${name}" is not a perturbation agent name; use simulated-<omission|redundancy|skipping|reversal|mixed>-<rate>[-wrong-<rate>] with rates in [0, 1], e.g. simulated-omission-0.3`,
    );
  }
  const rate = Number(m[2]);
  if (m[1] === 'mixed') for (const t of DEVIATION_TYPES) rates[t] = rate;
  else rates[m[1] as DeviationType] = rate;
  return { name, seed: fnv1a(name), rates, wrongOutcomeRate: m[3] === undefined ? 0 : Number(m[3]), skipMax: 2 };
}

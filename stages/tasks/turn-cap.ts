/**
 * How many doctor turns a multi-turn dialogue may take before it counts as unfinished. The paper
 * states no cap; ours is relative to the reference CDP's length so long pathways are not cut
 * short: cap = ceil(capFactor × length + capExtra) doctor turns (questions plus the conclusion),
 * by default 2 × length + 4. The reference dialogue needs length + 1 turns, so a doctor may ask
 * about as many criteria again as the reference, plus four, before it must conclude.
 */

export const DEFAULT_CAP_FACTOR = 2;
export const DEFAULT_CAP_EXTRA = 4;

export function turnCap(length: number, capFactor = DEFAULT_CAP_FACTOR, capExtra = DEFAULT_CAP_EXTRA): number {
  const cap = Math.ceil(capFactor * length + capExtra);
  if (!Number.isFinite(cap) || cap < 1) {
    throw new Error(
      `turn cap ${capFactor} × ${length} + ${capExtra} = ${cap} is not a positive number of turns; check the CDP's length and set capFactor and capExtra so the doctor gets at least one turn`,
    );
  }
  return cap;
}

/**
 * How a similarity judge writes its score on the prompts' 1–5 scale: Likert = 1 + round(4·s),
 * halves rounding up. The bands are s < 0.125 → 1, [0.125, 0.375) → 2, [0.375, 0.625) → 3,
 * [0.625, 0.875) → 4, ≥ 0.875 → 5. After the pipeline's normalisation (s' − 1)/4 the judge's C
 * entry is s rounded to the nearest quarter, so a similarity judge's C is its similarity,
 * quantised, and the LLM judges' code path is used unchanged.
 */
export function likertFromSimilarity(s: number): 1 | 2 | 3 | 4 | 5 {
  if (!(s >= 0 && s <= 1)) throw new RangeError(`similarity ${s} is not in [0, 1]; a similarity judge must return values in [0, 1]`);
  return (1 + Math.floor(4 * s + 0.5)) as 1 | 2 | 3 | 4 | 5;
}

/**
 * Synthetic consistency matrices for property tests and the benchmark: seeded, so a failing
 * property names a reproducible matrix. Not used to score real pathways.
 */
import type { Rng } from '../../stats/rng.ts';

/** Independent uniform scores; `grid` > 0 rounds them to multiples of 1/grid (LLM judges score on a 0.1 grid). */
export function uniformMatrix(rng: Rng, m: number, n: number, grid = 0): Float64Array {
  const C = new Float64Array(m * n);
  for (let k = 0; k < C.length; k++) C[k] = grid > 0 ? rng.nextInt(grid + 1) / grid : rng.nextFloat();
  return C;
}

/** A perfect k×k pathway (C = I) blended with uniform noise: (1 − σ)·I + σ·U. */
export function noisyIdentity(rng: Rng, k: number, sigma: number): Float64Array {
  const C = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) C[i * k + j] = (1 - sigma) * (i === j ? 1 : 0) + sigma * rng.nextFloat();
  }
  return C;
}

/**
 * A plausible judge matrix for a predicted pathway of n steps against m reference steps: each
 * reference step is matched (with probability pMatch) by a predicted step along a monotone
 * alignment, occasionally out of order, and everything else scores low.
 */
export function alignedMatrix(rng: Rng, m: number, n: number, pMatch = 0.8, grid = 10): Float64Array {
  const C = new Float64Array(m * n);
  for (let k = 0; k < C.length; k++) C[k] = rng.nextInt(4) / 10;
  if (n === 0) return C;
  for (let i = 0; i < m; i++) {
    if (rng.nextFloat() >= pMatch) continue;
    let j = Math.min(n - 1, Math.floor(((i + rng.nextFloat()) * n) / m));
    if (rng.nextFloat() < 0.1) j = rng.nextInt(n); // an out-of-order step
    const s = 0.6 + 0.4 * rng.nextFloat();
    C[i * n + j] = grid > 0 ? Math.round(s * grid) / grid : s;
  }
  return C;
}

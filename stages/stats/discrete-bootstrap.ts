/**
 * The case bootstrap of a mean when the values take few distinct levels (CPGBench's rates: 0/1
 * per task, the average of three in thirds, a paired difference in thirds from −1 to 1).
 *
 * A case resample draws n cases with replacement; its mean depends only on how many of the draws
 * fall on each level, and those counts are Multinomial(n; shares of the levels). Drawing the
 * counts (one binomial per level but the last, conditionally) instead of n cases gives resamples
 * with exactly the case bootstrap's distribution at a cost that does not grow with n — the
 * difference between minutes and a second for 32,155 items × 10,000 resamples × 41 groups.
 * The CI is read from the B resampled means as bootstrap.ts reads it (NumPy's linear quantiles),
 * so with the same B both estimate the same interval; their Monte Carlo draws differ.
 *
 * Binomials are drawn exactly by inversion: the first level's from its tabulated CDF (a binary
 * search), the conditional ones from the mode outwards (the pmf walked from its largest term,
 * computed from ln Γ), about √(n p q) steps each. Values with more than
 * MAX_LEVELS levels go to percentileBootstrap.
 */
import { percentileBootstrap, quantileSorted, type BootstrapOptions, type BootstrapResult } from './bootstrap.ts';
import { lnGamma } from './chi-square.ts';
import { createRng, PAPER_SEED, type Rng } from './rng.ts';

export const MAX_LEVELS = 16;

/** Uniform in [0, 1) with 53 bits. */
const uniform = (rng: Rng) => ((rng.nextUint32() >>> 5) * 67108864 + (rng.nextUint32() >>> 6)) / 9007199254740992;

/** One Binomial(n, p) draw, exact up to floating point: inversion of the pmf from its mode outwards. */
export function binomialDraw(n: number, p: number, rng: Rng): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const lq = Math.log1p(-p),
    lp = Math.log(p);
  const pmfMode = Math.exp(lnGamma(n + 1) - lnGamma(mode + 1) - lnGamma(n - mode + 1) + mode * lp + (n - mode) * lq);
  let u = uniform(rng) - pmfMode;
  if (u <= 0) return mode;
  let lo = mode,
    hi = mode,
    pLo = pmfMode,
    pHi = pmfMode;
  const ratio = p / (1 - p);
  for (;;) {
    // Step to whichever side has the larger next term: the walk visits terms in about decreasing order.
    const nextHi = hi < n ? pHi * ((n - hi) / (hi + 1)) * ratio : 0;
    const nextLo = lo > 0 ? (pLo * (lo / (n - lo + 1))) / ratio : 0;
    if (nextHi === 0 && nextLo === 0) return mode; // floating point: u left over after every term
    if (nextHi >= nextLo) {
      hi++;
      pHi = nextHi;
      u -= pHi;
      if (u <= 0) return hi;
    } else {
      lo--;
      pLo = nextLo;
      u -= pLo;
      if (u <= 0) return lo;
    }
  }
}

/**
 * A sampler of Binomial(n, p) by inversion of its CDF, tabulated once (n + 1 terms, computed from
 * the mode outwards by the pmf's ratios so no term underflows before it is negligible): each draw
 * is then a binary search. For the many draws of one (n, p): the first level of every resample.
 */
export function binomialSampler(n: number, p: number): (rng: Rng) => number {
  if (n <= 0 || p <= 0) return () => 0;
  if (p >= 1) return () => n;
  const pmf = new Float64Array(n + 1);
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const ratio = p / (1 - p);
  pmf[mode] = 1;
  for (let k = mode; k < n && pmf[k]! > 1e-300; k++) pmf[k + 1] = pmf[k]! * ((n - k) / (k + 1)) * ratio;
  for (let k = mode; k > 0 && pmf[k]! > 1e-300; k--) pmf[k - 1] = (pmf[k]! * (k / (n - k + 1))) / ratio;
  const cdf = new Float64Array(n + 1);
  let total = 0;
  for (let k = 0; k <= n; k++) cdf[k] = total += pmf[k]!;
  for (let k = 0; k <= n; k++) cdf[k] = cdf[k]! / total;
  return (rng) => {
    const u = uniform(rng);
    let lo = 0,
      hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! >= u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

/** The distinct values and their counts, or null when there are more than MAX_LEVELS. */
function levelsOf(values: Float64Array): { levels: number[]; counts: number[] } | null {
  const counts = new Map<number, number>();
  for (const v of values) {
    counts.set(v, (counts.get(v) ?? 0) + 1);
    if (counts.size > MAX_LEVELS) return null;
  }
  const levels = [...counts.keys()].sort((a, b) => a - b);
  return { levels, counts: levels.map((l) => counts.get(l)!) };
}

/** The B resampled means of a case bootstrap of `values`, drawn as multinomial level counts. */
export function discreteBootstrapMeans(values: Float64Array, opts: BootstrapOptions = {}): Float64Array | null {
  const { resamples = 10000, seed = PAPER_SEED } = opts;
  if (values.length === 0) throw new RangeError('discreteBootstrapMeans: no values to bootstrap');
  if (!Number.isInteger(resamples) || resamples < 2)
    throw new RangeError(`discreteBootstrapMeans: resamples must be an integer ≥ 2, got ${resamples}`);
  if (values.some((v) => !Number.isFinite(v)))
    throw new RangeError('discreteBootstrapMeans: a value is not finite; drop or impute it first');
  const l = levelsOf(values);
  if (!l) return null;
  const n = values.length;
  const rng = createRng(seed);
  const out = new Float64Array(resamples);
  // The first level's count is Binomial(n, share) in every resample: tabulated once.
  const first = binomialSampler(n, l.counts[0]! / n);
  for (let r = 0; r < resamples; r++) {
    let left = n,
      share = 1,
      sum = 0;
    for (let k = 0; k < l.levels.length - 1 && left > 0; k++) {
      const p = l.counts[k]! / n / share;
      const m = k === 0 ? first(rng) : binomialDraw(left, Math.min(1, p), rng);
      sum += m * l.levels[k]!;
      left -= m;
      share -= l.counts[k]! / n;
    }
    sum += left * l.levels[l.levels.length - 1]!;
    out[r] = sum / n;
  }
  return out;
}

/** Case-bootstrap percentile CI for the mean of `values`: by level counts when they are few, else percentileBootstrap. */
export function discreteBootstrap(values: Float64Array, opts: BootstrapOptions = {}): BootstrapResult {
  const means = discreteBootstrapMeans(values, opts);
  if (!means) return percentileBootstrap(values, opts);
  const level = opts.level ?? 0.95;
  const sorted = Float64Array.from(means).sort();
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let m = 0;
  for (const x of means) m += x;
  m /= means.length;
  let ss = 0;
  for (const x of means) ss += (x - m) ** 2;
  return {
    mean,
    ciLow: quantileSorted(sorted, (1 - level) / 2),
    ciHigh: quantileSorted(sorted, (1 + level) / 2),
    n: values.length,
    se: Math.sqrt(ss / (means.length - 1)),
  };
}

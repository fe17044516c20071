/**
 * A seeded PRNG for everything stochastic in the benchmark (bootstrap, splits, perturbation
 * agents), so a seed reproduces a run on any machine. xoshiro128** (Blackman & Vigna): fast in
 * 32-bit integer arithmetic, which is what JavaScript does well, and statistically sound for
 * resampling. The state is seeded through splitmix32 so that nearby seeds give unrelated streams.
 */
export interface Rng {
  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number;
  /** Uniform in [0, 1) with 32 bits of resolution. */
  nextFloat(): number;
  /** Uniform integer in [0, n), unbiased (rejection sampling); n must be in 1..2^32. */
  nextInt(n: number): number;
}

export function createRng(seed: number): Rng {
  let x = seed >>> 0;
  const splitmix32 = (): number => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return rngFromState(splitmix32(), splitmix32(), splitmix32(), splitmix32());
}

/** xoshiro128** from an explicit state (exported for checking against the reference sequence). */
export function rngFromState(a: number, b: number, c: number, d: number): Rng {
  let s0 = a >>> 0;
  let s1 = b >>> 0;
  let s2 = c >>> 0;
  let s3 = d >>> 0;
  const rotl = (v: number, k: number): number => ((v << k) | (v >>> (32 - k))) >>> 0;

  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 = (s2 ^ s0) >>> 0;
    s3 = (s3 ^ s1) >>> 0;
    s1 = (s1 ^ s2) >>> 0;
    s0 = (s0 ^ s3) >>> 0;
    s2 = (s2 ^ t) >>> 0;
    s3 = rotl(s3, 11);
    return result;
  };

  return {
    nextUint32,
    nextFloat: () => nextUint32() / 4294967296,
    nextInt(n: number): number {
      if (!(n >= 1 && n <= 4294967296) || !Number.isInteger(n)) {
        throw new RangeError(`nextInt(n): n must be an integer in 1..2^32, got ${n}`);
      }
      // Reject the top sliver of the 32-bit range that would make small values more likely.
      const limit = 4294967296 - (4294967296 % n);
      let r = nextUint32();
      while (r >= limit) r = nextUint32();
      return r % n;
    },
  };
}

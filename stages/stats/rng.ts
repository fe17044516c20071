/**
 * A seeded PRNG for everything stochastic in the benchmark (bootstrap, splits, perturbation
 * agents), so a seed reproduces a run on any machine. xoshiro128** (Blackman & Vigna): fast in
 * 32-bit integer arithmetic, which is what JavaScript does well, and statistically sound for
 * resampling. The state is seeded through splitmix32 so that nearby seeds give unrelated streams.
 */
/** The paper's default seed (bootstrap and every other stochastic step). */
export const PAPER_SEED = 42;

export interface Rng {
  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number;
  /** Uniform in [0, 1) with 32 bits of resolution. */
  nextFloat(): number;
  /** Uniform integer in [0, n), unbiased (rejection sampling); n must be in 1..2^32. */
  nextInt(n: number): number;
  /**
   * Fills `out` with exactly the values `out.length` calls of nextInt(n) would return, in
   * order, advancing the stream the same way; for hot loops (10^8 draws in a bootstrap).
   */
  fillInt(out: Int32Array, n: number): void;
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
function checkRange(n: number): void {
  if (!(n >= 1 && n <= 4294967296) || !Number.isInteger(n)) {
    throw new RangeError(`nextInt(n): n must be an integer in 1..2^32, got ${n}`);
  }
}

export function rngFromState(a: number, b: number, c: number, d: number): Rng {
  // State in a typed array: uint32 values above 2^30 do not fit V8's small integers, so
  // closure variables would box a fresh heap number on every step (≈ 15x slower).
  const s = new Int32Array([a | 0, b | 0, c | 0, d | 0]);

  const nextUint32 = (): number => {
    const s0 = s[0]!,
      s1 = s[1]!,
      s2 = s[2]!,
      s3 = s[3]!;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    const n2 = s2 ^ s0;
    const n3 = s3 ^ s1;
    s[1] = s1 ^ n2;
    s[0] = s0 ^ n3;
    s[2] = n2 ^ t;
    s[3] = (n3 << 11) | (n3 >>> 21);
    return result;
  };

  return {
    nextUint32,
    nextFloat: () => nextUint32() / 4294967296,
    nextInt(n: number): number {
      checkRange(n);
      // Reject the top sliver of the 32-bit range that would make small values more likely.
      const limit = 4294967296 - (4294967296 % n);
      let r = nextUint32();
      while (r >= limit) r = nextUint32();
      return r % n;
    },
    fillInt(out: Int32Array, n: number): void {
      checkRange(n);
      if (n > 2147483648) throw new RangeError(`fillInt(out, n): n must be at most 2^31 to fit an Int32Array, got ${n}`);
      const limit = 4294967296 - (4294967296 % n);
      // The generator inlined on local int32 variables, which V8 keeps unboxed.
      let s0 = s[0]!,
        s1 = s[1]!,
        s2 = s[2]!,
        s3 = s[3]!;
      for (let k = 0; k < out.length; k++) {
        let r: number;
        do {
          const m = Math.imul(s1, 5);
          r = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
          const t = s1 << 9;
          const n2 = s2 ^ s0;
          const n3 = s3 ^ s1;
          s1 = s1 ^ n2;
          s0 = s0 ^ n3;
          s2 = n2 ^ t;
          s3 = (n3 << 11) | (n3 >>> 21);
        } while (r >= limit);
        // r % n without V8's slow floating remainder for values above 2^31; the quotient
        // can only be rounded up (n > 2^20), which the correction undoes.
        let i = r - Math.floor(r / n) * n;
        if (i < 0) i += n;
        out[k] = i;
      }
      s[0] = s0;
      s[1] = s1;
      s[2] = s2;
      s[3] = s3;
    },
  };
}

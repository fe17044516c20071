/**
 * The draws of a bootstrap, made once and applied to any number of value vectors.
 *
 * Why a plan: at paper scale (7,458 cases × 10,000 resamples × 288 cells) summing every
 * draw is 2·10^10 additions. A resample of m items is fully described by how often each item
 * was drawn (w_i ≥ 0, Σ w = m), and w_i = [w_i ≥ 1] + [w_i ≥ 2] + max(w_i − 2, 0). The two
 * indicator layers are stored as one byte per 8 items, so a cell's resampled sum is one
 * lookup per 8 items per layer into a table of that cell's subset sums, plus the rare items
 * drawn three or more times (≈ 8 % of items). That is about a third of the work of summing
 * draws, and the random-number generation is shared by every cell resampled with the plan.
 *
 * Memory: about items × resamples bytes (75 MB at paper scale), held while the plan lives.
 *
 * Draws: resample r takes m draws `rng.nextInt(m)` (xoshiro128**, unbiased rejection), in
 * order, resample after resample. Two vectors of equal length resampled with the same seed
 * therefore see the same resamples, whichever function or batch they go through.
 */
import { createRng } from './rng.ts';

export interface ResamplePlan {
  /** Items per resample (cases, or clusters). */
  readonly items: number;
  readonly resamples: number;
  /** ceil(items / 8): items are grouped in bytes of 8. */
  readonly groups: number;
  /** [group * resamples + r]: bit j is set when item 8·group + j was drawn at least once. */
  readonly once: Uint8Array;
  /** Same layout: bit j set when the item was drawn at least twice. */
  readonly twice: Uint8Array;
  /** Items drawn three or more times in resample r are extraItem[extraStart[r] .. extraStart[r+1]). */
  readonly extraStart: Int32Array;
  readonly extraItem: Int32Array;
  /** w − 2 for each extra item. */
  readonly extraTimes: Int32Array;
}

/**
 * The plan for (items, resamples, seed), made once: the leaderboard's paired differences and the
 * summary's cells mostly share a case count, and making a plan costs several times applying it.
 * The last two plans are kept (each about items × resamples bytes, and read only).
 */
const recent: { id: string; plan: ResamplePlan }[] = [];
const KEPT_PLANS = 2;

export function makeResamplePlan(items: number, resamples: number, seed: number): ResamplePlan {
  const id = `${items}:${resamples}:${seed}`;
  const hit = recent.find((p) => p.id === id);
  if (hit) return hit.plan;
  const plan = buildResamplePlan(items, resamples, seed);
  recent.unshift({ id, plan });
  recent.length = Math.min(recent.length, KEPT_PLANS);
  return plan;
}

function buildResamplePlan(items: number, resamples: number, seed: number): ResamplePlan {
  if (!Number.isInteger(items) || items < 1) throw new RangeError(`resample plan: need at least one item to resample, got ${items}`);
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new RangeError(`resample plan: resamples must be a positive integer, got ${resamples}`);
  if (!Number.isInteger(seed)) throw new RangeError(`resample plan: seed must be an integer, got ${seed}`);
  const rng = createRng(seed);
  const groups = Math.ceil(items / 8);
  const once = new Uint8Array(groups * resamples);
  const twice = new Uint8Array(groups * resamples);
  const extraStart = new Int32Array(resamples + 1);
  let extraItem = new Int32Array(Math.max(16, Math.ceil(items * resamples * 0.09)));
  let extraTimes = new Int32Array(extraItem.length);
  let nExtra = 0;
  const draws = new Int32Array(items);
  const counts = new Int32Array(groups * 8);

  for (let r = 0; r < resamples; r++) {
    rng.fillInt(draws, items);
    countDraws(draws, counts);
    if (extraItem.length - nExtra < items) {
      const grownItem = new Int32Array(extraItem.length * 2 + items);
      grownItem.set(extraItem);
      extraItem = grownItem;
      const grownTimes = new Int32Array(grownItem.length);
      grownTimes.set(extraTimes);
      extraTimes = grownTimes;
    }
    nExtra = encodeCounts(counts, r, resamples, once, twice, extraItem, extraTimes, nExtra);
    extraStart[r + 1] = nExtra;
  }
  return {
    items,
    resamples,
    groups,
    once,
    twice,
    extraStart,
    extraItem: extraItem.subarray(0, nExtra),
    extraTimes: extraTimes.subarray(0, nExtra),
  };
}

function countDraws(draws: Int32Array, counts: Int32Array): void {
  for (let k = 0; k < draws.length; k++) counts[draws[k]!]++;
}

/** Writes resample r's bytes and extras, zeroes `counts`, returns the new number of extras. */
function encodeCounts(
  counts: Int32Array,
  r: number,
  resamples: number,
  once: Uint8Array,
  twice: Uint8Array,
  extraItem: Int32Array,
  extraTimes: Int32Array,
  nExtra: number,
): number {
  const groups = counts.length >> 3;
  for (let g = 0; g < groups; g++) {
    let b1 = 0,
      b2 = 0;
    for (let j = 0; j < 8; j++) {
      const i = (g << 3) + j;
      const w = counts[i]!;
      // Branch-free bits: -w < 0 iff w ≥ 1, 1 − w < 0 iff w ≥ 2.
      b1 |= (-w >>> 31) << j;
      b2 |= ((1 - w) >>> 31) << j;
      if (w >= 3) {
        extraItem[nExtra] = i;
        extraTimes[nExtra] = w - 2;
        nExtra++;
      }
    }
    once[g * resamples + r] = b1;
    twice[g * resamples + r] = b2;
  }
  counts.fill(0);
  return nExtra;
}

const LANES = 4;

/**
 * Σ_i w_ri · v_i for every resample r of the plan and every vector v (each of length
 * plan.items). Each vector's sums are computed in an order that does not depend on which
 * other vectors share the call, so batching never changes a result.
 */
export function resampledSums(vectors: readonly Float64Array[], plan: ResamplePlan): Float64Array[] {
  for (const [k, v] of vectors.entries()) {
    if (v.length !== plan.items) {
      throw new RangeError(
        `resampledSums: vector ${k} has ${v.length} values but the plan resamples ${plan.items} items; make the plan for this length`,
      );
    }
  }
  const out: Float64Array[] = [];
  const { groups, resamples: B, once, twice, extraStart, extraItem, extraTimes } = plan;
  const table = new Float64Array(groups * 256 * LANES);
  const acc = new Float64Array(B * LANES);
  const zeros = new Float64Array(plan.items);
  // The lanes' values side by side: an extra item's four values share one cache line.
  const interleaved = new Float64Array(plan.items * LANES);

  for (let first = 0; first < vectors.length; first += LANES) {
    // A vector alone (the leaderboard's paired differences, one at a time) takes the one-lane
    // kernels: the same sums in the same order, without three lanes of zeros beside it.
    if (first === vectors.length - 1) {
      out.push(oneVectorSums(vectors[first]!, plan));
      break;
    }
    const lane: Float64Array[] = [];
    for (let c = 0; c < LANES; c++) lane.push(vectors[first + c] ?? zeros);
    fillSubsetSums(table, groups, plan.items, lane[0]!, lane[1]!, lane[2]!, lane[3]!);
    acc.fill(0);
    addLayers(acc, table, groups, B, once, twice);
    for (let i = 0; i < plan.items; i++) {
      const o = i * LANES;
      interleaved[o] = lane[0]![i]!;
      interleaved[o + 1] = lane[1]![i]!;
      interleaved[o + 2] = lane[2]![i]!;
      interleaved[o + 3] = lane[3]![i]!;
    }
    addExtras(acc, B, extraStart, extraItem, extraTimes, interleaved);
    for (let c = 0; c < LANES && first + c < vectors.length; c++) {
      const sums = new Float64Array(B);
      for (let r = 0; r < B; r++) sums[r] = acc[r * LANES + c]!;
      out.push(sums);
    }
  }
  return out;
}

// The kernels are small separate functions so V8 optimises each loop on its own.

/** table[(g·256 + byte)·LANES + lane] = Σ of the lane's values of group g's items in `byte`. */
function fillSubsetSums(
  table: Float64Array,
  groups: number,
  items: number,
  v0: Float64Array,
  v1: Float64Array,
  v2: Float64Array,
  v3: Float64Array,
): void {
  for (let g = 0; g < groups; g++) {
    const base = g * 256 * LANES;
    table[base] = 0;
    table[base + 1] = 0;
    table[base + 2] = 0;
    table[base + 3] = 0;
    for (let byte = 1; byte < 256; byte++) {
      // Each subset sum extends the one without its lowest item by that item's value.
      const low = byte & -byte;
      const i = g * 8 + (31 - Math.clz32(low));
      const from = base + (byte ^ low) * LANES,
        to = base + byte * LANES;
      const inRange = i < items;
      table[to] = table[from]! + (inRange ? v0[i]! : 0);
      table[to + 1] = table[from + 1]! + (inRange ? v1[i]! : 0);
      table[to + 2] = table[from + 2]! + (inRange ? v2[i]! : 0);
      table[to + 3] = table[from + 3]! + (inRange ? v3[i]! : 0);
    }
  }
}

/** acc[r·LANES + lane] += Σ_g (table[once byte] + table[twice byte]), group by group. */
function addLayers(acc: Float64Array, table: Float64Array, groups: number, B: number, once: Uint8Array, twice: Uint8Array): void {
  for (let g = 0; g < groups; g++) {
    const base = g * 256 * LANES,
      m = g * B;
    for (let r = 0; r < B; r++) {
      const a = base + once[m + r]! * LANES,
        b = base + twice[m + r]! * LANES,
        o = r * LANES;
      acc[o] = acc[o]! + (table[a]! + table[b]!);
      acc[o + 1] = acc[o + 1]! + (table[a + 1]! + table[b + 1]!);
      acc[o + 2] = acc[o + 2]! + (table[a + 2]! + table[b + 2]!);
      acc[o + 3] = acc[o + 3]! + (table[a + 3]! + table[b + 3]!);
    }
  }
}

/** acc += (w − 2)·v for the items drawn three or more times; `values` holds the lanes interleaved. */
function addExtras(
  acc: Float64Array,
  B: number,
  extraStart: Int32Array,
  extraItem: Int32Array,
  extraTimes: Int32Array,
  values: Float64Array,
): void {
  for (let r = 0; r < B; r++) {
    const o = r * LANES;
    let s0 = acc[o]!,
      s1 = acc[o + 1]!,
      s2 = acc[o + 2]!,
      s3 = acc[o + 3]!;
    for (let e = extraStart[r]!, end = extraStart[r + 1]!; e < end; e++) {
      const i = extraItem[e]! * LANES,
        t = extraTimes[e]!;
      s0 += t * values[i]!;
      s1 += t * values[i + 1]!;
      s2 += t * values[i + 2]!;
      s3 += t * values[i + 3]!;
    }
    acc[o] = s0;
    acc[o + 1] = s1;
    acc[o + 2] = s2;
    acc[o + 3] = s3;
  }
}

/** resampledSums of one vector: each step is its lane's of the four-lane kernels above. */
function oneVectorSums(v: Float64Array, plan: ResamplePlan): Float64Array {
  const { groups, resamples: B, once, twice, extraStart, extraItem, extraTimes } = plan;
  const table = new Float64Array(groups * 256);
  for (let g = 0; g < groups; g++) {
    const base = g * 256;
    for (let byte = 1; byte < 256; byte++) {
      const low = byte & -byte;
      const i = g * 8 + (31 - Math.clz32(low));
      table[base + byte] = table[base + (byte ^ low)]! + (i < plan.items ? v[i]! : 0);
    }
  }
  const acc = new Float64Array(B);
  for (let g = 0; g < groups; g++) {
    const base = g * 256,
      m = g * B;
    for (let r = 0; r < B; r++) acc[r] = acc[r]! + (table[base + once[m + r]!]! + table[base + twice[m + r]!]!);
  }
  for (let r = 0; r < B; r++) {
    let s0 = acc[r]!;
    for (let e = extraStart[r]!, end = extraStart[r + 1]!; e < end; e++) s0 += extraTimes[e]! * v[extraItem[e]!]!;
    acc[r] = s0;
  }
  return acc;
}

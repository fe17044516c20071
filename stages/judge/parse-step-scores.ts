/**
 * Reads a step-level judge answer (Prompts 5 and 8) into the m×n Likert matrix, and turns the
 * five runs' matrices into the consistency matrix C of the paper (§3.3: "averaged over five
 * repeated runs", then "normalize[d] … to the range of [0,1]").
 *
 * What counts is the set of pairs, not the layout: every "R<i>-C<j>: <score>" anywhere in the
 * answer (after reasoning blocks are dropped) is read, whatever separates the pairs (commas,
 * semicolons, tabs, line breaks) and whatever commentary lines surround them. Tolerated
 * spellings: bold and backticks, spaces inside a pair ("R1 - C2 : 4"), en/em dashes or none
 * between the labels, "=" for ":", full-width characters (NFKC), lower case.
 * A matrix is returned only if every pair (Ri, Cj), 1 ≤ i ≤ m, 1 ≤ j ≤ n, appears exactly once
 * with an integer score 1–5 and no label is out of range; otherwise the problems are listed, each
 * phrased so it can be pasted into a re-ask message.
 */
import { stripReasoning } from '../../pipeline/llm/structured.ts';

export type StepScoreParse = { ok: true; scores: Float64Array } | { ok: false; problems: string[] };

const PAIR = /(?<![A-Za-z0-9])R\s*(\d+)\s*[-–—−‑_]?\s*C\s*(\d+)\s*[:=]\s*([+-]?\d+(?:\.\d+)?)?/gi;
const MAX_LISTED = 20;

function listed(labels: string[]): string {
  if (labels.length <= MAX_LISTED) return labels.join(', ');
  return `${labels.slice(0, MAX_LISTED).join(', ')} … (${labels.length - MAX_LISTED} more)`;
}

function checkSize(m: number, n: number): void {
  for (const [name, v] of [['m', m], ['n', n]] as const) {
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(`pathway length ${name} = ${v} must be an integer ≥ 1; an empty pathway has nothing to score, so do not ask the judge`);
    }
  }
}

/** Likert scores 1..5, row-major m×n (row i = reference step R(i+1)), or the problems found. */
export function parseStepScores(raw: string, m: number, n: number): StepScoreParse {
  checkSize(m, n);
  const text = stripReasoning(raw).normalize('NFKC').replace(/\*\*|__|`/g, '');
  const scores = new Float64Array(m * n).fill(Number.NaN);
  const seen = new Uint8Array(m * n);
  const outOfRange = new Set<string>();
  const duplicates: string[] = [];
  const bad: string[] = [];
  const noScore: string[] = [];
  let pairsFound = 0;

  for (const match of text.matchAll(PAIR)) {
    pairsFound++;
    const i = Number(match[1]);
    const j = Number(match[2]);
    const label = `R${i}-C${j}`;
    let inRange = true;
    if (i < 1 || i > m) {
      outOfRange.add(`label R${i} out of range 1..${m}`);
      inRange = false;
    }
    if (j < 1 || j > n) {
      outOfRange.add(`label C${j} out of range 1..${n}`);
      inRange = false;
    }
    if (!inRange) continue;
    const k = (i - 1) * n + (j - 1);
    seen[k]++;
    if (seen[k] === 2) duplicates.push(`duplicate pair ${label}`);
    if (match[3] === undefined) {
      noScore.push(label);
      continue;
    }
    const s = Number(match[3]);
    if (!Number.isInteger(s)) bad.push(`score ${match[3]} for ${label} is not an integer in 1–5`);
    else if (s < 1 || s > 5) bad.push(`score ${match[3]} for ${label} is not in 1–5`);
    else if (seen[k] === 1) scores[k] = s;
  }

  if (pairsFound === 0) {
    return { ok: false, problems: [`no pairs of the form R<i>-C<j>: <score> found; expected ${m} × ${n} = ${m * n} pairs`] };
  }
  const missing: string[] = [];
  for (let k = 0; k < m * n; k++) if (seen[k] === 0) missing.push(`R${Math.floor(k / n) + 1}-C${(k % n) + 1}`);
  const problems = [
    ...outOfRange,
    ...duplicates,
    ...bad,
    ...(noScore.length ? [`no score for ${listed(noScore)}`] : []),
    ...(missing.length ? [`missing pairs: ${listed(missing)}`] : []),
  ];
  return problems.length ? { ok: false, problems } : { ok: true, scores };
}

/**
 * Maps Likert 1..5 linearly onto 0..1 as (s − 1)/4, so 1 (unrelated) → 0 and 5 (same decision)
 * → 1, and an average of runs maps to the average of their normalised values. Values outside
 * [1, 5] are refused: they mean a matrix that did not come from a validated parse.
 */
export function normaliseLikert(likert: Float64Array): Float64Array {
  const out = new Float64Array(likert.length);
  for (let k = 0; k < likert.length; k++) {
    const s = likert[k];
    if (!(s >= 1 && s <= 5)) throw new RangeError(`Likert score ${s} at index ${k} is not in [1, 5]; normalise only parsed (and averaged) judge scores`);
    out[k] = (s - 1) / 4;
  }
  return out;
}

/** Element-wise mean of the judge's runs (the paper averages five) over matrices of one shape. */
export function averageRuns(runs: readonly Float64Array[]): Float64Array {
  if (runs.length === 0) throw new RangeError('averageRuns needs at least one run; every judge run failed to parse, so there is nothing to average');
  const size = runs[0].length;
  const out = new Float64Array(size);
  runs.forEach((r, idx) => {
    if (r.length !== size) throw new RangeError(`run ${idx} has ${r.length} scores but run 0 has ${size}; runs must score the same m×n pairs`);
    for (let k = 0; k < size; k++) out[k] += r[k];
  });
  for (let k = 0; k < size; k++) out[k] /= runs.length;
  return out;
}

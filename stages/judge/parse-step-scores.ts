/**
 * Reads a step-level judge answer (Prompts 5 and 8) into the m×n Likert matrix, and turns the
 * five runs' matrices into the consistency matrix C of the paper (§3.3: "averaged over five
 * repeated runs", then "normalize[d] … to the range of [0,1]").
 *
 * What counts is the set of pairs, not the layout. Read anywhere in the answer (after reasoning
 * blocks and fences are dropped, full-width characters folded and emphasis removed):
 * - "R<i>-C<j>: <score>" with any separator between pairs, spaces inside ("R1 - C2 : 4"), en/em
 *   dashes or none between the labels, "=" for ":", any case, and JSON's quotes ({"R1-C1": 5});
 * - tuples "(R1, C1): 5";
 * - rows "R1: C1=5, C2=2" (also JSON {"R1": {"C1": 5}}): a C-label pair belongs to the last
 *   R-label heading before it;
 * - a markdown table with C1…Cn as column headings and R1…Rm as row labels (or transposed), or
 *   with a pair and its score in adjacent cells ("| R1-C1 | 5 |").
 * Lines that start with an explanation label ("Explanation:", "Note:", "Reason:", "解释：") are
 * commentary: pairs they mention are not read. A pair mentioned again with the same score or with
 * none is a mention, not a duplicate ('repeated-pair'); a pair given two different scores is a
 * fault naming the pair.
 * A matrix is returned only if every pair (Ri, Cj), 1 ≤ i ≤ m, 1 ≤ j ≤ n, has one integer score
 * 1–5 and no label is out of range; otherwise the problems are listed, each phrased so it can be
 * pasted into a re-ask message. Half points ("4.5") are refused, not rounded: the prompt's scale
 * is the integers 1–5, and rounding would be our guess. A truncated answer (finish_reason
 * "length") is refused as such. `format` is 'strict' when the answer is exactly m lines
 * "R<i>-C1: s, …, R<i>-Cn: s" in order, otherwise its variants (answer-format.ts).
 */
import { type AnswerFormat, foldWidth, formatOf, type FormatVariant, prepareAnswer } from '../../pipeline/stage.ts';

export type StepScoreParse = { ok: true; scores: Float64Array; format: AnswerFormat } | { ok: false; problems: string[] };

const SCORE = '([+-]?\\d+(?:\\.\\d+)?)';
/** Alternatives in priority order at each position: a full pair, a row heading, a C-only pair. */
const TOKENS = new RegExp(
  [
    `(?<![A-Za-z0-9])\\(?\\s*R\\s*(\\d+)\\s*(?:[-–—−‑_,]\\s*)?C\\s*(\\d+)\\s*\\)?\\s*"?\\s*[:=|]\\s*${SCORE}?`,
    '(?<![A-Za-z0-9])R\\s*(\\d+)\\s*"?\\s*[:=]\\s*\\{?',
    // A C-label score must end its item, so an echoed "C1: 38.5 °C fever" is not read as a score.
    `(?<![A-Za-z0-9])C\\s*(\\d+)\\s*"?\\s*[:=]\\s*(?:${SCORE}(?=\\s*(?:\\/\\s*5)?\\s*(?:[,;|})]|$)))?`,
  ].join('|'),
  'gim',
);
const EXPLANATION =
  /^\s*(?:[-*>]\s*)?(?:explanations?|notes?|reason(?:ing)?|rationale|justifications?|comments?|解释|说明|理由|备注|注)\s*[:：]/i;
const MAX_LISTED = 20;

interface Pair {
  i: number;
  j: number;
  score?: string;
}

function listed(labels: string[]): string {
  if (labels.length <= MAX_LISTED) return labels.join(', ');
  return `${labels.slice(0, MAX_LISTED).join(', ')} … (${labels.length - MAX_LISTED} more)`;
}

function checkSize(m: number, n: number): void {
  for (const [name, v] of [
    ['m', m],
    ['n', n],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(
        `pathway length ${name} = ${v} must be an integer ≥ 1; an empty pathway has nothing to score, so do not ask the judge`,
      );
    }
  }
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

/** Pairs of a markdown table with labelled rows and columns; null when `lines` hold no such table. */
function tablePairs(lines: readonly string[]): Pair[] | null {
  const pairs: Pair[] = [];
  let header: Array<{ kind: 'R' | 'C'; k: number } | null> | null = null;
  for (const line of lines) {
    if (!/^\s*\|/.test(line)) {
      header = null;
      continue;
    }
    const cells = cellsOf(line);
    if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) continue;
    const labels = cells.map((c) => {
      const m = /^([RC])\s*(\d+)$/i.exec(c);
      return m ? { kind: m[1].toUpperCase() as 'R' | 'C', k: Number(m[2]) } : null;
    });
    if (header === null && labels.slice(1).some((l) => l !== null)) {
      header = labels;
      continue;
    }
    if (header === null) continue;
    const row = /^([RC])\s*(\d+)\b/i.exec(cells[0]);
    if (!row) continue;
    cells.slice(1).forEach((cell, c) => {
      const col = header![c + 1];
      if (!col || col.kind === row[1].toUpperCase()) return;
      const score = /^([+-]?\d+(?:\.\d+)?)(?:\s*\/\s*5)?$/.exec(cell)?.[1];
      const [i, j] = col.kind === 'C' ? [Number(row[2]), col.k] : [col.k, Number(row[2])];
      pairs.push({ i, j, ...(score !== undefined ? { score } : {}) });
    });
  }
  return pairs.length ? pairs : null;
}

/** Pairs written as labels and scores in running text, line by line. */
function textPairs(lines: readonly string[], skip: (at: number) => boolean): { pairs: Pair[]; pairLines: number[]; grouped: boolean } {
  const pairs: Pair[] = [];
  const pairLines: number[] = [];
  let row: number | null = null;
  let grouped = false;
  lines.forEach((line, at) => {
    if (skip(at)) return;
    const before = pairs.length;
    for (const t of line.matchAll(TOKENS)) {
      if (t[1] !== undefined) pairs.push({ i: Number(t[1]), j: Number(t[2]), ...(t[3] !== undefined ? { score: t[3] } : {}) });
      else if (t[4] !== undefined) row = Number(t[4]);
      else if (t[5] !== undefined && row !== null && t[6] !== undefined) {
        grouped = true;
        pairs.push({ i: row, j: Number(t[5]), score: t[6] });
      }
    }
    if (pairs.slice(before).some((p) => p.score !== undefined)) pairLines.push(at);
  });
  return { pairs, pairLines, grouped };
}

/** Likert scores 1..5, row-major m×n (row i = reference step R(i+1)), or the problems found. */
export function parseStepScores(raw: string, m: number, n: number, finishReason?: string | null): StepScoreParse {
  checkSize(m, n);
  const strict = finishReason == null || finishReason === 'stop' ? strictScores(raw, m, n) : null;
  return strict ? { ok: true, scores: strict, format: formatOf([]) } : readAnyLayout(raw, m, n, finishReason);
}

/** The integer at `at` if it is exactly `k` (no leading zero, not followed by a digit): the index after it, else -1. */
function integerAt(s: string, at: number, k: number): number {
  // Read by character codes: no string is made for a label, a million answers over.
  if (s.charCodeAt(at) === 48) return -1;
  let v = 0;
  let end = at;
  for (let c = s.charCodeAt(end); c >= 48 && c <= 57; c = s.charCodeAt(++end)) v = v * 10 + (c - 48);
  return end > at && v === k ? end : -1;
}

/**
 * The strict layout read directly: exactly m lines "R<i>-C1: s, …, R<i>-Cn: s", in order, each
 * s a digit 1–5, and nothing else. Null for any other answer, which the general reader takes;
 * for these the general reader gives the same scores and format (parse-step-scores.test.ts), it
 * only costs more (a judge's five repeats of a 27 × 27 matrix, a million times at the paper's size).
 */
function strictScores(raw: string, m: number, n: number): Float64Array | null {
  const scores = new Float64Array(m * n);
  let at = 0;
  for (let i = 1; i <= m; i++) {
    if (i > 1 && raw.charCodeAt(at++) !== 10) return null;
    for (let j = 1; j <= n; j++) {
      if (j > 1 && !(raw.charCodeAt(at++) === 44 && raw.charCodeAt(at++) === 32)) return null;
      if (raw.charCodeAt(at++) !== 82) return null; // R
      if ((at = integerAt(raw, at, i)) < 0) return null;
      if (raw.charCodeAt(at++) !== 45 || raw.charCodeAt(at++) !== 67) return null; // -C
      if ((at = integerAt(raw, at, j)) < 0) return null;
      if (raw.charCodeAt(at++) !== 58 || raw.charCodeAt(at++) !== 32) return null; // ': '
      const s = raw.charCodeAt(at++) - 48;
      if (s < 1 || s > 5) return null;
      scores[(i - 1) * n + (j - 1)] = s;
    }
  }
  return at === raw.length ? scores : null;
}

/** Any layout the module header lists: the pairs wherever they are, the problems, the format's variants. */
export function readAnyLayout(raw: string, m: number, n: number, finishReason?: string | null): StepScoreParse {
  checkSize(m, n);
  const none = `no pairs of the form R<i>-C<j>: <score> found; expected ${m} × ${n} = ${m * n} pairs`;
  const prepared = prepareAnswer(raw, finishReason);
  if (!prepared.ok) {
    return { ok: false, problems: [/empty/.test(prepared.reason) && !/reasoning|fence/.test(prepared.reason) ? none : prepared.reason] };
  }
  const variants: FormatVariant[] = [...prepared.variants];
  const folded = foldWidth(prepared.text);
  if (folded.fullWidth) variants.push('full-width');
  const text = folded.text.replace(/\*\*|__|`/g, '');
  if (text !== folded.text) variants.push('bold-marker');

  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const explanation = lines.map((l) => EXPLANATION.test(l));
  const table = tablePairs(lines.filter((_, k) => !explanation[k]));
  const isTableLine = (k: number): boolean => table !== null && /^\s*\|/.test(lines[k]);
  const read = textPairs(lines, (k) => explanation[k] || isTableLine(k));
  const pairs = [...(table ?? []), ...read.pairs];
  if (table || read.grouped) variants.push('score-layout');
  if (pairs.length === 0) return { ok: false, problems: [none] };

  const scores = new Float64Array(m * n).fill(Number.NaN);
  const given: Array<string | undefined> = new Array(m * n).fill(undefined);
  const mentioned = new Uint8Array(m * n);
  const outOfRange = new Set<string>();
  const duplicates: string[] = [];
  const bad: string[] = [];
  for (const { i, j, score } of pairs) {
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
    const label = `R${i}-C${j}`;
    if (mentioned[k]) variants.push('repeated-pair');
    mentioned[k] = 1;
    if (score === undefined) continue;
    const earlier = given[k];
    if (earlier !== undefined) {
      if (Number(earlier) !== Number(score)) duplicates.push(`duplicate pair ${label} with different scores (${earlier} and ${score})`);
      continue;
    }
    given[k] = score;
    const s = Number(score);
    if (!Number.isInteger(s)) bad.push(`score ${score} for ${label} is not an integer in 1–5`);
    else if (s < 1 || s > 5) bad.push(`score ${score} for ${label} is not in 1–5`);
    else scores[k] = s;
  }

  const noScore: string[] = [];
  const missing: string[] = [];
  for (let k = 0; k < m * n; k++) {
    const label = `R${Math.floor(k / n) + 1}-C${(k % n) + 1}`;
    if (!mentioned[k]) missing.push(label);
    else if (given[k] === undefined) noScore.push(label);
  }
  const problems = [
    ...outOfRange,
    ...duplicates,
    ...bad,
    ...(noScore.length ? [`no score for ${listed(noScore)}`] : []),
    ...(missing.length ? [`missing pairs: ${listed(missing)}`] : []),
  ];
  if (problems.length) return { ok: false, problems };

  // Lines that are neither pairs nor the table are commentary: a preamble before the first, a note after.
  const holdsPairs = new Set(read.pairLines);
  const first = lines.findIndex((_, k) => holdsPairs.has(k) || isTableLine(k));
  const pipeRows = read.pairLines.some((k) => /^\s*\|/.test(lines[k])); // "| R1-C1 | 5 |": header rows are layout
  lines.forEach((line, k) => {
    if (holdsPairs.has(k) || isTableLine(k) || (pipeRows && /^\s*\|/.test(line))) return;
    variants.push(k < first ? 'preamble' : 'trailing-note');
  });
  if (!table && !read.grouped) {
    const canonical = Array.from({ length: m }, (_, i) =>
      Array.from({ length: n }, (_, j) => `R${i + 1}-C${j + 1}: ${given[i * n + j]}`).join(', '),
    ).join('\n');
    const written = read.pairLines.map((k) => lines[k].trim()).join('\n');
    if (written !== canonical) variants.push(written.toLowerCase() === canonical.toLowerCase() ? 'case' : 'score-layout');
  }
  return { ok: true, scores, format: formatOf(variants) };
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
    if (!(s >= 1 && s <= 5))
      throw new RangeError(`Likert score ${s} at index ${k} is not in [1, 5]; normalise only parsed (and averaged) judge scores`);
    out[k] = (s - 1) / 4;
  }
  return out;
}

/** Element-wise mean of the judge's runs (the paper averages five) over matrices of one shape. */
export function averageRuns(runs: readonly Float64Array[]): Float64Array {
  if (runs.length === 0)
    throw new RangeError('averageRuns needs at least one run; every judge run failed to parse, so there is nothing to average');
  const size = runs[0].length;
  const out = new Float64Array(size);
  runs.forEach((r, idx) => {
    if (r.length !== size)
      throw new RangeError(`run ${idx} has ${r.length} scores but run 0 has ${size}; runs must score the same m×n pairs`);
    for (let k = 0; k < size; k++) out[k] += r[k];
  });
  for (let k = 0; k < size; k++) out[k] /= runs.length;
  return out;
}

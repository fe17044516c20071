/**
 * Reads the outcome judge's answer (Prompt 9: "Output only a single integer (1–5)").
 *
 * After reasoning blocks are dropped and full-width characters folded (NFKC), the scale itself is
 * removed wherever it is echoed — "/5", "out of 5", "(1–5)", "1-5", "1 to 5" — and the remaining
 * numbers are read. Valid: one distinct integer, in 1..5, possibly repeated ("4\nScore: 4").
 * Invalid: no number, a fraction ("4.5"), several different numbers ("3 or 4", "Score: 4. It
 * misses 2 criteria."), or an integer outside 1..5.
 */
import { stripReasoning } from '../../pipeline/llm/structured.ts';

export type OutcomeScoreParse = { ok: true; score: 1 | 2 | 3 | 4 | 5 } | { ok: false; reason: string };

const SCALE_ECHOES = [
  /\(\s*1\s*(?:[-–—~]|to)\s*5\s*\)/gi,
  /(?<![\d.])1\s*(?:[-–—~]|to)\s*5(?![\d.])/gi,
  /\/\s*5(?![\d.])/g,
  /\bout\s+of\s+5(?![\d.])/gi,
  /满分\s*5\s*分?/g,
];
const NUMBER = /(?<![\d.])\d+(?:\.\d+)?(?![\d])/g;

export function parseOutcomeScore(raw: string): OutcomeScoreParse {
  let text = stripReasoning(raw).normalize('NFKC').replace(/\*\*|__|`/g, '').trim();
  if (text === '') return { ok: false, reason: 'the answer is empty; output a single integer 1–5' };
  for (const re of SCALE_ECHOES) text = text.replace(re, ' ');
  const numbers = [...text.matchAll(NUMBER)].map((m) => m[0]);
  if (numbers.length === 0) return { ok: false, reason: 'the answer holds no score; output a single integer 1–5' };
  const fraction = numbers.find((s) => s.includes('.'));
  if (fraction !== undefined) return { ok: false, reason: `${fraction} is not an integer score; output a single integer 1–5` };
  const distinct = [...new Set(numbers.map(Number))];
  if (distinct.length > 1) {
    return { ok: false, reason: `the answer holds several different numbers (${distinct.join(', ')}); output a single integer 1–5` };
  }
  const s = distinct[0];
  if (s < 1 || s > 5) return { ok: false, reason: `score ${s} is not in 1–5` };
  return { ok: true, score: s as 1 | 2 | 3 | 4 | 5 };
}

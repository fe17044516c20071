/**
 * Reads the outcome judge's answer (Prompt 9: "Output only a single integer (1–5)").
 *
 * After reasoning blocks and fences are dropped, full-width characters folded (NFKC) and emphasis
 * removed, the scale is removed wherever it is echoed — "/5", "out of 5", "(1–5)", "1-5", "1 to 5"
 * — and the score is read from a score position:
 * 1. a line that holds only a number ("4", then an explanation in a later paragraph), or a number
 *    after a score label ("Score: 4", "Rating: 4/5", "Consistency (1–5): 5", "评分：4"); all such
 *    numbers must agree;
 * 2. failing that, the first sentence or line that holds a number, which must hold one number
 *    ("I would rate this a 4.").
 * Text around the score is a preamble or a trailing note and is dropped: "4\n\nThe candidate omits
 * 2 key elements." scores 4, not 2.
 * Faults: empty, truncated, only reasoning, no number, several different scores in score
 * positions ("3 or 4"), a fraction, or an integer outside 1..5. Half points ("4.5") are refused
 * rather than rounded: Prompt 9 asks for an integer, and either rounding would be our guess at
 * the judge's meaning; the re-ask asks for the integer.
 */
import { type AnswerFormat, foldWidth, formatOf, type FormatVariant, prepareAnswer } from '../../pipeline/stage.ts';

export type OutcomeScoreParse = { ok: true; score: 1 | 2 | 3 | 4 | 5; format: AnswerFormat } | { ok: false; reason: string };

const ASK = 'output a single integer 1–5';
const SCALE_ECHOES = [
  /\(\s*1\s*(?:[-–—~]|to)\s*5\s*\)/gi,
  /(?<![\d.])1\s*(?:[-–—~]|to)\s*5(?!\d|\.\d)/gi,
  /\s*\/\s*5(?!\d|\.\d)/g,
  /\s*\bout\s+of\s+5(?!\d|\.\d)/gi,
  /满分\s*5\s*分?/g,
];
const NUMBER = /(?<![\d.])\d+(?:\.\d+)?(?![\d])/g;
const ALONE = /^[\s>*#-]*(\d+(?:\.\d+)?)\s*[.!。分]?\s*$/gm;
const LABELLED = /(score|rating|consistency|grade|评分|得分|分数|一致性)[ \t]*(?:is|of|=|:)?[ \t]*(\d+(?:\.\d+)?)(?![\d])/gi;

interface Hit {
  value: string;
  start: number;
  end: number;
}

function judge(hits: Hit[], text: string, variants: FormatVariant[], fallback: boolean): OutcomeScoreParse {
  const fraction = hits.find((h) => h.value.includes('.'));
  if (fraction) return { ok: false, reason: `${fraction.value} is not an integer score (half points are not on the scale); ${ASK}` };
  const distinct = [...new Set(hits.map((h) => Number(h.value)))];
  if (distinct.length > 1) {
    const what = fallback ? 'several different numbers' : 'several different scores';
    return { ok: false, reason: `the answer holds ${what} (${distinct.join(', ')}); ${ASK}` };
  }
  const s = distinct[0];
  if (s < 1 || s > 5) return { ok: false, reason: `score ${s} is not in 1–5; ${ASK}` };
  const start = Math.min(...hits.map((h) => h.start));
  const end = Math.max(...hits.map((h) => h.end));
  if (/[\p{L}\p{N}]/u.test(text.slice(0, start))) variants.push('preamble');
  if (/[\p{L}\p{N}]/u.test(text.slice(end))) variants.push('trailing-note');
  return { ok: true, score: s as 1 | 2 | 3 | 4 | 5, format: formatOf(variants) };
}

export function parseOutcomeScore(raw: string, finishReason?: string | null): OutcomeScoreParse {
  const prepared = prepareAnswer(raw, finishReason);
  if (!prepared.ok) return { ok: false, reason: `${prepared.reason}; ${ASK}` };
  const variants: FormatVariant[] = [...prepared.variants];
  const folded = foldWidth(prepared.text);
  if (folded.fullWidth) variants.push('full-width');
  let text = folded.text.replace(/\*\*|__|`/g, '');
  if (text !== folded.text) variants.push('bold-marker');
  text = text.trim();
  if (text === '') return { ok: false, reason: `the answer is empty; ${ASK}` };
  if (/^[1-5]$/.test(text)) return { ok: true, score: Number(text) as 1 | 2 | 3 | 4 | 5, format: formatOf(variants) };

  const echoed = SCALE_ECHOES.reduce((t, re) => t.replace(re, ' '), text);
  if (echoed !== text) variants.push('scale-echo');
  text = echoed;

  const hits: Hit[] = [];
  for (const m of text.matchAll(ALONE)) hits.push({ value: m[1], start: m.index!, end: m.index! + m[0].length });
  for (const m of text.matchAll(LABELLED)) {
    hits.push({ value: m[2], start: m.index!, end: m.index! + m[0].length });
    variants.push('score-label');
    if (/\p{Script=Han}/u.test(m[1])) variants.push('chinese-marker');
  }
  if (hits.length) return judge(hits, text, variants, false);

  let offset = 0;
  for (const segment of text.split(/(\n+|(?<=[.!?。！？])\s+)/)) {
    const numbers = [...segment.matchAll(NUMBER)];
    if (numbers.length) {
      return judge(
        numbers.map((m) => ({ value: m[0], start: offset + m.index!, end: offset + m.index! + m[0].length })),
        text,
        variants,
        true,
      );
    }
    offset += segment.length;
  }
  return { ok: false, reason: `the answer holds no score; ${ASK}` };
}

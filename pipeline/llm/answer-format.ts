/**
 * The vocabulary every answer reader uses to say how an accepted answer departed from the format
 * its prompt requires, so that strict figures (exactly the required format) can be computed beside
 * lenient ones (readable variants accepted) from the same rows.
 *
 * An accepted answer's `format` is `'strict'` or its variant labels, sorted and joined with '+'
 * ("bold-marker+markdown-heading"). A rejected answer has no format: it has a reason. The labels
 * describe text, not content, which is why they live with the LLM helpers (every reader, in
 * stages/tasks, stages/judge and stages/construct, imports them from here without a folder cycle).
 */

export const FORMAT_VARIANTS = {
  'think-block': 'a <think>…</think> (or <thinking>, <reasoning>) block was dropped',
  fence: 'the answer was wrapped in a ``` code fence',
  preamble: 'text before the answer was dropped ("Sure! Here is…")',
  'trailing-note': 'text after the answer was dropped ("Note: …", an explanation after the score)',
  'markdown-heading': 'a heading at another level: other # marks, none where ### was asked for, or # where none was',
  'heading-synonym': 'another wording of the required heading or marker ("Final Outcome", "Conclusion", "Final Answer")',
  'bold-marker': 'markdown emphasis (**…**, __…__, backticks) around markers or the answer',
  'chinese-marker': 'the Chinese form of a required heading, marker or word (最终结论, 结论, 是, 有的, 评分)',
  'full-width': 'full-width punctuation or letters (：，Ｙｅｓ)',
  case: 'the required words in another letter case',
  separator: 'another separator after a marker (" - ", none, or the text on the next line)',
  quotes: 'the answer wrapped in quotes',
  'missing-heading': 'a required heading left out (numbered steps without "Clinical Decision Process:")',
  'section-order': 'the required sections in another order (the outcome before the process)',
  'list-style': 'steps numbered or bulleted in another style than "1." ("Step 1:", "1)", "-", a table)',
  'label-prefix': 'a label before the answer ("A:", "Answer:", "Question:")',
  'extra-words': 'words after a one-word answer ("No, I have not.")',
  'yes-no-synonym': 'another way of saying yes or no ("Yeah", "Nope", "I believe so", "有的")',
  'score-layout': 'judge pairs in another layout (a table, JSON, "(R1, C1): 5", "R1: C1=5, C2=2", not one line per step)',
  'repeated-pair': 'a score pair mentioned again with the same score or none (an explanation line)',
  'scale-echo': 'the scale repeated with the score ("4/5", "out of 5", "(1–5)")',
  'score-label': 'a label before the score ("Score:", "Rating:", "评分：")',
  'python-literal': 'a Python literal where JSON was asked for (single quotes, True/False/None): a "dictionary" as Python prints it',
  'key-synonym': 'a dictionary key in another spelling or wording ("Supporting Text", "supportingText", "evidence" for supporting_text)',
  'german-marker': 'the German form of a required key or word (Bewertung, Begründung, Konfidenz, ja)',
  'confidence-word': 'a confidence given as a word ("high", "高", "hoch") instead of a number: kept as the word',
  percent: 'a proportion written as a percentage ("90%", or 90 on a 0–100 scale, for 0.9)',
  'lenient-json:trailing-comma': 'a comma before } or ]',
  'lenient-json:comment': '// or /* */ comments in the JSON',
  'lenient-json:string-number': 'a number written as a string ("index": "1") or a mapping key spelled " 1" or "1.0"',
  'lenient-json:string-boolean': 'a boolean written as a string ("leaf": "true")',
  'lenient-json:focus-case': 'a clinical focus in another case ("Management")',
  'lenient-json:implied-leaf': 'a leaf written without "leaf": true (it has a conclusion and no children)',
} as const;

export type FormatVariant = keyof typeof FORMAT_VARIANTS;

/** What an accepted answer records: 'strict' or the '+'-joined variant labels. */
export type AnswerFormat = string;

export const STRICT = 'strict';

/** The format string of a set of variants: 'strict' when there are none. */
export function formatOf(variants: Iterable<FormatVariant>): AnswerFormat {
  const labels = [...new Set(variants)].sort();
  return labels.length === 0 ? STRICT : labels.join('+');
}

/** The variant labels of a format string ('strict' → none); unknown labels are refused. */
export function variantsOf(format: AnswerFormat): FormatVariant[] {
  if (format === STRICT) return [];
  return format.split('+').map((label) => {
    if (!Object.hasOwn(FORMAT_VARIANTS, label)) {
      const where = 'the labels are in pipeline/llm/answer-format.ts';
      throw new RangeError(`unknown answer-format label ${JSON.stringify(label)} in ${JSON.stringify(format)}; ${where}`);
    }
    return label as FormatVariant;
  });
}

/** The reason a reader gives for an answer the API reports as cut off, or null when it was not. */
export function truncationReason(finishReason: string | null | undefined): string | null {
  if (finishReason === 'length') {
    return 'truncated answer (finish_reason: length): cut off at the output token limit; answer again, complete and more concisely';
  }
  if (finishReason === 'content_filter') return 'answer cut off by the content filter (finish_reason: content_filter)';
  return null;
}

/**
 * Full-width ASCII forms (U+FF01–FF5E, and the ideographic space) folded to ASCII, one code unit
 * for one, so offsets in the folded text are offsets in the original. Nothing else is folded
 * ("℃" stays). `fullWidth` is true only when the text has no Han characters: in Chinese text
 * "：" and "，" are the norm, not a departure from the format.
 */
export function foldWidth(text: string): { text: string; fullWidth: boolean } {
  const folded = text.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');
  return { text: folded, fullWidth: folded !== text && !/\p{Script=Han}/u.test(text) };
}

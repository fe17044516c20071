/**
 * Unicode-aware word tokens for the lexical similarity judges (token F1 and TF-IDF).
 *
 * Steps: NFKC (full-width letters, digits and punctuation fold to their ASCII forms), then
 * lower case (locale-independent), then tokens are read left to right as
 * - one token per CJK ideograph or kana (Han, Hiragana, Katakana): Chinese and Japanese are
 *   written without spaces, and single characters keep overlap visible between paraphrases
 *   where bigrams would miss it on short steps ("发热" vs "高热" share "热");
 * - a number, with its decimal part ("38.5", "1,000"), split from a following unit ("5mg" →
 *   "5", "mg") so a value matches whatever unit spelling follows;
 * - a run of other letters, marks and digits (Latin, Greek, Cyrillic, Hangul, …): "covid19",
 *   "β", "hba1c";
 * - a comparison or percent sign (< > ≤ ≥ = ≠ ± %), because thresholds carry decision logic:
 *   "≥ 38" and "< 38" should not look identical.
 * Everything else (spaces, punctuation) separates tokens.
 *
 * Stop words. By default a short list of English function words and Chinese particles is
 * dropped (DEFAULT_STOP_WORDS, from stages/language/stop-words.ts): they fill every step ("Does the patient have…", "的") and would
 * make unrelated steps look alike. Negations ("no", "not", "without", "不", "无", "未") are
 * deliberately kept: they flip a decision. Pass `stopWords: null` to keep every token, or a
 * set of your own.
 */
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS, JUDGE_EXTRA_STOP_WORDS } from '../../language/stop-words.ts';

export const DEFAULT_STOP_WORDS: ReadonlySet<string> = new Set([...ENGLISH_STOP_WORDS, ...JUDGE_EXTRA_STOP_WORDS, ...CHINESE_STOP_WORDS]);

export interface TokeniseOptions {
  /** Tokens to drop after lower-casing; null keeps all (default DEFAULT_STOP_WORDS). */
  stopWords?: ReadonlySet<string> | null;
}

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}`;
const TOKEN = new RegExp(
  [`[${CJK}]`, String.raw`\p{N}+(?:[.,]\p{N}+)*`, String.raw`(?:(?![${CJK}])[\p{L}\p{M}\p{N}])+`, '[<>≤≥=≠±%]'].join('|'),
  'gu',
);

export function tokenise(text: string, options: TokeniseOptions = {}): string[] {
  const stop = options.stopWords === undefined ? DEFAULT_STOP_WORDS : options.stopWords;
  const tokens = text.normalize('NFKC').toLowerCase().match(TOKEN) ?? [];
  return stop ? tokens.filter((t) => !stop.has(t)) : tokens;
}

/** Token → count. */
export function countBag(tokens: readonly string[]): Map<string, number> {
  const bag = new Map<string, number>();
  for (const t of tokens) bag.set(t, (bag.get(t) ?? 0) + 1);
  return bag;
}

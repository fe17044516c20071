/**
 * The benchmark's stop words, one list per language, for its lexical matching: the similarity
 * judges' tokens (agents/judges/tokenise.ts) and the indicator words construction reads thresholds and
 * QC terms by (construct/numeric-threshold.ts). A use takes its language's list and adds, by
 * name, the words that use also ignores; every English word either use drops is in this file.
 * Negations ("no", "not", "without", 不, 无, 未) are in no list: they flip a decision.
 *
 * The extras are kept as the uses had them, so that no vignette, score or report changed when
 * the lists were brought together: dropping "as" from indicator words, for instance, would
 * change the key of "type 2 diabetes as comorbidity", and dropping "should" from the judges'
 * tokens their overlap scores.
 */

/** English function words: articles, prepositions, and/or, be/have/do, this/that, it, there, any. */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  ...['a', 'an', 'the'],
  ...['of', 'to', 'in', 'on', 'at', 'for', 'by', 'with', 'from'],
  ...['and', 'or'],
  ...['is', 'are', 'was', 'were', 'be', 'been', 'being', 'does', 'do', 'did', 'has', 'have', 'had'],
  ...['this', 'that', 'it', 'there', 'any'],
];

/** Chinese structural particles and conjunctions, as single characters (the judges tokenise Chinese by character). */
export const CHINESE_STOP_WORDS: readonly string[] = ['的', '了', '是', '在', '和', '与', '及', '或', '吗', '呢'];

/** More function words the similarity judges drop: they fill steps and say nothing of the decision. */
export const JUDGE_EXTRA_STOP_WORDS: readonly string[] = ['as', 'into', 'these', 'those', 'its', 'which'];

/**
 * Words that name no clinical indicator, dropped from indicator phrases ("the patient's total
 * cholesterol level" → "cholesterol"): modals, than, possessives, the patient, and the words of
 * measuring (level, value, reading, result, current, total…).
 */
export const INDICATOR_EXTRA_STOP_WORDS: readonly string[] = [
  ...['can', 'could', 'will', 'would', 'should', 'than', 'their', 'his', 'her'],
  ...['patient', "patient's", 'patients', "patients'"],
  ...['level', 'levels', 'value', 'values', 'measured', 'current', 'currently', 'still', 'total', 'reading', 'readings', 'result'],
];

/**
 * The auxiliaries an English yes/no question opens with ("Is…", "Does…", "Can…"): not stop words
 * but the same closed class, read by construct/reference-questions.ts to tell a question from a
 * statement.
 */
export const ENGLISH_QUESTION_AUXILIARIES: readonly string[] = [
  ...['is', 'are', 'was', 'were', 'am', 'does', 'do', 'did', 'has', 'have', 'had'],
  ...['can', 'could', 'should', 'will', 'would', 'may', 'might', 'must', 'shall'],
];

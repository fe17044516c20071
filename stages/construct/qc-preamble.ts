/**
 * Text about the text, left in a vignette or a narrative statement: a model's preamble ("Here is
 * the clinical case vignette:", "**Case Vignette:**", "以下是病例简介："), a reasoning block
 * (<think>…</think>) or meta-commentary ("I have avoided revealing the pathway", "Let me know if…",
 * "Word count: 120"). The writers' readers strip what they can before storing; whatever remains is
 * shown to the model under test, so QC flags it (issue 11 item 5).
 *
 * The heuristics are deliberately narrow — phrases no case description uses — because a flag
 * removes the case from the task settings:
 * - anywhere: a <think>/<thinking>/<reasoning> tag; "as an AI"; "I hope this"; "let me know";
 *   "word count"; "this/the above vignette|narrative|case description"; "I have / I've written,
 *   created, included, ensured, avoided, omitted, kept"; "without revealing"; Chinese 希望这, 如需,
 *   字数, 以上(是)?(病例|案例|叙述), 该(病例)?简介;
 * - at the start: "Here is/are", "Here's", "Below is", "Sure", "Certainly", "Of course", "Okay",
 *   "As requested"; a label line "(Clinical) (Case) Vignette:" / "Narrative:" / "Reasoning
 *   Narrative:" (with a colon, in bold, or as a heading line of its own); Chinese 以下是, 下面是, 好的, 当然,
 *   and a label 病例简介/临床病例/病例摘要/病例描述/案例 followed by "：".
 */

const THINK = /<\/?(?:think|thinking|reasoning)>/i;
const META_EN = new RegExp(
  [
    '\\bas an ai\\b',
    '\\bi hope this\\b',
    '\\blet me know\\b',
    '\\bword count\\b',
    '\\bwithout revealing\\b',
    '\\b(?:this|the above)\\s+(?:clinical\\s+)?(?:case\\s+)?(?:vignette|narrative|case description)\\b',
    "\\bi(?: have|'ve|’ve)\\s+(?:written|created|included|ensured|avoided|omitted|kept)\\b",
  ].join('|'),
  'i',
);
const META_ZH = /希望这|如需|字数|以上(?:是)?(?:病例|案例|叙述)|该(?:病例)?简介/;
const START_EN = /^(?:here(?:'s|’s|\s+is|\s+are)|below\s+is|sure\b|certainly\b|of course\b|okay\b|as requested\b)/i;
const LABEL_WORDS = '(?:(?:the\\s+)?(?:clinical\\s+)?(?:case\\s+)?vignette|(?:reasoning\\s+)?narrative)';
// A label is followed by a colon, closed by its bold marks, or a heading line of its own.
const LABEL_EN = new RegExp(
  [
    `^(?:[*_]{2})?\\s*${LABEL_WORDS}\\s*(?:[*_]{2})?\\s*[:：]`,
    `^[*_]{2}\\s*${LABEL_WORDS}\\s*[*_]{2}`,
    `^#{1,6}\\s*${LABEL_WORDS}\\s*$`,
  ].join('|'),
  'im',
);
const START_ZH = /^(?:以下是|下面是|好的|当然)/;
const LABEL_ZH = /^(?:#{1,6}\s*)?(?:\*\*)?\s*(?:病例简介|临床病例|病例摘要|病例描述|案例)\s*(?:\*\*)?\s*[:：]/;

const CHECKS: readonly [RegExp, 'anywhere' | 'start'][] = [
  [THINK, 'anywhere'],
  [META_EN, 'anywhere'],
  [META_ZH, 'anywhere'],
  [START_EN, 'start'],
  [LABEL_EN, 'start'],
  [START_ZH, 'start'],
  [LABEL_ZH, 'start'],
];

/** The offending phrase in `text`, or null when there is none. */
export function metaCommentary(text: string): string | null {
  const start = text.trimStart();
  for (const [re, where] of CHECKS) {
    const hit = re.exec(where === 'anywhere' ? text : start);
    if (hit) return hit[0].trim();
  }
  return null;
}

/**
 * Reads a case-vignette answer (Prompt 2): plain narrative prose about one patient. Accepted after
 * dropping what a human reader skips without doubt — a `<think>` block, a lead-in line ("Here is
 * the clinical case vignette:", "**Case Vignette:**", "以下是病例："), quotes around the whole
 * text — each recorded as a `format` variant. Rejected, with the reason stated for the re-ask: a
 * truncated answer (finish_reason), an empty one, a refusal or apology ("I'm sorry", "I cannot",
 * "抱歉"), code fences or JSON (a vignette is prose), and a lead-in with nothing after it.
 */
import { type AnswerFormat, formatOf, type FormatVariant, prepareAnswer, truncationReason } from '../../pipeline/stage.ts';

export type VignetteParse = { ok: true; vignette: string; format: AnswerFormat } | { ok: false; reason: string };

// A lead-in line: an announcement ending in a colon, or a bare "Case Vignette" title, in markdown or not.
const MARKUP = String.raw`(?:#{1,6}\s*)?(?:\*\*|__)?\s*`;
const CLOSE = String.raw`\s*(?:\*\*|__)?\s*`;
const ANNOUNCE = String.raw`(?:(?:sure|certainly|okay|of course)[!,.]?\s*)?(?:here(?:'s| is)|below is|this is)\b[^\n]{0,80}?:`;
const TITLE = String.raw`(?:the\s+)?(?:clinical\s+)?case\s+vignette\s*:?|vignette\s*:`;
const LEAD_IN_EN = new RegExp(`^${MARKUP}(?:${ANNOUNCE}|${TITLE})${CLOSE}`, 'i');
const LEAD_IN_ZH = new RegExp(`^${MARKUP}(?:以下是[^\\n]{0,30}?[：:]|(?:临床)?(?:病例|案例)(?:描述|摘要|情景)?[：:])${CLOSE}`);
const REFUSALS = [
  String.raw`i['’]m sorry`,
  'i am sorry',
  'sorry[,!]',
  'i apologi[sz]e',
  'i cannot',
  String.raw`i can['’]t`,
  'i can not',
  'i am unable',
  String.raw`i['’]m unable`,
  String.raw`as an ai\b`,
  'unfortunately,? i',
  '抱歉',
  '对不起',
  '很抱歉',
  '我无法',
  '我不能',
];
const REFUSAL = new RegExp(String.raw`^(?:\*\*)?\s*(?:${REFUSALS.join('|')})`, 'i');

export function parseVignette(text: string, finishReason?: string | null): VignetteParse {
  const truncated = truncationReason(finishReason);
  if (truncated) return { ok: false, reason: truncated };
  const variants: FormatVariant[] = [];
  // Fences are a fault here, not a wrapper: look before prepareAnswer drops their lines.
  if (/^\s*(```|~~~)/m.test(text)) {
    return { ok: false, reason: 'the answer contains a code fence; write the vignette as plain narrative prose, with no code or JSON' };
  }
  const prepared = prepareAnswer(text, finishReason);
  if (!prepared.ok) return { ok: false, reason: prepared.reason };
  variants.push(...prepared.variants);
  let body = prepared.text;
  if (REFUSAL.test(body)) {
    // The reason names the fault without quoting the answer: reasons travel into downstream rows.
    return { ok: false, reason: 'the answer begins with a refusal or apology, not a case vignette; write the vignette itself' };
  }
  const lead = LEAD_IN_EN.exec(body) ?? LEAD_IN_ZH.exec(body);
  if (lead && lead[0].length > 0) {
    body = body.slice(lead[0].length).trim();
    variants.push('preamble');
    if (body === '') return { ok: false, reason: 'the answer is only a lead-in line ("Here is the vignette:") with no vignette after it' };
  }
  if (/^[{[]/.test(body)) {
    return { ok: false, reason: 'the answer is JSON (it starts with "{" or "["); write the vignette as plain narrative prose' };
  }
  const quoted = /^(["“])([\s\S]+)(["”])$/.exec(body);
  if (quoted && !/["“”]/.test(quoted[2]!)) {
    body = quoted[2]!.trim();
    variants.push('quotes');
  }
  return { ok: true, vignette: body, format: formatOf(variants) };
}

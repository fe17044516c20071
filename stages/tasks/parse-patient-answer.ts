/**
 * Reads the simulated patient's reply (Prompt 7: "exactly one word: "Yes" or "No"").
 *
 * The reply is cut into clauses at punctuation and at "and"/"but"/"or"; fillers ("Well,", "Um")
 * are skipped. The first clause decides:
 * - "Yes"/"No" in any case, or a word or phrase that says the same without doubt ("Yeah", "Yep",
 *   "Correct", "I believe so" / "Nope", "Nah", "Never", "Not really", "I don't think so"). "Sure"
 *   is not among them: it opens preambles ("Sure! No.", read as No) as often as it answers;
 * - Chinese: 是 / 是的 / 对 / 有 / 有的 / 嗯 → Yes, 否 / 不是 / 不 / 没 / 没有 / 无 → No, as the
 *   whole clause, or 是的 / 有的 / 不是 / 没有 followed by more ("没有发热"); "有点" is not "有".
 * Later clauses are extra words and are dropped, unless one of them is a bare answer of the other
 * polarity ("No — well, yes, sometimes.", "Yes and no."): both asserted is a fault. Words that
 * merely contain "no" ("Yes, I have no other complaints.") assert nothing.
 * Faults: empty, truncated, only reasoning, an uncertain reply ("maybe", "I don't know", "不知道"),
 * or a first clause that is not an answer. Each reason ends with what to reply.
 * Accepted replies record `format`: 'strict' for "Yes"/"No" (a closing full stop or "!" is still
 * one word), otherwise the variants (answer-format.ts).
 */
import { type AnswerFormat, foldWidth, formatOf, type FormatVariant, prepareAnswer } from '../../pipeline/stage.ts';

export type PatientAnswer = { ok: true; answer: 'Yes' | 'No'; format: AnswerFormat } | { ok: false; reason: string };

const REPLY = 'reply with exactly "Yes" or "No"';
const FILLER = /^(?:well|um+|uh+|hmm+|oh|ah|actually|honestly|so|and|but|or|i mean|嗯嗯|呃|哦)$/i;
const ACK = /^(?:sure|ok|okay|alright|all right)$/i;
const CLAUSES = /[,，;；.。!！?？、:：…]+|\s[-–—]+\s|[–—]+|\s+(?:and|but|or)\s+/i;
const alternatives = (words: string[], anchorEnd: boolean): RegExp => new RegExp(`^(?:${words.join('|')})${anchorEnd ? '$' : ''}`, 'i');
const UNCERTAIN = alternatives(
  [
    'maybe',
    'perhaps',
    'possibly',
    'probably',
    'not sure',
    'unsure',
    "i(?:'m| am) not sure",
    "i (?:don't|do not) know",
    "i can(?:'t|not) say",
    'hard to say',
    'it depends',
    'sometimes',
    '不知道',
    '不清楚',
    '不确定',
    '说不准',
    '不太清楚',
    '可能',
    '也许',
    '或许',
    '有时',
  ],
  false,
);
const EN_YES = alternatives(
  [
    'yes',
    'yeah',
    'yep',
    'yup',
    'correct',
    'indeed',
    'affirmative',
    'absolutely',
    'definitely',
    'certainly',
    'of course',
    "that(?:'s| is) (?:right|correct)",
    'i (?:believe|think) so',
  ],
  true,
);
const EN_NO = /^(?:no|nope|nah|negative|never|not really|not at all|i (?:don't|do not) (?:think|believe) so)$/i;
const ZH_YES = new Set(['是', '是的', '对', '对的', '有', '有的', '嗯', '是啊', '对啊', '有啊']);
const ZH_NO = new Set(['否', '不是', '不', '没', '没有', '无', '不对', '没有的', '没有啊']);
const ZH_LEADING = /^(是的|有的|不是|没有)/;

type Polarity = { answer: 'Yes' | 'No'; variants: FormatVariant[] };

/** The answer a clause gives, leading words only ("yes" of "yes I have"), or null. */
function polarityOf(clause: string): Polarity | null {
  if (ZH_YES.has(clause)) return { answer: 'Yes', variants: ['chinese-marker'] };
  if (ZH_NO.has(clause)) return { answer: 'No', variants: ['chinese-marker'] };
  const zh = ZH_LEADING.exec(clause);
  if (zh) return { answer: zh[1] === '是的' || zh[1] === '有的' ? 'Yes' : 'No', variants: ['chinese-marker', 'extra-words'] };
  const words = clause.split(/\s+/);
  for (let n = Math.min(5, words.length); n >= 1; n--) {
    const lead = words.slice(0, n).join(' ').replace(/[’]/g, "'");
    const yes = EN_YES.test(lead);
    if (!yes && !EN_NO.test(lead)) continue;
    const answer = yes ? 'Yes' : 'No';
    const variants: FormatVariant[] = [];
    if (!/^(?:yes|no)$/i.test(lead)) variants.push('yes-no-synonym');
    else if (lead !== answer) variants.push('case');
    if (n < words.length) variants.push('extra-words');
    return { answer, variants };
  }
  return null;
}

/** A clause that is nothing but an answer word ("yes", "no", "是"), for the both-asserted check. */
function bareAnswer(clause: string): 'Yes' | 'No' | null {
  const p = polarityOf(clause);
  return p && !p.variants.includes('extra-words') ? p.answer : null;
}

export function parsePatientAnswer(raw: string, finishReason?: string | null): PatientAnswer {
  const prepared = prepareAnswer(raw, finishReason);
  if (!prepared.ok) return { ok: false, reason: `${prepared.reason}; ${REPLY}` };
  const variants: FormatVariant[] = [...prepared.variants];
  const folded = foldWidth(prepared.text);
  if (folded.fullWidth) variants.push('full-width');
  let text = folded.text;
  const unmarked = text.replace(/[*_`]/g, '');
  if (unmarked !== text) variants.push('bold-marker');
  text = unmarked.trim();
  const unquoted = text.replace(/^["“”‘’「」『』']+|["“”‘’「」『』']+$/g, '').trim();
  if (unquoted !== text) variants.push('quotes');
  text = unquoted;
  const unlabelled = text.replace(/^(?:a|answer|patient|reply|回答|答|患者)\s*[:：]\s*/i, '');
  if (unlabelled !== text) variants.push('label-prefix');
  text = unlabelled.trim();
  if (text === '') return { ok: false, reason: `the answer is empty; ${REPLY}` };

  const clauses = text
    .split(CLAUSES)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  // "Sure! No." / "OK, yes": an acknowledgement before the answer is a preamble.
  const firstAt = clauses.findIndex((c, k) => !FILLER.test(c) && !(ACK.test(c) && k < clauses.length - 1));
  if (firstAt < 0) return { ok: false, reason: `the answer "${text.slice(0, 60)}" says neither Yes nor No; ${REPLY}` };
  if (firstAt > 0) variants.push('preamble');
  const first = clauses[firstAt];
  if (UNCERTAIN.test(first)) {
    return { ok: false, reason: `the answer "${text.slice(0, 60)}" does not start with Yes or No: it is uncertain; ${REPLY}` };
  }
  const p = polarityOf(first);
  if (!p) return { ok: false, reason: `the answer "${text.slice(0, 60)}" does not start with Yes or No; ${REPLY}` };
  variants.push(...p.variants);
  const rest = clauses.slice(firstAt + 1).filter((c) => !FILLER.test(c));
  if (rest.some((c) => bareAnswer(c) !== null && bareAnswer(c) !== p.answer)) {
    return { ok: false, reason: `the answer holds both Yes and No; ${REPLY}` };
  }
  if (rest.length > 0) variants.push('extra-words');
  return { ok: true, answer: p.answer, format: formatOf(variants) };
}

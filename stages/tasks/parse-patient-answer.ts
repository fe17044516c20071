/**
 * Reads the simulated patient's reply (Prompt 7: "exactly one word: "Yes" or "No"").
 *
 * Tolerated: reasoning blocks, quotes, bold/italic, trailing punctuation, an "Answer:" label,
 * any case, full-width letters, and words after the Yes/No ("No, I have not.") as long as they do
 * not contain the opposite word. Chinese replies a zh template would produce are read too:
 * 是 / 是的 / 对 / 有 → Yes and 否 / 不是 / 不 / 没有 / 无 → No, when the reply starts with one of
 * them followed by punctuation, a space or nothing ("有点" is not "有").
 * Invalid: empty, not starting with Yes/No, or holding both ("Yes and no").
 */
import { stripReasoning } from '../../pipeline/llm/structured.ts';

export type PatientAnswer = { ok: true; answer: 'Yes' | 'No' } | { ok: false; reason: string };

const ZH = /^(不是|是的|没有|是|对|有|否|不|无)(?=$|[\s,，。.!！;；、])/;
const ZH_YES = new Set(['是的', '是', '对', '有']);

export function parsePatientAnswer(raw: string): PatientAnswer {
  const text = stripReasoning(raw)
    .normalize('NFKC')
    .replace(/[*_`"“”‘’「」『』]/g, '')
    .trim()
    .replace(/^'+|'+$/g, '')
    .replace(/^(?:answer|patient|回答|患者)\s*:\s*/i, '')
    .trim();
  if (text === '') return { ok: false, reason: 'the answer is empty; reply with exactly "Yes" or "No"' };

  const zh = ZH.exec(text);
  if (zh) return { ok: true, answer: ZH_YES.has(zh[1]) ? 'Yes' : 'No' };

  const first = /^[^\p{L}\p{N}]*(\p{L}+)/u.exec(text)?.[1].toLowerCase();
  if (first !== 'yes' && first !== 'no') {
    return { ok: false, reason: `the answer "${text.slice(0, 60)}" does not start with Yes or No; reply with exactly "Yes" or "No"` };
  }
  const opposite = first === 'yes' ? /\bno\b/i : /\byes\b/i;
  if (opposite.test(text)) return { ok: false, reason: 'the answer holds both Yes and No; reply with exactly one of them' };
  return { ok: true, answer: first === 'yes' ? 'Yes' : 'No' };
}

/**
 * Reads one doctor turn of the multi-turn setting (Prompt 6). Rule 12 allows only "one Yes/No
 * question, OR the Final Conclusion in the exact specified format".
 *
 * The rules, in order (after dropping reasoning blocks, code fences, bold/italic markers):
 * 1. Empty → invalid.
 * 2. A conclusion marker is "Final Conclusion" (any case) or "最终结论", followed by a colon
 *    (":" or "："). More than one marker → invalid. With one marker, the conclusion is the text
 *    after it, stripped of surrounding quotes (the paper's own ’…’ included) and with whitespace
 *    folded. It is invalid when empty, or when the turn also holds a question mark anywhere
 *    (before the marker or inside the conclusion): a turn is a question or a conclusion, never
 *    both. Prose before the marker that asks nothing is tolerated and dropped.
 * 3. Otherwise the turn must hold exactly one question: one run of question marks ("?", "？";
 *    "??" counts once). None → invalid (no question mark and no conclusion); two or more →
 *    invalid (several questions). The question is the line holding the mark, from its start to
 *    the mark, without a leading label ("Question:", "Question 3:", "Doctor:", "Q:", "问题："), list marker or
 *    quotes. Other lines, which ask nothing, are tolerated and dropped.
 * Whether the question is really answerable by Yes/No, or assesses exactly one criterion, is a
 * judgement left to the evaluation, not to parsing.
 */
import { stripReasoning } from '../../pipeline/llm/structured.ts';

export type DoctorTurn =
  | { kind: 'question'; question: string }
  | { kind: 'conclusion'; conclusion: string }
  | { kind: 'invalid'; reason: string };

const QUOTES = `"'“”‘’「」『』\``;
const EDGE_QUOTES = new RegExp(`^[\\s${QUOTES}]+|[\\s${QUOTES}]+$`, 'g');
const MARKER = /final\s+conclusion\s*[:：]|最终结论\s*[:：]/gi;
const QUESTION_MARKS = /[?？]+/g;

function unquote(s: string): string {
  return s.replace(EDGE_QUOTES, '');
}

export function parseDoctorTurn(raw: string): DoctorTurn {
  const text = stripReasoning(raw)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((l) => !/^\s*```/.test(l))
    .join('\n')
    .replace(/\*\*|__/g, '')
    .trim();
  if (text === '') return { kind: 'invalid', reason: 'the turn is empty; reply with one Yes/No question or "Final Conclusion: …"' };

  const markers = [...text.matchAll(MARKER)];
  if (markers.length > 1) {
    return { kind: 'invalid', reason: `the turn holds ${markers.length} "Final Conclusion:" markers; give exactly one conclusion` };
  }
  const questionCount = (text.match(QUESTION_MARKS) ?? []).length;
  if (markers.length === 1) {
    const at = markers[0].index!;
    const conclusion = unquote(text.slice(at + markers[0][0].length)).replace(/\s+/g, ' ');
    if (questionCount > 0) {
      return { kind: 'invalid', reason: 'the turn holds both a question and a "Final Conclusion:"; give one or the other' };
    }
    if (conclusion === '') return { kind: 'invalid', reason: '"Final Conclusion:" is followed by no conclusion' };
    return { kind: 'conclusion', conclusion };
  }

  if (questionCount === 0) {
    return { kind: 'invalid', reason: 'the turn has no question mark and no "Final Conclusion:"; ask one Yes/No question or give the final conclusion' };
  }
  if (questionCount > 1) {
    return { kind: 'invalid', reason: `the turn asks ${questionCount} questions; ask exactly one question at a time` };
  }
  const line = text.split('\n').find((l) => /[?？]/.test(l))!;
  const upToMark = line.slice(0, line.search(/[?？]/)) + line.match(/[?？]+/)![0].slice(0, 1);
  const question = unquote(
    upToMark
      .trim()
      .replace(/^(?:[-*•]\s+|\d{1,3}[.)]\s*)/, '')
      .replace(/^(?:question|doctor|q)\s*\d*\s*[:：]\s*|^(?:问题|医生)\s*\d*\s*[:：]\s*/i, '')
      .replace(/^[-*•]\s+/, ''),
  );
  if (question.replace(/[?？\s]/g, '') === '') return { kind: 'invalid', reason: 'the question mark follows no question' };
  return { kind: 'question', question };
}

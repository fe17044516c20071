/**
 * Reads one doctor turn of the multi-turn setting (Prompt 6). Rule 12 allows only "one Yes/No
 * question, OR the Final Conclusion in the exact specified format".
 *
 * The rules, in order (after dropping reasoning blocks and code fences, folding full-width forms,
 * and removing bold/italic markers):
 * 1. Empty, only reasoning, or truncated (finish_reason "length") → invalid.
 * 2. A conclusion marker is "Final Conclusion" (any case) or "最终结论" followed by ":"/"："
 *    anywhere; or, at the start of a line (after "#", ">" or quotes), "Final Conclusion",
 *    "Final Clinical Conclusion", "Final Answer", "Final Decision", "Conclusion", "最终结论" or
 *    "结论" followed by a colon, a dash, or nothing (the conclusion then on the next lines:
 *    "**Final Conclusion**\nStart amoxicillin."). More than one marker → invalid. The conclusion
 *    is the marker's paragraph after the marker (up to a blank line or a "Note:" line), or the
 *    first paragraph after a marker alone on its line; later paragraphs are a trailing note and
 *    are dropped. It is stripped of surrounding quotes (the paper's own ’…’ included) and its
 *    whitespace folded. Invalid when empty, or when the turn (outside the dropped note) also holds
 *    a question mark: a turn is a question or a conclusion, never both. Prose before the marker
 *    that asks nothing is tolerated and dropped.
 * 3. Otherwise the turn must hold exactly one question: one run of question marks ("?", "？";
 *    "??" counts once). None → invalid (no question mark and no conclusion); two or more →
 *    invalid (several questions). The question is the line holding the mark, from its start to
 *    the mark, without a leading label ("Question:", "Question 3:", "Doctor:", "Q:", "问题："), list
 *    marker or quotes. Other lines, which ask nothing, are tolerated and dropped.
 * Accepted turns record `format`: 'strict' for exactly "Final Conclusion: …" or a bare one-line
 * question, otherwise the variants (answer-format.ts). Whether the question is really answerable
 * by Yes/No, or assesses exactly one criterion, is a judgement left to the evaluation.
 */
import { type AnswerFormat, foldWidth, formatOf, type FormatVariant, prepareAnswer } from '../../pipeline/stage.ts';

export type DoctorTurn =
  | { kind: 'question'; question: string; format: AnswerFormat }
  | { kind: 'conclusion'; conclusion: string; format: AnswerFormat }
  | { kind: 'invalid'; reason: string };

const QUOTES = `"'“”‘’「」『』\``;
const EDGE_QUOTES = new RegExp(`^[\\s${QUOTES}]+|[\\s${QUOTES}]+$`, 'g');
const ANYWHERE = /final\s+conclusion\s*[:：]|最终结论\s*[:：]/gi;
const MARKER_WORDS = ['final\\s+(?:clinical\\s+)?conclusion', 'final\\s+answer', 'final\\s+decision', 'conclusion', '最终结论', '结论'];
const LINE_START = new RegExp(`^([\\s#>${QUOTES}]*)(${MARKER_WORDS.join('|')})[ \\t]*([:：]|[-–—](?=\\s)|$)`, 'gim');
const NOTE = /^\s*\(?(?:notes?|explanation|disclaimer|注|说明|备注)\s*[:：]/i;
const QUESTION_MARKS = /[?？]+/g;
const ASK = 'reply with one Yes/No question or "Final Conclusion: …"';

function unquote(s: string): string {
  return s.replace(EDGE_QUOTES, '');
}

interface Marker {
  start: number;
  end: number;
  label: string;
  sep: string;
  lineStart: boolean;
  hashes: boolean;
}

/** Every conclusion marker in `text`, de-duplicated where the two patterns found the same one. */
function markersIn(text: string): Marker[] {
  const found: Marker[] = [];
  for (const m of text.matchAll(LINE_START)) {
    const start = m.index! + m[1].length;
    found.push({ start, end: m.index! + m[0].length, label: m[2], sep: m[3], lineStart: true, hashes: m[1].includes('#') });
  }
  for (const m of text.matchAll(ANYWHERE)) {
    if (found.some((f) => f.start === m.index!)) continue;
    found.push({
      start: m.index!,
      end: m.index! + m[0].length,
      label: m[0].replace(/\s*[:：]$/, ''),
      sep: ':',
      lineStart: false,
      hashes: false,
    });
  }
  return found.sort((a, b) => a.start - b.start);
}

function conclusionTurn(text: string, marker: Marker, variants: FormatVariant[]): DoctorTurn {
  const before = text.slice(0, marker.start);
  if (before.replace(new RegExp(`[\\s#>${QUOTES}]`, 'g'), '') !== '') variants.push('preamble');
  else if (/[’'"“”‘]/.test(before)) variants.push('quotes');
  if (marker.hashes) variants.push('markdown-heading');
  const label = marker.label.replace(/\s+/g, ' ');
  if (/\p{Script=Han}/u.test(label)) variants.push('chinese-marker');
  if (!/^(?:final conclusion|最终结论)$/i.test(label)) variants.push('heading-synonym');
  else if (/^final/i.test(label) && label !== 'Final Conclusion') variants.push('case');
  if (!/^[:：]$/.test(marker.sep)) variants.push('separator');

  const after = text.slice(marker.end).split('\n');
  const paragraph: string[] = [];
  let i = 0;
  if (after[0].trim() === '') {
    i = 1;
    while (i < after.length && after[i].trim() === '') i++;
  }
  for (; i < after.length; i++) {
    if (after[i].trim() === '' || (paragraph.length > 0 && NOTE.test(after[i]))) break;
    paragraph.push(after[i]);
  }
  const rest = after.slice(i).join('\n').trim();
  if (rest !== '') variants.push('trailing-note');
  if (paragraph.length > 1) variants.push('separator');
  const raw = paragraph.join(' ');
  const conclusion = unquote(raw).replace(/\s+/g, ' ');
  if (unquote(raw) !== raw.trim() && !variants.includes('quotes')) variants.push('quotes');
  if (/[?？]/.test(before + raw)) {
    return { kind: 'invalid', reason: 'the turn holds both a question and a "Final Conclusion:"; give one or the other' };
  }
  if (conclusion === '')
    return { kind: 'invalid', reason: '"Final Conclusion:" is followed by no conclusion; write the conclusion after the colon' };
  return { kind: 'conclusion', conclusion, format: formatOf(variants) };
}

export function parseDoctorTurn(raw: string, finishReason?: string | null): DoctorTurn {
  const prepared = prepareAnswer(raw, finishReason);
  if (!prepared.ok) return { kind: 'invalid', reason: `${prepared.reason}; ${ASK}` };
  const variants: FormatVariant[] = [...prepared.variants];
  const unmarked = prepared.text.replace(/\*\*|__/g, '');
  if (unmarked !== prepared.text) variants.push('bold-marker');
  // Chinese text keeps its own punctuation (the regexes accept both forms); English text is folded.
  const folded = foldWidth(unmarked);
  if (folded.fullWidth) variants.push('full-width');
  const text = (folded.fullWidth ? folded.text : unmarked).trim();
  if (text === '') return { kind: 'invalid', reason: `the turn is empty; ${ASK}` };

  const markers = markersIn(text);
  if (markers.length > 1) {
    return { kind: 'invalid', reason: `the turn holds ${markers.length} "Final Conclusion:" markers; give exactly one conclusion` };
  }
  if (markers.length === 1) return conclusionTurn(text, markers[0], variants);

  const questionCount = (text.match(QUESTION_MARKS) ?? []).length;
  if (questionCount === 0) {
    return {
      kind: 'invalid',
      reason: 'the turn has no question mark and no "Final Conclusion:"; ask one Yes/No question or give the final conclusion',
    };
  }
  if (questionCount > 1) {
    return { kind: 'invalid', reason: `the turn asks ${questionCount} questions; ask exactly one question at a time` };
  }
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /[?？]/.test(l));
  const line = lines[at];
  if (lines.slice(0, at).some((l) => l.trim() !== '')) variants.push('preamble');
  if (
    lines.slice(at + 1).some((l) => l.trim() !== '') ||
    unquote(line.slice(line.search(/[?？]+/) + line.match(/[?？]+/)![0].length)) !== ''
  ) {
    variants.push('trailing-note');
  }
  const upToMark = line.slice(0, line.search(/[?？]/)) + line.match(/[?？]+/)![0].slice(0, 1);
  let q = upToMark.trim();
  const unlisted = q.replace(/^(?:[-*•]\s+|\d{1,3}[.)]\s*)/, '');
  if (unlisted !== q) variants.push('list-style');
  const unlabelled = unlisted
    .replace(/^(?:question|doctor|q)\s*\d*\s*[:：]\s*|^(?:问题|医生)\s*\d*\s*[:：]\s*/i, '')
    .replace(/^[-*•]\s+/, '');
  if (unlabelled !== unlisted) variants.push('label-prefix');
  q = unquote(unlabelled);
  if (q !== unlabelled) variants.push('quotes');
  if (q.replace(/[?？\s]/g, '') === '')
    return { kind: 'invalid', reason: 'the question mark follows no question; ask one Yes/No question' };
  return { kind: 'question', question: q, format: formatOf(variants) };
}

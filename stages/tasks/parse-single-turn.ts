/**
 * Reads a single-turn answer (Prompt 4) into its decision steps and its outcome.
 *
 * Prompt 4 asks for
 *   ### Clinical Decision Process:
 *   1. …
 *   ### Clinical Decision Outcome: …
 * and models drift from it in predictable ways, all tolerated here:
 * - reasoning blocks (<think>…</think>) and code fences around the answer;
 * - headings at any level or none, in bold, with or without a colon (ASCII or full-width), in
 *   Chinese (临床决策过程/流程, 临床决策结果/结论) as a zh template would produce;
 * - numbering "1." "1)" "1、" "Step 1:" "(1)" "（1）" "一、" "第1步" "①", a bullet list or a table;
 *   bold numbers ("**1.**"); a step's text continued on following lines or in nested sub-items;
 * - stray text before the steps, between the steps and the outcome after a blank line, and
 *   after the outcome's paragraph.
 *
 * Rules, precisely:
 * - The outcome is the last "Clinical Decision Outcome" heading's text: what follows the heading
 *   on its line plus the lines after it up to the first blank line or heading; if the heading line
 *   holds nothing, the first paragraph after it.
 * - The steps are read between the last "Clinical Decision Process" heading before the outcome
 *   and the outcome heading (from the start of the answer if that heading is missing; from a
 *   process heading after the outcome to the end if the model swapped the sections). The first
 *   numbered or bulleted line (or markdown table row "| 1 | … |") fixes the list's style and
 *   indentation; every later line of that style at that indentation starts a step. Other
 *   non-blank lines (nested items of another style included) extend the current step. After the
 *   last step, a paragraph that follows a blank line and is not indented deeper than the list is
 *   commentary and is dropped — unless the last step's line was only a title ("**Step 3:
 *   Allergy**", "3. Allergy:"), whose first paragraph is its body.
 * - parse_ok is false when there is no outcome heading, the outcome is empty, or no step is
 *   found; whatever was found is still returned.
 */
import { stripReasoning } from '../../pipeline/llm/structured.ts';

export type SingleTurnParse =
  | { ok: true; steps: string[]; outcome: string }
  | { ok: false; reason: string; steps?: string[]; outcome?: string };

type SectionKind = 'process' | 'outcome';

const EN_HEADING = /^(?:the\s+|final\s+)?clinical\s+decision(?:[\s-]*making)?\s+(process|outcome)(?:es|s)?/i;
const ZH_HEADING = /^(?:最终)?临床决策(过程|流程|结果|结论)/;

/** Whether a line is a section heading; `rest` is what follows the label on the same line. */
function headingOf(line: string): { kind: SectionKind; rest: string } | null {
  let s = line.trim().replace(/^>\s*/, '');
  const hashes = /^#{1,6}\s*/.exec(s);
  if (hashes) s = s.slice(hashes[0].length);
  s = s.replace(/^[*_]+\s*/, '');
  const en = EN_HEADING.exec(s);
  const zh = en ? null : ZH_HEADING.exec(s);
  const m = en ?? zh;
  if (!m) return null;
  const kind: SectionKind = /process|过程|流程/i.test(m[1]) ? 'process' : 'outcome';
  let rest = s.slice(m[0].length).replace(/^\s*[*_]*\s*/, '');
  const sep = /^[:：\-–—]/.exec(rest);
  // Without '#' or a separator the label is just a sentence that starts with these words.
  if (!hashes && !sep && rest.replace(/[*_\s]/g, '') !== '') return null;
  if (sep) rest = rest.slice(1);
  rest = rest.replace(/^\s*[*_]*\s*/, '').trim();
  return { kind, rest };
}

type MarkerKind = 'number' | 'paren' | 'cjk-number' | 'cjk-step' | 'circled' | 'bullet' | 'table-row';

const MARKERS: ReadonlyArray<[MarkerKind, RegExp]> = [
  ['paren', /^[(（]\s*\d{1,3}\s*[)）]\s*/],
  ['number', /^(?:step\s*)?\d{1,3}(?:[.)、．:：](?!\d)|\s+[-–—]\s|\s*$)\s*/i],
  ['cjk-step', /^第\s*[一二三四五六七八九十百\d]+\s*步\s*[:：、.．]?\s*/],
  ['cjk-number', /^[一二三四五六七八九十]{1,3}\s*[、.．]\s*/],
  ['circled', /^[\u2460-\u2473\u24F5-\u24FE\u2776-\u277F]\s*/],
  ['bullet', /^[-*•·●▪◦]\s+/],
  ['table-row', /^\|\s*(?:step\s*)?\d{1,3}\.?\s*\|/i],
];

function indentOf(line: string): number {
  const lead = /^[ \t]*/.exec(line)![0];
  return lead.replace(/\t/g, '    ').length;
}

/** Markdown emphasis and heading marks carry no content in a step or an outcome. */
function plain(line: string): string {
  return line.replace(/\*\*|__/g, '').replace(/^\s*#{1,6}\s+/, '');
}

interface Marker {
  kind: MarkerKind;
  text: string;
  /** The line names the step but holds none of its content ("**Step 1: Fever**", "1. Fever:"). */
  titleOnly: boolean;
}

function markerOf(line: string): Marker | null {
  const raw = line.trim().replace(/^#{1,6}\s+/, '');
  const s = plain(line).trim();
  for (const [kind, re] of MARKERS) {
    const m = re.exec(s);
    if (!m) continue;
    let text = s.slice(m[0].length);
    if (kind === 'table-row') text = text.replace(/\|\s*$/, '').split('|').map((c) => c.trim()).filter(Boolean).join(' ');
    const titleOnly = text.trim() === '' || /[:：]\s*$/.test(text) || /^\*\*[^*]+\*\*\s*[:：]?$/.test(raw) || /^\S+\s+\*\*[^*]+\*\*\s*[:：]?$/.test(raw);
    return { kind, text, titleOnly };
  }
  return null;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Numbered steps in `lines`, by the rules in the module comment. */
export function readSteps(lines: readonly string[]): string[] {
  const markers = lines.map((l) => (l.trim() === '' ? null : markerOf(l)));
  const first = markers.findIndex((m) => m !== null);
  if (first < 0) return [];
  const kind = markers[first]!.kind;
  const baseIndent = indentOf(lines[first]);
  const starts = markers.map((m, i) => i >= first && m !== null && m.kind === kind && indentOf(lines[i]) <= baseIndent + 1);
  const lastStart = starts.lastIndexOf(true);

  const steps: string[] = [];
  let open = false; // whether non-marker lines still extend the last step
  let awaitingBody = false; // the step line was a title; its first paragraph is its body
  let afterBlank = false;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') {
      afterBlank = true;
      continue;
    }
    const m = markers[i];
    if (starts[i]) {
      steps.push(m!.text);
      open = true;
      awaitingBody = m!.titleOnly;
    } else if (open) {
      // After a blank line, unindented text continues a step only between steps or as the body
      // of a title-only step; after the last step it is commentary.
      if (afterBlank && indentOf(line) <= baseIndent && i > lastStart && !awaitingBody) open = false;
      else {
        steps[steps.length - 1] += ` ${m ? m.text : plain(line)}`;
        awaitingBody = false;
      }
    }
    afterBlank = false;
  }
  return steps.map(clean).filter((s) => s !== '');
}

function readOutcome(lines: readonly string[], headingLine: number, rest: string): string {
  const parts: string[] = [];
  let i = headingLine + 1;
  if (rest === '') {
    while (i < lines.length && lines[i].trim() === '') i++;
  } else {
    parts.push(rest);
  }
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || headingOf(line) || /^\s*#{1,6}\s/.test(line)) break;
    const m = markerOf(line);
    parts.push(m ? m.text : plain(line));
  }
  return clean(plain(parts.join(' '))).replace(/^[*_\s]+|[*_\s]+$/g, '');
}

export function parseSingleTurn(raw: string): SingleTurnParse {
  const text = stripReasoning(raw).replace(/\r\n?/g, '\n');
  if (text.trim() === '') {
    return { ok: false, reason: raw.trim() === '' ? 'the answer is empty' : 'the answer is empty once reasoning blocks are removed' };
  }
  const lines = text.split('\n').filter((l) => !/^\s*```/.test(l));
  const headings = lines.map(headingOf);
  let outcomeAt = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (headings[i]?.kind === 'outcome') {
      outcomeAt = i;
      break;
    }
  }
  let processLimit = outcomeAt >= 0 ? outcomeAt : lines.length;
  let processAt = -1;
  for (let i = processLimit - 1; i >= 0; i--) {
    if (headings[i]?.kind === 'process') {
      processAt = i;
      break;
    }
  }
  if (processAt < 0 && outcomeAt >= 0) {
    // Sections in reverse order: the process comes after the outcome.
    const after = headings.findIndex((h, i) => i > outcomeAt && h?.kind === 'process');
    if (after >= 0) {
      processAt = after;
      processLimit = lines.length;
    }
  }
  const region = lines.slice(processAt + 1, processLimit);
  const inlineFirst = processAt >= 0 ? headings[processAt]!.rest : '';
  const steps = readSteps(inlineFirst ? [inlineFirst, ...region] : region);
  const outcome = outcomeAt >= 0 ? readOutcome(lines, outcomeAt, headings[outcomeAt]!.rest) : undefined;

  const problems: string[] = [];
  if (steps.length === 0) {
    problems.push(processAt >= 0 ? "no numbered steps in the 'Clinical Decision Process' section" : "no 'Clinical Decision Process' section and no numbered steps");
  }
  if (outcome === undefined) {
    problems.push(`no 'Clinical Decision Outcome' section${steps.length ? ' (the answer may be truncated)' : ''}`);
  } else if (outcome === '') {
    problems.push("the 'Clinical Decision Outcome' section is empty");
  }
  if (problems.length === 0) return { ok: true, steps, outcome: outcome! };
  const failed: { ok: false; reason: string; steps?: string[]; outcome?: string } = { ok: false, reason: problems.join('; ') };
  if (steps.length) failed.steps = steps;
  if (outcome) failed.outcome = outcome;
  return failed;
}

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
 * - other wordings of the headings: "Final Clinical Outcome", "Final Outcome", "Clinical Outcome",
 *   "Conclusion", "Final Conclusion", "Final Answer", "Final Decision" / "Decision Process",
 *   "Reasoning Process", "Steps"; Chinese 最终结论, 结论, 最终结果, 决策过程, 推理过程;
 * - stray text before the steps, between the steps and the outcome after a blank line, and
 *   after the outcome's paragraph; a "Note: …" line right after the outcome is a trailing note,
 *   never part of the outcome.
 *
 * Rules, precisely:
 * - The outcome is the last "Clinical Decision Outcome" heading's text (the last heading of another
 *   wording only when none has the required one): what follows the heading
 *   on its line plus the lines after it up to the first blank line, heading or note line ("Note:",
 *   "Disclaimer:", "注："); if the heading line holds nothing, the first paragraph after it.
 * - The steps are read between the last "Clinical Decision Process" heading before the outcome
 *   and the outcome heading (from the start of the answer if that heading is missing; from a
 *   process heading after the outcome to the end if the model swapped the sections). The first
 *   numbered or bulleted line (or markdown table row "| 1 | … |") fixes the list's style and
 *   indentation; every later line of that style at that indentation starts a step. Other
 *   non-blank lines (nested items of another style included) extend the current step. After the
 *   last step, a paragraph that follows a blank line and is not indented deeper than the list is
 *   commentary and is dropped — unless the last step's line was only a title ("**Step 3:
 *   Allergy**", "3. Allergy:"), whose first paragraph is its body.
 * - parse_ok is false when the answer is truncated (finish_reason "length": never guessed at),
 *   there is no outcome heading, the outcome is empty, or no step is found (an empty process);
 *   whatever was found is still returned.
 * - An accepted answer records `format`: 'strict' for exactly Prompt 4's layout ("### Clinical
 *   Decision Process:", steps "1." "2." … one line each, "### Clinical Decision Outcome: …" on
 *   one line, nothing else), otherwise the variants it needed (answer-format.ts).
 */
import { type AnswerFormat, foldWidth, formatOf, type FormatVariant, prepareAnswer } from '../../pipeline/stage.ts';

export type SingleTurnParse =
  { ok: true; steps: string[]; outcome: string; format: AnswerFormat } | { ok: false; reason: string; steps?: string[]; outcome?: string };

type SectionKind = 'process' | 'outcome';

const EN_HEADING = new RegExp(
  [
    '^(?:the\\s+|final\\s+)?clinical\\s+decision(?:[\\s-]*making)?\\s+(process|outcome|conclusion)(?:es|s)?',
    '^(?:the\\s+)?(?:clinical\\s+)?(?:decision|reasoning)(?:[\\s-]*making)?\\s+(process|steps)(?:es)?',
    '^(?:final\\s+)?(?:clinical\\s+)?(outcome|conclusion)s?',
    '^final\\s+(?:clinical\\s+)?(answer|decision|diagnosis|recommendation)',
  ].join('|'),
  'i',
);
const ZH_HEADING = /^(?:最终)?临床决策(过程|流程|结果|结论)|^(?:最终)?(结论|结果)|^(?:临床)?(决策过程|推理过程)/;
const STRICT_HEADING: Record<SectionKind, string> = { process: 'Clinical Decision Process', outcome: 'Clinical Decision Outcome' };
const NOTE = /^\s*[(（]?\s*(?:notes?|disclaimer|caveat|explanation|注意?|说明|备注)\s*[:：]/i;

interface Heading {
  kind: SectionKind;
  /** What follows the label on the same line. */
  rest: string;
  /** How the heading departs from Prompt 4's "### Clinical Decision …:". */
  variants: FormatVariant[];
}

/** Whether a line is a section heading, by the rules in the module comment. */
function headingOf(line: string): Heading | null {
  let s = line.trim().replace(/^>\s*/, '');
  const hashes = /^#{1,6}\s*/.exec(s);
  if (hashes) s = s.slice(hashes[0].length);
  const bold = /^[*_]+/.test(s) || /[*_]{2}/.test(s);
  s = s.replace(/^[*_]+\s*/, '');
  const en = EN_HEADING.exec(s);
  const zh = en ? null : ZH_HEADING.exec(s);
  const m = en ?? zh;
  if (!m) return null;
  const word = m.slice(1).find((g) => g !== undefined)!;
  const kind: SectionKind = /process|steps|过程|流程/i.test(word) ? 'process' : 'outcome';
  let rest = s.slice(m[0].length).replace(/^\s*[*_]*\s*/, '');
  const sep = /^[:：\-–—]/.exec(rest);
  // Without '#' or a separator the label is just a sentence that starts with these words.
  if (!hashes && !sep && rest.replace(/[*_\s]/g, '') !== '') return null;
  if (sep) rest = rest.slice(1);
  rest = rest.replace(/^\s*[*_]*\s*/, '').trim();
  const variants: FormatVariant[] = [];
  if (hashes?.[0].trim() !== '###') variants.push('markdown-heading');
  if (bold) variants.push('bold-marker');
  if (zh) variants.push('chinese-marker');
  const label = m[0].replace(/\s+/g, ' ');
  if (en && label !== STRICT_HEADING[kind])
    variants.push(label.toLowerCase() === STRICT_HEADING[kind].toLowerCase() ? 'case' : 'heading-synonym');
  if (zh && !/^临床决策(过程|结果)$/.test(label)) variants.push('heading-synonym');
  // An indented "Outcome:" or "Conclusion:" is a step's sub-line ("   Outcome: met"), not a section.
  if (/^\s/.test(line) && variants.includes('heading-synonym') && !hashes) return null;
  if (!sep || (sep[0] !== ':' && !(zh && sep[0] === '：'))) variants.push('separator');
  return { kind, rest, variants };
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
    if (kind === 'table-row')
      text = text
        .replace(/\|\s*$/, '')
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean)
        .join(' ');
    const titleOnly =
      text.trim() === '' || /[:：]\s*$/.test(text) || /^\*\*[^*]+\*\*\s*[:：]?$/.test(raw) || /^\S+\s+\*\*[^*]+\*\*\s*[:：]?$/.test(raw);
    return { kind, text, titleOnly };
  }
  return null;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Numbered steps in `lines`, by the rules in the module comment. */
export function readSteps(lines: readonly string[], variants: FormatVariant[] = []): string[] {
  const markers = lines.map((l) => (l.trim() === '' ? null : markerOf(l)));
  const first = markers.findIndex((m) => m !== null);
  if (first < 0) return [];
  // A table's header and rule rows are layout, not a preamble.
  const layout = (l: string): boolean => markers[first]!.kind === 'table-row' && /^\s*\|/.test(l);
  if (lines.slice(0, first).some((l) => l.trim() !== '' && !layout(l))) variants.push('preamble');
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
      if (afterBlank && indentOf(line) <= baseIndent && i > lastStart && !awaitingBody) {
        open = false;
        variants.push('trailing-note');
      } else {
        steps[steps.length - 1] += ` ${m ? m.text : plain(line)}`;
        awaitingBody = false;
        variants.push('list-style');
      }
    } else {
      variants.push('trailing-note');
    }
    afterBlank = false;
  }
  const strictNumbers = lines.every((l, i) => !starts[i] || /^\d{1,3}\. \S/.test(l));
  if (kind !== 'number' || !strictNumbers) variants.push('list-style');
  if (lines.some((l) => /\*\*|__/.test(l))) variants.push('bold-marker');
  return steps.map(clean).filter((s) => s !== '');
}

function readOutcome(lines: readonly string[], headingLine: number, rest: string, variants: FormatVariant[]): string {
  const parts: string[] = [];
  let i = headingLine + 1;
  if (rest === '') {
    while (i < lines.length && lines[i].trim() === '') i++;
    variants.push('separator');
  } else {
    parts.push(rest);
  }
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || headingOf(line) || /^\s*#{1,6}\s/.test(line) || NOTE.test(plain(line))) break;
    const m = markerOf(line);
    parts.push(m ? m.text : plain(line));
  }
  if (parts.length > 1) variants.push('separator');
  if (lines.slice(i).some((l) => l.trim() !== '')) variants.push('trailing-note');
  const text = parts.join(' ');
  if (/\*\*|__/.test(text)) variants.push('bold-marker');
  return clean(plain(text)).replace(/^[*_\s]+|[*_\s]+$/g, '');
}

export function parseSingleTurn(raw: string, finishReason?: string | null): SingleTurnParse {
  const prepared = prepareAnswer(raw, finishReason);
  if (!prepared.ok) return { ok: false, reason: prepared.reason };
  const variants: FormatVariant[] = [...prepared.variants];
  const folded = foldWidth(prepared.text);
  if (folded.fullWidth) variants.push('full-width');
  const lines = (folded.fullWidth ? folded.text : prepared.text).split('\n');
  const headings = lines.map(headingOf);
  // The required wording wins over another ("Conclusion: …" repeating the outcome after it).
  const lastOutcome = (required: boolean): number =>
    headings.findLastIndex((h) => h?.kind === 'outcome' && (!required || !h.variants.includes('heading-synonym')));
  const outcomeAt = lastOutcome(true) >= 0 ? lastOutcome(true) : lastOutcome(false);
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
      variants.push('section-order');
    }
  }
  if (processAt < 0) variants.push('missing-heading');
  else {
    variants.push(...headings[processAt]!.variants);
    if (lines.slice(0, processAt).some((l) => l.trim() !== '') && processLimit !== lines.length) variants.push('preamble');
  }
  const region = lines.slice(processAt + 1, processLimit);
  const inlineFirst = processAt >= 0 ? headings[processAt]!.rest : '';
  if (inlineFirst) variants.push('separator');
  const steps = readSteps(inlineFirst ? [inlineFirst, ...region] : region, variants);
  let outcome: string | undefined;
  if (outcomeAt >= 0) {
    variants.push(...headings[outcomeAt]!.variants);
    const outcomeVariants: FormatVariant[] = [];
    outcome = readOutcome(lines, outcomeAt, headings[outcomeAt]!.rest, outcomeVariants);
    // Reversed sections: what follows the outcome is the process, not a note.
    variants.push(...outcomeVariants.filter((v) => v !== 'trailing-note' || processLimit !== lines.length));
  }

  const problems: string[] = [];
  if (steps.length === 0) {
    problems.push(
      processAt >= 0
        ? "no numbered steps in the 'Clinical Decision Process' section"
        : "no 'Clinical Decision Process' section and no numbered steps",
    );
  }
  if (outcome === undefined) {
    problems.push(`no 'Clinical Decision Outcome' section${steps.length ? ' (the answer may be truncated)' : ''}`);
  } else if (outcome === '') {
    problems.push("the 'Clinical Decision Outcome' section is empty");
  }
  if (problems.length === 0) return { ok: true, steps, outcome: outcome!, format: formatOf(variants) };
  const failed: { ok: false; reason: string; steps?: string[]; outcome?: string } = { ok: false, reason: problems.join('; ') };
  if (steps.length) failed.steps = steps;
  if (outcome) failed.outcome = outcome;
  return failed;
}

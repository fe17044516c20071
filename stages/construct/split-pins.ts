/**
 * Split pin files: CSVs with the header `guideline_id,split` (split `test` or `non-test`, any
 * case; extra columns ignored; UTF-8 with or without BOM) that fix single guidelines' splits,
 * e.g. to keep a published test list or to hold one guideline out by hand.
 *
 * Unlike the human-label files, a bad line is not skipped: a skipped pin would silently hand
 * its guideline back to the hash rule and change the benchmark, so any problem rejects the
 * files, every problem listed with file and line. The same id on two lines is fine when both
 * say the same split; two different splits for one id are a conflict.
 */
import { parseCsv } from '../stats/read-csv.ts';
import type { Split } from './split.ts';

type Parsed<V> = { value: V } | { problem: string };

const guidelineId = (raw: string, column: string): Parsed<string> => {
  const v = raw.trim();
  return v ? { value: v } : { problem: `column "${column}" is empty` };
};

const split = (raw: string, column: string): Parsed<Split> => {
  const v = raw.trim().toLowerCase();
  if (v === 'test' || v === 'non-test') return { value: v };
  return { problem: `column "${column}" must be test or non-test, got ${JSON.stringify(raw)}` };
};

/** The pins of several files (name → text), merged; throws listing every problem. */
export function parseSplitPins(files: readonly { name: string; text: string }[]): Map<string, Split> {
  const pins = new Map<string, { split: Split; where: string }>();
  const problems: string[] = [];
  for (const { name, text } of files) {
    let parsed;
    try {
      parsed = parseCsv<{ guideline_id: string; split: Split }>(text, name, { guideline_id: guidelineId, split });
    } catch (e) {
      problems.push((e as Error).message);
      continue;
    }
    problems.push(...parsed.errors.map((e) => e.message));
    for (const r of parsed.rows) {
      const where = `${name} line ${r.line}`;
      const before = pins.get(r.guideline_id);
      if (before === undefined) pins.set(r.guideline_id, { split: r.split, where });
      else if (before.split !== r.split) {
        problems.push(`${where}: guideline ${r.guideline_id} pinned to ${r.split}, but to ${before.split} on ${before.where}; keep one`);
      }
    }
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 10).join('\n  ') + (problems.length > 10 ? `\n  … and ${problems.length - 10} more` : '');
    const count = `${problems.length} problem${problems.length > 1 ? 's' : ''}`;
    throw new Error(`split pins rejected (${count}); fix the file(s), nothing was split:\n  ${shown}`);
  }
  return new Map([...pins].map(([id, p]) => [id, p.split]));
}

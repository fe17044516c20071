/**
 * Readers for the human-label CSVs: threshold labels (§4.4) and pairwise preference choices
 * (§4.3), plus the PCC values of the preference pairs. Each row is validated; a bad row is
 * reported by its line number in the file (the line where the row starts, counting the
 * header as line 1) with what is wrong, and skipped, so one typo does not discard a day of
 * annotation. A missing required column makes the whole file unusable and throws.
 *
 * Formats (header names exact, extra columns ignored, UTF-8 with or without BOM):
 *   threshold labels:   judge,model,score,human       score in [0, 1]; human yes/no (also true/false, 1/0)
 *   preference choices: group,pair_id,annotator,choice   choice A, B or tie (any case)
 *   pair PCC values:    pair_id,pcc_a,pcc_b             finite numbers
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import Papa from 'papaparse';
import type { ThresholdRow } from './threshold.ts';
import type { PreferenceRow, PairPcc, Choice } from './agreement.ts';

export interface CsvRowError {
  source: string;
  line: number;
  /** `<source> line <n>: <problem>` */
  message: string;
}

export interface CsvResult<R> {
  /** Valid rows, each with the line it came from. */
  rows: (R & { line: number })[];
  errors: CsvRowError[];
}

type Parsed<V> = { value: V } | { problem: string };
type Field<V> = (raw: string, column: string) => Parsed<V>;

const text: Field<string> = (raw, column) => {
  const v = raw.trim();
  return v ? { value: v } : { problem: `column "${column}" is empty` };
};

const finite: Field<number> = (raw, column) => {
  const v = raw.trim();
  const x = v === '' ? NaN : Number(v);
  return Number.isFinite(x) ? { value: x } : { problem: `column "${column}" must be a number, got ${JSON.stringify(raw)}` };
};

const unitInterval: Field<number> = (raw, column) => {
  const p = finite(raw, column);
  if ('problem' in p) return p;
  return p.value >= 0 && p.value <= 1 ? p : { problem: `column "${column}" must be in [0, 1], got ${JSON.stringify(raw)}` };
};

const yesNo: Field<boolean> = (raw, column) => {
  const v = raw.trim().toLowerCase();
  if (v === 'yes' || v === 'true' || v === '1') return { value: true };
  if (v === 'no' || v === 'false' || v === '0') return { value: false };
  return { problem: `column "${column}" must be yes/no, got ${JSON.stringify(raw)}` };
};

const choice: Field<Choice> = (raw, column) => {
  const v = raw.trim().toLowerCase();
  if (v === 'a') return { value: 'A' };
  if (v === 'b') return { value: 'B' };
  if (v === 'tie') return { value: 'tie' };
  return { problem: `column "${column}" must be A, B or tie, got ${JSON.stringify(raw)}` };
};

/** Parse `csv` into rows of the given fields, collecting per-line problems. */
export function parseCsv<R extends object>(csv: string, source: string, fields: { [K in keyof R]: Field<R[K]> }): CsvResult<R> {
  const body = csv.charCodeAt(0) === 0xfeff ? csv.slice(1) : csv;
  // Line of a character offset = 1 + newlines before it.
  const newlines: number[] = [];
  for (let i = body.indexOf('\n'); i !== -1; i = body.indexOf('\n', i + 1)) newlines.push(i);
  const lineAt = (offset: number): number => {
    let lo = 0,
      hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (newlines[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };

  const names = Object.keys(fields) as (keyof R & string)[];
  const rows: (R & { line: number })[] = [];
  const errors: CsvRowError[] = [];
  let header: string[] | null = null;
  let index: number[] = [];
  let start = 0;
  const fail = (line: number, problem: string) => errors.push({ source, line, message: `${source} line ${line}: ${problem}` });

  Papa.parse<string[]>(body, {
    skipEmptyLines: false,
    step: (result) => {
      const cells = result.data;
      const line = lineAt(start);
      start = result.meta.cursor;
      if (cells.every((c) => c.trim() === '')) return;
      if (header === null) {
        header = cells.map((c) => c.trim());
        const missing = names.filter((n) => !header!.includes(n));
        if (missing.length) {
          throw new Error(
            `${source}: missing column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}; the header must name ${names.join(',')} (found ${header.join(',')})`,
          );
        }
        index = names.map((n) => header!.indexOf(n));
        return;
      }
      if (cells.length !== header.length) {
        fail(
          line,
          `expected ${header.length} fields like the header, got ${cells.length}; check for a missing or extra comma or an unclosed quote`,
        );
        return;
      }
      for (const e of result.errors) fail(line, e.message);
      if (result.errors.length) return;
      const row: Record<string, unknown> = {};
      let ok = true;
      names.forEach((name, k) => {
        const parsed = (fields[name] as Field<unknown>)(cells[index[k]!]!, name);
        if ('problem' in parsed) {
          fail(line, parsed.problem);
          ok = false;
        } else row[name] = parsed.value;
      });
      if (ok) rows.push({ ...(row as R), line });
    },
  });
  if (header === null) throw new Error(`${source}: the file is empty; expected a header ${names.join(',')}`);
  return { rows, errors };
}

export function parseThresholdLabels(csv: string, source = 'labels.csv'): CsvResult<ThresholdRow> {
  return parseCsv<ThresholdRow>(csv, source, { judge: text, model: text, score: unitInterval, human: yesNo });
}

/** Also reports a second label by the same annotator for the same pair (and skips it). */
export function parsePreferenceChoices(csv: string, source = 'preferences.csv'): CsvResult<PreferenceRow> {
  const parsed = parseCsv<PreferenceRow>(csv, source, { group: text, pair_id: text, annotator: text, choice });
  const seen = new Map<string, number>();
  const rows = parsed.rows.filter((r) => {
    const key = JSON.stringify([r.pair_id, r.annotator]);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, r.line);
      return true;
    }
    parsed.errors.push({
      source,
      line: r.line,
      message: `${source} line ${r.line}: annotator ${r.annotator} already labelled pair ${r.pair_id} on line ${first}; keep one label`,
    });
    return false;
  });
  parsed.errors.sort((a, b) => a.line - b.line);
  return { rows, errors: parsed.errors };
}

export function parsePairPcc(csv: string, source = 'pair-pcc.csv'): CsvResult<PairPcc> {
  const parsed = parseCsv<{ pair_id: string; pcc_a: number; pcc_b: number }>(csv, source, { pair_id: text, pcc_a: finite, pcc_b: finite });
  return { rows: parsed.rows.map((r) => ({ pair_id: r.pair_id, pccA: r.pcc_a, pccB: r.pcc_b, line: r.line })), errors: parsed.errors };
}

export const readThresholdLabels = (path: string) => parseThresholdLabels(readFileSync(path, 'utf8'), basename(path));

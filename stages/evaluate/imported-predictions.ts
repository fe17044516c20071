/**
 * Predictions made elsewhere (a vLLM offline batch, another harness), one JSON object per line:
 *   {"setting": "single", "model": "my-model", "cdp_id": "…", "steps": ["…", …], "outcome": "…"}
 *   {"setting": "multi",  "model": "my-model", "cdp_id": "…", "questions": ["…", …], "outcome": "…",
 *    "success"?: true, "transcript"?: [{"role": "doctor" | "patient", "text": "…"}, …]}
 * They become rows shaped like predictions_single / dialogues_multi, so predicted_pathways turns
 * them into pathways that are judged, scored and reported like the project's own, under their
 * model names. A multi-turn line without `success` counts as a success when it has an outcome
 * (the dialogue reached a conclusion). A bad line is reported with its number (and, in a run, is
 * a failure row: imported-rows.ts); a line for a case outside the test split is a bad line.
 */
import type { Row } from '../../pipeline/stage.ts';

export interface ImportProblem {
  file: string;
  line: number;
  message: string;
  /** What the line names, when it could be read that far. */
  setting?: string;
  model?: string;
  cdp_id?: string;
}

export interface ImportedPredictions {
  single: Row[];
  multi: Row[];
  problems: ImportProblem[];
  /** The 1-based numbers of the lines taken. */
  accepted: number[];
  /** The line of each row of `single` and of `multi` (parallel to them). */
  lines: { single: number[]; multi: number[] };
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function readLine(obj: unknown): { setting: 'single' | 'multi'; row: Row } | string {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return 'not a JSON object';
  const o = obj as Record<string, unknown>;
  if (o.setting !== 'single' && o.setting !== 'multi') return `"setting" must be "single" or "multi", got ${JSON.stringify(o.setting)}`;
  for (const k of ['model', 'cdp_id'] as const) if (typeof o[k] !== 'string' || !o[k]) return `"${k}" must be a non-empty string`;
  if (o.outcome !== undefined && typeof o.outcome !== 'string') return '"outcome" must be a string';
  const base = { model: o.model, cdp_id: o.cdp_id, outcome: (o.outcome as string | undefined) ?? '', simulated: false };
  if (o.setting === 'single') {
    if (!isStrings(o.steps)) return 'a single-turn line needs "steps": an array of strings';
    return { setting: 'single', row: { ...base, steps: o.steps, parse_ok: true, parse_error: null, raw: null, error: null } };
  }
  if (!isStrings(o.questions)) return 'a multi-turn line needs "questions": an array of strings';
  if (o.success !== undefined && typeof o.success !== 'boolean') return '"success" must be true or false';
  let turns: Row[] = [];
  if (o.transcript !== undefined) {
    if (
      !Array.isArray(o.transcript) ||
      !o.transcript.every(
        (t) => typeof t === 'object' && t !== null && typeof (t as Row).role === 'string' && typeof (t as Row).text === 'string',
      )
    ) {
      return '"transcript" must be an array of {"role", "text"} objects';
    }
    turns = (o.transcript as Row[]).map((t) => ({ role: t.role, text: t.text, parsed: null, via: 'imported', node: null }));
  }
  const success = typeof o.success === 'boolean' ? o.success : base.outcome.trim() !== '';
  return {
    setting: 'multi',
    row: { ...base, questions: o.questions, turns, success, end_reason: success ? 'conclusion' : 'imported without success', error: null },
  };
}

/** What a line names, for the failure row of a line that is refused. */
function named(obj: unknown): Pick<ImportProblem, 'setting' | 'model' | 'cdp_id'> {
  if (typeof obj !== 'object' || obj === null) return {};
  const o = obj as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return { setting: str(o.setting), model: str(o.model), cdp_id: str(o.cdp_id) };
}

/**
 * Parses one file's text; `known` maps a cdp_id to its row in cdps (guideline, language, split):
 * the cases of this build. A case whose split is not 'test' is refused: it is no test case.
 */
export function parseImportedPredictions(file: string, text: string, known: ReadonlyMap<string, Row>): ImportedPredictions {
  const out: ImportedPredictions = { single: [], multi: [], problems: [], accepted: [], lines: { single: [], multi: [] } };
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch (e) {
      out.problems.push({ file, line, message: `not JSON (${(e as Error).message})` });
      return;
    }
    const r = readLine(obj);
    if (typeof r === 'string') {
      out.problems.push({ file, line, message: r, ...named(obj) });
      return;
    }
    const id = String(r.row.cdp_id);
    const c = known.get(id);
    const at = { file, line, ...named(obj) };
    if (!c) {
      out.problems.push({ ...at, message: `cdp_id "${id}" is not a case of this build; \`cdp export benchmark\` lists the cases` });
      return;
    }
    if (c.split !== undefined && c.split !== 'test') {
      const message = `cdp_id "${id}" is not a test case of this build (its guideline is in the ${String(c.split)} split); only test cases are ranked`;
      out.problems.push({ ...at, message });
      return;
    }
    const key = JSON.stringify([r.setting, r.row.model, id]);
    if (seen.has(key)) {
      out.problems.push({
        ...at,
        message: `a second ${r.setting}-turn prediction of model "${String(r.row.model)}" for ${id}; the first one is kept`,
      });
      return;
    }
    seen.add(key);
    out.accepted.push(line);
    out.lines[r.setting].push(line);
    out[r.setting].push({ ...r.row, guideline_id: c.guideline_id, language: c.language });
  });
  return out;
}

export const problemText = (p: ImportProblem) => `${p.file}:${p.line}: ${p.message}`;

/**
 * `cdp import predictions FILE`: checks a JSONL file of predictions made elsewhere against the
 * test cases of the current build (imported-predictions.ts: a line for a case outside the test
 * split is refused) and copies the good lines to data/imports/<name>.jsonl, the files source
 * predicted_pathways reads; `cdp run` then judges, scores, summarises and reports them, counting
 * the test cases the file has no line for as `missing`. Bad lines are reported by number and left
 * out; lines for test cases the current build does not evaluate (QC, `--limit`) are counted.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { openWarehouse } from '../../pipeline/store/warehouse.ts';
import type { Row } from '../../pipeline/stage.ts';
import { parseImportedPredictions, problemText, type ImportProblem } from './imported-predictions.ts';

export interface ImportTarget {
  root: string;
  warehouse: string;
  store: string;
}

export interface ImportResult {
  file: string;
  single: number;
  multi: number;
  models: string[];
  problems: ImportProblem[];
  /** Lines for test-split cases the current build does not evaluate (left out by QC or --limit), when known. */
  notEvaluated?: number;
  /** The test cases the current build evaluates, when known, and per model how many of them the file covers per setting. */
  testCases?: number;
  covered?: Record<string, { single: number; multi: number }>;
}

export interface KnownCases {
  /** Every case of the build (with its split), by cdp_id. */
  cases: Map<string, Row>;
  /** The test cases the build evaluates (test_cases), when the warehouse has them. */
  evaluated?: Set<string>;
}

/** The cases of the current build, from the warehouse's cdps and test_cases views. */
async function knownCases(t: ImportTarget): Promise<KnownCases> {
  if (!existsSync(t.warehouse)) throw new Error(`cdp import: no warehouse at ${t.warehouse}; run \`cdp run\` first so the cases exist`);
  const w = await openWarehouse(t.warehouse, t.store, { readOnly: true });
  const read = async (sql: string) => (await w.con.runAndReadAll(sql)).getRowObjectsJson() as Row[];
  try {
    const rows = await read('select cdp_id, guideline_id, language, split from cdps');
    const evaluated = await read('select cdp_id from test_cases').catch(() => null);
    return {
      cases: new Map(rows.map((r) => [String(r.cdp_id), r])),
      ...(evaluated ? { evaluated: new Set(evaluated.map((r) => String(r.cdp_id))) } : {}),
    };
  } catch (e) {
    throw new Error(`cdp import: the cases could not be read (${(e as Error).message.split('\n')[0]}); run \`cdp run\` first`, {
      cause: e,
    });
  } finally {
    w.close();
  }
}

export async function importPredictions(file: string, target: ImportTarget, given?: KnownCases): Promise<ImportResult> {
  if (!existsSync(file)) throw new Error(`cdp import: no file ${file}`);
  const text = readFileSync(file, 'utf8');
  const name = basename(file).replace(/\.jsonl?$/i, '');
  const known = given ?? (await knownCases(target));
  const r = parseImportedPredictions(basename(file), text, known.cases);
  const out = join('data', 'imports', `${name}.jsonl`);
  if (r.accepted.length) {
    const lines = text.split(/\r?\n/);
    mkdirSync(join(target.root, 'data', 'imports'), { recursive: true });
    writeFileSync(join(target.root, out), r.accepted.map((n) => lines[n - 1] + '\n').join(''));
  }
  const models = [...new Set([...r.single, ...r.multi].map((p) => String(p.model)))].sort();
  const result: ImportResult = { file: out, single: r.single.length, multi: r.multi.length, models, problems: r.problems };
  const ev = known.evaluated;
  if (!ev) return result;
  const inTest = (rows: Row[], model: string) => rows.filter((p) => p.model === model && ev.has(String(p.cdp_id))).length;
  const covered = Object.fromEntries(models.map((m) => [m, { single: inTest(r.single, m), multi: inTest(r.multi, m) }]));
  const notEvaluated = [...r.single, ...r.multi].filter((p) => !ev.has(String(p.cdp_id))).length;
  return { ...result, notEvaluated, testCases: ev.size, covered };
}

export function importSummary(r: ImportResult): string {
  const lines = r.problems.map((p) => `skipped ${problemText(p)}`);
  if (r.notEvaluated)
    lines.push(`${r.notEvaluated} line(s) are for test cases the current build does not evaluate (left out by QC or --limit): not ranked`);
  for (const [model, c] of Object.entries(r.covered ?? {})) {
    const of = (k: 'single' | 'multi') => (c[k] ? `${k}-turn ${c[k]} of ${r.testCases} test cases` : null);
    const parts = [of('single'), of('multi')].filter((x) => x !== null);
    if (parts.length) lines.push(`${model}: ${parts.join(', ')}; each test case without a prediction counts as missing`);
  }
  lines.push(
    r.single + r.multi
      ? `imported ${r.single} single-turn and ${r.multi} multi-turn predictions of ${r.models.join(', ')} into ${r.file}; \`cdp run\` judges and scores them`
      : 'nothing imported: every line was bad (see above)',
  );
  return lines.join('\n') + '\n';
}

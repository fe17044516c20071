/**
 * `cdp import predictions FILE`: checks a JSONL file of predictions made elsewhere against the
 * cases of the current build (imported-predictions.ts) and copies the good lines to
 * <store>/imports/<name>.jsonl, the files source predicted_pathways reads, recording the import in
 * the store's record (store.json); `cdp run` on that store then judges, scores, summarises and
 * reports them, and no other store sees them. Bad lines are reported by number and left out.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { openWarehouse } from '../../pipeline/store/warehouse.ts';
import { projectPath } from '../../pipeline/index.ts';
import { recordImport } from '../../pipeline/cli/store-record.ts';
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
}

/** The cases of the current build, from the warehouse's cdps view (a table stage: no failed rows). */
async function knownCases(t: ImportTarget): Promise<Map<string, Row>> {
  if (!existsSync(t.warehouse)) throw new Error(`cdp import: no warehouse at ${t.warehouse}; run \`cdp run\` first so the cases exist`);
  const w = await openWarehouse(t.warehouse, t.store, { readOnly: true });
  try {
    const rows = (await w.con.runAndReadAll('select cdp_id, guideline_id, language from cdps')).getRowObjectsJson() as Row[];
    return new Map(rows.map((r) => [String(r.cdp_id), r]));
  } catch (e) {
    throw new Error(`cdp import: the cases could not be read (${(e as Error).message.split('\n')[0]}); run \`cdp run\` first`, {
      cause: e,
    });
  } finally {
    w.close();
  }
}

export async function importPredictions(file: string, target: ImportTarget, known?: Map<string, Row>): Promise<ImportResult> {
  if (!existsSync(file)) throw new Error(`cdp import: no file ${file}`);
  const text = readFileSync(file, 'utf8');
  const name = basename(file).replace(/\.jsonl?$/i, '');
  const r = parseImportedPredictions(basename(file), text, known ?? (await knownCases(target)));
  const out = join(target.store, 'imports', `${name}.jsonl`);
  if (r.accepted.length) {
    const lines = text.split(/\r?\n/);
    mkdirSync(join(target.store, 'imports'), { recursive: true });
    writeFileSync(out, r.accepted.map((n) => lines[n - 1] + '\n').join(''));
    recordImport(target.store, {
      file: join('imports', `${name}.jsonl`),
      from: resolve(file),
      at: new Date().toISOString(),
      rows: r.accepted.length,
    });
  }
  const models = [...new Set([...r.single, ...r.multi].map((p) => String(p.model)))].sort();
  return { file: projectPath(target.root, out), single: r.single.length, multi: r.multi.length, models, problems: r.problems };
}

export function importSummary(r: ImportResult): string {
  const lines = r.problems.map((p) => `skipped ${problemText(p)}`);
  lines.push(
    r.single + r.multi
      ? `imported ${r.single} single-turn and ${r.multi} multi-turn predictions of ${r.models.join(', ')} into ${r.file}; \`cdp run\` judges and scores them`
      : 'nothing imported: every line was bad (see above)',
  );
  return lines.join('\n') + '\n';
}

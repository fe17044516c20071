/**
 * The export every benchmark shares: check the kind, the warehouse and the folder, open the
 * warehouse read-only (its views are the ledger's current artifacts), let the benchmark's plan
 * gather its card's facts, write each table as JSONL and Parquet (table-files.ts), and the
 * card from the tables as written. What a benchmark exports and says is its plan
 * (MEGA-CDP's: export-command.ts; CPGBench's: stages/cpgbench/export/).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { openWarehouse } from '../../pipeline/store/warehouse.ts';
import { viewsWithError, type ExportDb } from './export-db.ts';
import { EXPORT_MARKER, prepareExportFolder } from './export-folder.ts';
import { expandOk, writeTableFiles, type CommandWords, type ExportTable, type WrittenTable } from './table-files.ts';

export interface ExportTarget {
  root: string;
  warehouse: string;
  store: string;
  /**
   * The corpus directory (absolute): `guidelines.source_path` is relative to it, as the corpus's
   * files source lists it. Without one, source paths are taken as relative to the root.
   */
  corpus?: string;
}

export interface ExportResult {
  dir: string;
  files: string[];
  counts: Record<string, number>;
}

export interface PlanContext {
  db: ExportDb;
  kind: string;
  root: string;
  /** Where the guidelines' `source_path` starts (ExportTarget.corpus): the NOTICE.md files are looked up there. */
  corpus: string;
  /** The export folder (absolute). */
  dir: string;
  /** Expands `{ok:view}` in a query. */
  ok: (sql: string) => string;
}

export interface ExportPlan<F> {
  words: CommandWords;
  /** Per kind, the tables (queries with `{ok:view}`). */
  tables: Readonly<Record<string, readonly ExportTable[]>>;
  /** The card's facts, gathered before the tables are written; may rewrite the tables and write files (listed in `files`). */
  prepare(ctx: PlanContext, tables: ExportTable[]): Promise<{ tables: ExportTable[]; facts: F; files: string[] }>;
  /** The card, from the facts and the tables as written (their rows). */
  card(kind: string, facts: F, written: readonly WrittenTable[]): string;
}

const connection = (w: Awaited<ReturnType<typeof openWarehouse>>): ExportDb => ({
  all: async (sql) => (await w.con.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[],
  run: async (sql) => void (await w.con.run(sql)),
});

export async function runExport<F>(plan: ExportPlan<F>, kind: string, outDir: string, target: ExportTarget): Promise<ExportResult> {
  const { prefix, run } = plan.words;
  const kinds = Object.keys(plan.tables);
  if (!kinds.includes(kind)) throw new Error(`${prefix}: unknown kind "${kind}"; use ${kinds.join(' or ')}`);
  if (!existsSync(target.warehouse)) throw new Error(`${prefix}: no warehouse at ${target.warehouse}; run ${run} first`);
  const dir = resolve(outDir);
  prepareExportFolder(dir, kind, prefix);
  const w = await openWarehouse(target.warehouse, target.store, { readOnly: true });
  const files: string[] = [EXPORT_MARKER];
  const written: WrittenTable[] = [];
  let card: string;
  try {
    const db = connection(w);
    const hasError = await viewsWithError(db);
    const ok = (sql: string) => expandOk(sql, hasError);
    const prepared = await plan.prepare(
      { db, kind, root: target.root, corpus: target.corpus ?? target.root, dir, ok },
      plan.tables[kind]!.map((t) => ({ ...t, sql: ok(t.sql) })),
    );
    files.push(...prepared.files);
    for (const t of prepared.tables) {
      written.push(await writeTableFiles(db, dir, t, plan.words));
      files.push(`${t.name}.jsonl`, `${t.name}.parquet`);
    }
    card = plan.card(kind, prepared.facts, written);
  } finally {
    w.close();
  }
  writeFileSync(join(dir, 'README.md'), card);
  files.push('README.md');
  const counts = Object.fromEntries(written.map((t) => [t.name, t.rows.length]));
  return { dir: relative(process.cwd(), dir).split(sep).join('/') || '.', files, counts };
}

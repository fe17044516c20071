/**
 * `cdp export benchmark DIR` and `cdp export results DIR`: the tables of export-tables.ts as
 * Parquet (DuckDB's COPY) and JSONL, with a dataset card (dataset-card.ts), read from the
 * warehouse, whose views are the ledger's current artifacts. The side effects live here.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import { openWarehouse, type WarehouseConnection } from '../../pipeline/store/warehouse.ts';
import { producedBy } from '../report/produced-by.ts';
import { settingLines } from '../report/report-index.ts';
import { RunFacts } from '../report/run-facts.ts';
import { RunSettings } from '../report/run-settings.ts';
import { splitText } from '../report/setting-text.ts';
import { datasetCard, type CardFacts, type CardTable } from './dataset-card.ts';
import { EXPORT_TABLES, expandOk, type ExportKind, type ExportTable } from './export-tables.ts';
import { ancestorDirs, parseNoticeLicences } from './licences.ts';
import { qcCounts } from './qc-verdicts.ts';

export interface ExportTarget {
  root: string;
  warehouse: string;
  store: string;
}

/** Written into every export so that re-exporting into it is allowed and into anything else is not. */
const MARKER = '.cdp-export';
const UNKNOWN_LICENCE = 'unknown: no NOTICE.md beside the source PDF names it';

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

async function rows(w: WarehouseConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await w.con.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
}

async function query(w: WarehouseConnection, what: string, sql: string): Promise<Record<string, unknown>[]> {
  try {
    return await rows(w, sql);
  } catch (e) {
    throw new Error(
      `cdp export: ${what} could not be read from the warehouse (${(e as Error).message.split('\n')[0]}); run \`cdp run\` so it exists`,
      { cause: e },
    );
  }
}

/** A query whose views may not exist in every run (an optional stage): no rows then. */
async function optional(w: WarehouseConnection, sql: string): Promise<Record<string, unknown>[]> {
  try {
    return await rows(w, sql);
  } catch {
    return [];
  }
}

/** Licence per guideline source path, from the NOTICE.md files beside the PDFs; the notices found. */
function licencesFor(root: string, sources: readonly string[]): { licence: Map<string, string>; notices: string[] } {
  const licence = new Map<string, string>();
  const notices = new Set<string>();
  for (const source of sources) {
    for (const dir of ancestorDirs(source)) {
      const notice = posix.join(dir, 'NOTICE.md');
      if (!existsSync(join(root, notice))) continue;
      const found = parseNoticeLicences(readFileSync(join(root, notice), 'utf8')).get(posix.relative(dir, source));
      if (found) {
        licence.set(source, found);
        notices.add(notice);
        break;
      }
    }
  }
  return { licence, notices: [...notices].sort() };
}

function checkOutDir(dir: string): void {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.length && !entries.includes(MARKER)) {
    throw new Error(`cdp export: ${dir} is not empty and holds no earlier export; give an empty or new folder`);
  }
}

const distinct = async (w: WarehouseConnection, sql: string) =>
  (await optional(w, sql)).map((r) => String(Object.values(r)[0])).filter((x) => x !== 'null');

async function builders(w: WarehouseConnection): Promise<Record<string, string[]>> {
  return {
    'tree builder': await distinct(w, 'select distinct builder from trees where builder is not null order by 1'),
    'vignette writer': await distinct(w, 'select distinct generator from vignettes where generator is not null order by 1'),
    'narrative writer': await distinct(w, 'select distinct generator from narratives where generator is not null order by 1'),
    'QC inspector': await distinct(w, 'select distinct inspector from qc_inspection where inspector is not null order by 1'),
  };
}

/** Queries of the prompt templates the rows record having sent (an imported tree sent none). */
const BENCHMARK_PROMPTS = [
  "select distinct template from trees where template is not null and builder is distinct from 'imported'",
  'select distinct template from vignettes where template is not null',
  'select distinct template from narratives where template is not null',
  'select distinct prompt from qc_inspection where prompt is not null',
];
const RESULTS_PROMPTS = [
  'select distinct template from predictions_single where template is not null',
  'select distinct unnest(templates) from dialogues_multi where templates is not null',
  'select distinct template from step_scores where template is not null',
  'select distinct template from outcome_scores where template is not null',
];

/** One query per stage: a stage this build did not run (no inspector) leaves the others' prompts. */
async function recordedPrompts(w: WarehouseConnection, queries: readonly string[]): Promise<string[]> {
  const prompts: string[] = [];
  for (const q of queries) prompts.push(...(await distinct(w, q)));
  return [...new Set(prompts)].sort();
}

/** The benchmark's card facts (licences, notices copied beside it, builders, prompts, split) and its tables with the licence column. */
async function benchmarkFacts(
  w: WarehouseConnection,
  root: string,
  dir: string,
  files: string[],
  facts: CardFacts,
  tables: ExportTable[],
  ok: (sql: string) => string,
): Promise<ExportTable[]> {
  const sources = (await query(w, 'guidelines', ok('select guideline_id, source_path from {ok:guidelines} g order by guideline_id'))).map(
    (r) => ({ id: String(r.guideline_id), source: String(r.source_path) }),
  );
  const { licence, notices } = licencesFor(
    root,
    sources.map((s) => s.source),
  );
  facts.licences = sources.map((s) => ({ guideline_id: s.id, source: s.source, licence: licence.get(s.source) ?? UNKNOWN_LICENCE }));
  facts.notices = notices.map((n) => posix.join('notices', n));
  for (const n of notices) {
    mkdirSync(join(dir, 'notices', ...n.split('/').slice(0, -1)), { recursive: true });
    copyFileSync(join(root, n), join(dir, 'notices', ...n.split('/')));
    files.push(posix.join('notices', n));
  }
  facts.builders = await builders(w);
  facts.prompts = await recordedPrompts(w, BENCHMARK_PROMPTS);
  facts.settings = [`${splitText(new RunSettings(await optional(w, 'select * from run_settings')))}.`];
  // The licence rides along as a column, so each guideline row states its own terms.
  const values = facts.licences.map((l) => `(${sqlString(l.source)}, ${sqlString(l.licence)})`).join(', ');
  return tables.map((t) =>
    t.name !== 'guidelines' || !values
      ? t
      : {
          ...t,
          sql: `with lic(source, licence) as (values ${values}) select g.*, lic.licence from (${t.sql}) g left join lic using (source) order by g.guideline_id`,
        },
  );
}

export interface ExportResult {
  dir: string;
  files: string[];
  counts: Record<string, number>;
}

export async function exportCommand(kind: ExportKind, outDir: string, target: ExportTarget): Promise<ExportResult> {
  if (!(kind in EXPORT_TABLES)) throw new Error(`cdp export: unknown kind "${kind}"; use benchmark or results`);
  if (!existsSync(target.warehouse)) throw new Error(`cdp export: no warehouse at ${target.warehouse}; run \`cdp run\` first`);
  const dir = resolve(outDir);
  checkOutDir(dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MARKER), `cdp export ${kind}\n`);
  const w = await openWarehouse(target.warehouse, target.store, { readOnly: true });
  const files: string[] = [MARKER];
  const counts: Record<string, number> = {};
  const cardTables: CardTable[] = [];
  const facts: CardFacts = {
    kind,
    tables: cardTables,
    builders: {},
    prompts: [],
    qc: null,
    producedBy: null,
    settings: [],
    licences: [],
    notices: [],
    models: [],
  };
  try {
    const hasError = new Set(
      (await rows(w, "select table_name from information_schema.columns where column_name = 'error'")).map((r) => String(r.table_name)),
    );
    const ok = (sql: string) => expandOk(sql, hasError);
    let tables: ExportTable[] = EXPORT_TABLES[kind].map((t) => ({ ...t, sql: ok(t.sql) }));
    if (kind === 'benchmark') {
      tables = await benchmarkFacts(w, target.root, dir, files, facts, tables, ok);
    } else {
      facts.models = (await optional(w, 'select distinct model from model_summary order by 1')).map((r) => String(r.model));
      facts.prompts = await recordedPrompts(w, RESULTS_PROMPTS);
      const runFacts = await optional(w, 'select * from run_facts');
      facts.producedBy = runFacts.length ? producedBy(new RunFacts(runFacts)) : null;
      const settings = await optional(w, 'select * from run_settings');
      facts.settings = settings.length ? settingLines(new RunSettings(settings)).map((l) => l.replace(/^- /, '')) : [];
    }
    for (const t of tables) {
      const data = await query(w, `table ${t.name}`, t.sql);
      const columns = (await query(w, `table ${t.name}`, `describe ${t.sql}`)).map((c) => ({
        name: String(c.column_name),
        type: String(c.column_type),
      }));
      writeFileSync(join(dir, `${t.name}.jsonl`), data.map((r) => JSON.stringify(r) + '\n').join(''));
      await w.con.run(`copy (${t.sql}) to ${sqlString(join(dir, `${t.name}.parquet`))} (format parquet)`);
      files.push(`${t.name}.jsonl`, `${t.name}.parquet`);
      counts[t.name] = data.length;
      cardTables.push({ name: t.name, description: t.description, rows: data.length, columns });
      // The card's QC counts are the exported rows' own.
      if (kind === 'benchmark' && t.name === 'cases') facts.qc = qcCounts(data);
    }
  } finally {
    w.close();
  }
  writeFileSync(join(dir, 'README.md'), datasetCard(facts));
  files.push('README.md');
  return { dir: relative(process.cwd(), dir).split(sep).join('/') || '.', files, counts };
}

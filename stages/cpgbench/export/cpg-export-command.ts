/**
 * `cdp --config cpgbench.config.ts export benchmark|results DIR`: CPGBench's tables
 * (cpg-export-tables.ts) and cards (cpg-benchmark-card.ts, cpg-results-card.ts), written by the
 * export both benchmarks share (stages/export/warehouse-export-command.ts). Here: the facts the
 * benchmark card needs beyond the exported rows (licences, the failure rows left out, the
 * prompts), and the licence column of the documents.
 */
import { optional, query, sqlString, type ExportDb } from '../../export/export-db.ts';
import { copyNotices, licencesFor } from '../../export/licences.ts';
import type { ExportTable } from '../../export/table-files.ts';
import {
  runExport,
  type ExportPlan,
  type ExportResult,
  type ExportTarget,
  type PlanContext,
} from '../../export/warehouse-export-command.ts';
import { cpgBenchmarkCard, type CpgBenchmarkFacts } from './cpg-benchmark-card.ts';
import { CPG_EXPORT_TABLES, type CpgExportKind } from './cpg-export-tables.ts';
import { cpgResultsCard } from './cpg-results-card.ts';

const CDP = 'cdp --config cpgbench.config.ts';
const WORDS = { prefix: `${CDP} export`, run: `\`${CDP} run\`` };
const UNKNOWN_LICENCE = 'unknown: guidelines.csv gives no license and no NOTICE.md beside the source names it';
const CONSTRUCTION = ['cpg_documents', 'cpg_recommendations', 'cpg_safety', 'cpg_conversations', 'cpg_task_inputs'];

const PROMPTS = [
  'select distinct unnest(templates) from cpg_documents where templates is not null',
  'select distinct template from cpg_recommendations where template is not null',
  'select distinct template from cpg_safety where template is not null',
  'select distinct template from cpg_conversations where template is not null',
  'select distinct template from cpg_detection where template is not null',
];

async function prompts(db: ExportDb): Promise<string[]> {
  const out = new Set<string>();
  for (const q of PROMPTS) for (const r of await optional(db, q)) out.add(String(Object.values(r)[0]));
  return [...out].sort();
}

async function failures(db: ExportDb): Promise<{ stage: string; n: number }[]> {
  const out: { stage: string; n: number }[] = [];
  for (const stage of CONSTRUCTION) {
    const [r] = await optional(db, `select count(*)::int as n from ${stage} where error is not null`);
    out.push({ stage, n: Number(r?.n ?? 0) });
  }
  return out;
}

/** Each document's licence: guidelines.csv's `license`, else a NOTICE.md beside its source, else unknown. */
async function licences({ db, corpus, dir, ok }: PlanContext) {
  const sql = ok(`select d.guideline_id, g.source_path, c.license from {ok:cpg_documents} d
    left join {ok:guidelines} g using (guideline_id) left join {ok:cpg_corpus} c using (guideline_id) order by d.guideline_id`);
  const docs = await query(db, 'documents', sql, WORDS.prefix, WORDS.run);
  const unlicensed = docs.filter((d) => d.license == null && d.source_path != null).map((d) => String(d.source_path));
  const notice = licencesFor(corpus, unlicensed);
  const list = docs.map((d) => ({
    guideline_id: String(d.guideline_id),
    source: String(d.source_path ?? ''),
    licence: d.license != null ? String(d.license) : (notice.licence.get(String(d.source_path)) ?? UNKNOWN_LICENCE),
  }));
  return { list, notices: copyNotices(corpus, dir, notice.notices) };
}

async function benchmarkFacts(ctx: PlanContext, tables: ExportTable[]) {
  const { list, notices } = await licences(ctx);
  const facts: CpgBenchmarkFacts = {
    licences: list,
    notices,
    failures: await failures(ctx.db),
    prompts: await prompts(ctx.db),
    sqlCommand: `${CDP} sql`,
  };
  // The licence rides along as a column, so each document row states its own terms.
  const values = list.map((l) => `(${sqlString(l.guideline_id)}, ${sqlString(l.licence)})`).join(', ');
  const withLicence = tables.map((t) =>
    t.name !== 'documents' || !values
      ? t
      : {
          ...t,
          sql: `with lic(guideline_id, licence) as (values ${values})
            select d.* exclude (corpus_licence), lic.licence from (${t.sql}) d left join lic using (guideline_id) order by d.guideline_id`,
        },
  );
  return { tables: withLicence, facts, files: notices };
}

export const CPG_EXPORT: ExportPlan<CpgBenchmarkFacts | null> = {
  words: WORDS,
  tables: CPG_EXPORT_TABLES,
  prepare: async (ctx, tables) => (ctx.kind === 'benchmark' ? benchmarkFacts(ctx, tables) : { tables, facts: null, files: [] }),
  card: (kind, facts, written) => (kind === 'benchmark' && facts ? cpgBenchmarkCard(facts, written) : cpgResultsCard(written)),
};

export function cpgExportCommand(kind: CpgExportKind, outDir: string, target: ExportTarget): Promise<ExportResult> {
  return runExport(CPG_EXPORT, kind, outDir, target);
}

/**
 * MEGA-CDP's `cdp export benchmark DIR` and `cdp export results DIR`: the tables of
 * export-tables.ts with a dataset card (dataset-card.ts), written by the export both benchmarks
 * share (warehouse-export-command.ts). What is MEGA-CDP's lives here: the builders and prompts
 * its rows record, the licences beside its PDFs, the split rule, who produced a run.
 */
import { producedBy } from '../report/produced-by.ts';
import { settingLines } from '../report/report-index.ts';
import { RunFacts } from '../report/run-facts.ts';
import { RunSettings } from '../report/run-settings.ts';
import { splitText } from '../report/setting-text.ts';
import { datasetCard, type CardFacts } from './dataset-card.ts';
import { distinct, optional, query, sqlString, type ExportDb } from './export-db.ts';
import { EXPORT_TABLES, type ExportKind, type ExportTable } from './export-tables.ts';
import { copyNotices, licencesFor, UNKNOWN_LICENCE } from './licences.ts';
import { qcCounts } from './qc-verdicts.ts';
import { runExport, type ExportPlan, type ExportResult, type ExportTarget, type PlanContext } from './warehouse-export-command.ts';

export type { ExportResult, ExportTarget } from './warehouse-export-command.ts';

const WORDS = { prefix: 'cdp export', run: '`cdp run`' };

async function builders(db: ExportDb): Promise<Record<string, string[]>> {
  return {
    'tree builder': await distinct(db, 'select distinct builder from trees where builder is not null order by 1'),
    'vignette writer': await distinct(db, 'select distinct generator from vignettes where generator is not null order by 1'),
    'narrative writer': await distinct(db, 'select distinct generator from narratives where generator is not null order by 1'),
    'QC inspector': await distinct(db, 'select distinct inspector from qc_inspection where inspector is not null order by 1'),
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
export async function recordedPrompts(db: ExportDb, queries: readonly string[]): Promise<string[]> {
  const prompts: string[] = [];
  for (const q of queries) prompts.push(...(await distinct(db, q)));
  return [...new Set(prompts)].sort();
}

const emptyFacts = (kind: ExportKind): CardFacts => ({
  kind,
  tables: [],
  builders: {},
  prompts: [],
  qc: null,
  producedBy: null,
  settings: [],
  licences: [],
  notices: [],
  models: [],
});

/** The benchmark's card facts (licences, notices copied beside it, builders, prompts, split) and its tables with the licence column. */
async function benchmarkFacts({ db, corpus, dir, ok }: PlanContext, tables: ExportTable[]) {
  const facts = emptyFacts('benchmark');
  const sql = ok('select guideline_id, source_path from {ok:guidelines} g order by guideline_id');
  const sources = (await query(db, 'guidelines', sql, WORDS.prefix, WORDS.run)).map((r) => ({
    id: String(r.guideline_id),
    source: String(r.source_path),
  }));
  const { licence, notices } = licencesFor(
    corpus,
    sources.map((s) => s.source),
  );
  facts.licences = sources.map((s) => ({ guideline_id: s.id, source: s.source, licence: licence.get(s.source) ?? UNKNOWN_LICENCE }));
  const files = copyNotices(corpus, dir, notices);
  facts.notices = files;
  facts.builders = await builders(db);
  facts.prompts = await recordedPrompts(db, BENCHMARK_PROMPTS);
  facts.settings = [`${splitText(new RunSettings(await optional(db, 'select * from run_settings')))}.`];
  // The licence rides along as a column, so each guideline row states its own terms.
  const values = facts.licences.map((l) => `(${sqlString(l.source)}, ${sqlString(l.licence)})`).join(', ');
  const withLicence = tables.map((t) =>
    t.name !== 'guidelines' || !values
      ? t
      : {
          ...t,
          sql: `with lic(source, licence) as (values ${values}) select g.*, lic.licence from (${t.sql}) g left join lic using (source) order by g.guideline_id`,
        },
  );
  return { tables: withLicence, facts, files };
}

async function resultsFacts({ db }: PlanContext, tables: ExportTable[]) {
  const facts = emptyFacts('results');
  facts.models = (await optional(db, 'select distinct model from model_summary order by 1')).map((r) => String(r.model));
  facts.prompts = await recordedPrompts(db, RESULTS_PROMPTS);
  const runFacts = await optional(db, 'select * from run_facts');
  facts.producedBy = runFacts.length ? producedBy(new RunFacts(runFacts)) : null;
  const settings = await optional(db, 'select * from run_settings');
  facts.settings = settings.length ? settingLines(new RunSettings(settings)).map((l) => l.replace(/^- /, '')) : [];
  return { tables, facts, files: [] };
}

export const MEGA_CDP_EXPORT: ExportPlan<CardFacts> = {
  words: WORDS,
  tables: EXPORT_TABLES,
  prepare: (ctx, tables) => (ctx.kind === 'benchmark' ? benchmarkFacts(ctx, tables) : resultsFacts(ctx, tables)),
  card(_kind, facts, written) {
    facts.tables = written.map((t) => ({ name: t.name, description: t.description, rows: t.rows.length, columns: t.columns }));
    // The card's QC counts are the exported rows' own.
    const cases = written.find((t) => t.name === 'cases');
    if (facts.kind === 'benchmark' && cases) facts.qc = qcCounts(cases.rows);
    return datasetCard(facts);
  },
};

export function exportCommand(kind: ExportKind, outDir: string, target: ExportTarget): Promise<ExportResult> {
  return runExport(MEGA_CDP_EXPORT, kind, outDir, target);
}

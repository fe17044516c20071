/**
 * Stage `cpg_documents`: CPGBench's document filter and metadata (§4.1–4.2), one row per
 * ingested guideline (joined with its `cpg_corpus` row).
 *
 * Each value comes from guidelines.csv when the corpus gives it (source 'corpus'), else from the
 * builder: bona fide CPG (Prompt 2), title, institute and publication date (Prompt 5), country or
 * region (Prompt 1), specialty (Prompt 6). Without a builder a value the corpus does not give
 * stays null (source null): an unchecked document is kept, an unknown region or specialty is
 * reported as "(unknown)", an unknown year excludes the document (the year filter cannot be
 * applied to it). The document sent is cut after `maxTokens` tokens (the paper's 128K, GPT-4o's
 * window). Each row records the cut it was made under: `max_tokens` (the param's value), `cut`
 * (whether it was cut), `tokens` (the whole document's, o200k; null when a bound on its length
 * already shows it fits, so it was not counted), `kept_tokens` (the tokens sent: `max_tokens` when
 * cut, else `tokens`) and `kept_chars` (the characters of the Markdown sent: where the cut fell). A document is `included` when it is not found to be a
 * non-CPG and was published in or after `minYear` (the paper's 2015); `excluded_reason` says why
 * not. A builder call that fails makes the row a failure naming the prompt and the reason.
 */
import { firstTokens, type Row, rowStage, type StageLlm, z } from '../../../pipeline/stage.ts';
import { modelRefSchema, type ModelRef } from '../../roster/model-ref.ts';
import { askBuilder, type BuilderQuestion } from './builder-ask.ts';
import { parseBonaFide, parseCountry, parseDocumentInfo, parseSpecialty, type DocumentInfo } from './builder-answers.ts';
import { ABMS_SPECIALTIES, OTHER_SPECIALTY, PAPER_REGIONS, bulletList } from './taxonomy.ts';

export interface CpgDocumentsParams {
  /** The builder model (the wiring's roster value); null when none is configured. */
  builder: ModelRef | null;
  minYear: number;
  maxTokens: number;
  maxAttempts: number;
}

type Source = 'corpus' | string | null;

export default rowStage<CpgDocumentsParams>({
  inputs: { guidelines: 'drives', cpg_corpus: 'joined' },
  params: {
    builder: modelRefSchema.nullable(),
    minYear: z.int().min(1900).max(2100).default(2015),
    maxTokens: z.int().min(1).default(128000),
    maxAttempts: z.int().min(1).max(10).default(3),
  },
  columns: {
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    title: 'VARCHAR',
    institute: 'VARCHAR',
    publication_date: 'VARCHAR',
    year: 'INTEGER',
    region: 'VARCHAR',
    specialty: 'VARCHAR',
    bona_fide: 'BOOLEAN',
    included: 'BOOLEAN',
    excluded_reason: 'VARCHAR',
    bona_fide_source: 'VARCHAR',
    year_source: 'VARCHAR',
    region_source: 'VARCHAR',
    specialty_source: 'VARCHAR',
    tokens: 'INTEGER',
    cut: 'BOOLEAN',
    kept_tokens: 'INTEGER',
    kept_chars: 'INTEGER',
    max_tokens: 'INTEGER',
    min_year: 'INTEGER',
    builder: 'VARCHAR',
    templates: 'VARCHAR[]',
  },
  async run({ row, joined }, ctx) {
    const doc = joined.cpg_corpus[0];
    const id = String(row.guideline_id);
    if (!doc) return { guideline_id: id, error: `no cpg_corpus row for '${id}'; join cpg_corpus on guideline_id` };
    const { minYear, maxTokens, maxAttempts } = ctx.params;
    const builder = ctx.params.builder?.name ?? null;
    const cut = firstTokens(String(row.markdown ?? ''), maxTokens);
    const base = {
      guideline_id: id,
      language: row.language,
      tokens: cut.tokens,
      cut: cut.cut,
      kept_tokens: cut.cut ? maxTokens : cut.tokens,
      kept_chars: cut.text.length,
      max_tokens: maxTokens,
      min_year: minYear,
      builder,
    };
    const asker = builder ? makeAsker(ctx.llm, builder, String(row.language), cut.text, maxAttempts) : null;
    const templates: string[] = [];
    const ask = async <T>(
      q: Omit<BuilderQuestion<T>, 'language' | 'vars' | 'shared'> & { vars?: Record<string, string> },
    ): Promise<T | null> => {
      if (!asker) return null;
      const a = await asker(q);
      templates.push(a.template);
      if (!a.ok) throw new Error(a.error);
      return a.value;
    };
    try {
      return { ...base, ...(await decide(row, doc, minYear, ask, builder)), templates };
    } catch (err) {
      return { ...base, templates, error: (err as Error).message };
    }
  },
});

type Ask = <T>(q: Omit<BuilderQuestion<T>, 'language' | 'vars' | 'shared'> & { vars?: Record<string, string> }) => Promise<T | null>;

function makeAsker(llm: StageLlm, builder: string, language: string, document: string, maxAttempts: number) {
  return <T>(q: Omit<BuilderQuestion<T>, 'language' | 'vars' | 'shared'> & { vars?: Record<string, string> }) =>
    askBuilder(llm, builder, { ...q, language, vars: { ...q.vars, Document: document }, shared: ['Document'] }, maxAttempts);
}

const or = <T>(given: T | null, asked: T | null, builder: string | null): [T | null, Source] =>
  given !== null ? [given, 'corpus'] : asked !== null ? [asked, builder] : [null, null];

async function decide(row: Row, doc: Row, minYear: number, ask: Ask, builder: string | null): Promise<Row> {
  const given = (k: string) => (doc[k] === undefined || doc[k] === null ? null : doc[k]);
  const [bonaFide, bonaFideSource] = or(
    given('bona_fide') as boolean | null,
    given('bona_fide') === null ? await ask({ id: 'cpg-document-filter', parse: parseBonaFide }) : null,
    builder,
  );
  const facts = { bona_fide: bonaFide, bona_fide_source: bonaFideSource, title: given('title') ?? row.title ?? null };
  if (bonaFide === false)
    return { ...facts, included: false, excluded_reason: `not a bona fide clinical practice guideline (${bonaFideSource})` };
  const csvYear = given('year') as number | null;
  if (csvYear !== null && csvYear < minYear)
    return {
      ...facts,
      year: csvYear,
      year_source: 'corpus',
      included: false,
      excluded_reason: `published in ${csvYear}, before ${minYear}`,
    };
  const needInfo = csvYear === null || given('title') === null || given('institute') === null;
  const info: DocumentInfo | null = needInfo ? await ask({ id: 'cpg-document-information', parse: parseDocumentInfo }) : null;
  const [year, yearSource] = or(csvYear, info?.year ?? null, builder);
  const [region, regionSource] = or(
    given('region') as string | null,
    given('region') === null ? await ask({ id: 'cpg-country', parse: parseCountry, vars: { Regions: bulletList(PAPER_REGIONS) } }) : null,
    builder,
  );
  const [specialty, specialtySource] = or(
    given('specialty') as string | null,
    given('specialty') === null
      ? await ask({ id: 'cpg-specialty', parse: parseSpecialty, vars: { Specialties: bulletList([...ABMS_SPECIALTIES, OTHER_SPECIALTY]) } })
      : null,
    builder,
  );
  const out = {
    ...facts,
    title: given('title') ?? info?.title ?? row.title ?? null,
    institute: given('institute') ?? info?.institute ?? null,
    publication_date: info?.date ?? (csvYear !== null ? String(csvYear) : null),
    year,
    year_source: yearSource,
    region,
    region_source: regionSource,
    specialty,
    specialty_source: specialtySource,
  };
  if (year === null)
    return {
      ...out,
      included: false,
      excluded_reason: 'publication year unknown: guidelines.csv gives none and no builder read it; add the year',
    };
  if (year < minYear) return { ...out, included: false, excluded_reason: `published in ${year}, before ${minYear}` };
  return { ...out, included: true, excluded_reason: null };
}

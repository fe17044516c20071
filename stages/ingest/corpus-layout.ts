/**
 * A guideline corpus laid out as a directory, read from its file list:
 *
 *   DIR/guidelines/[<language>/]<guideline_id>.{pdf,md,txt}   the documents
 *   DIR/trees/<guideline_id>.json                              optional: a tree in Prompt 1's format
 *   DIR/guidelines.csv                                         optional: guideline_id, language, title, split, year, source, license
 *
 * One entry per guideline id; each problem becomes an entry whose `error` names the file (and
 * the CSV line) and says what to do, so one bad entry never stops the rest. A guideline's
 * language is its CSV row's, else its folder's; with neither it is left null and the
 * guidelines stage tells it from the text.
 *
 * Both benchmarks read corpora this way. MEGA-CDP's prompts exist for en and zh (the default
 * `languages`); CPGBench's corpora add de. The CSV's other columns (CPGBench's region, specialty,
 * institute, bona_fide) are returned as `extras`, untouched, for the benchmark that reads them.
 */
import Papa from 'papaparse';

export const CORPUS_LANGUAGES = ['en', 'zh'] as const;
export const CORPUS_SPLITS = ['test', 'non-test'] as const;
const CSV_COLUMNS = ['guideline_id', 'language', 'title', 'split', 'year', 'source', 'license'];

export interface CorpusFile {
  path: string;
  sha256: string;
}

export interface CorpusDocument {
  guideline_id: string;
  language: string | null;
  title: string | null;
  split: string | null;
  year: number | null;
  source: string | null;
  license: string | null;
  path: string;
  sha256: string | null;
  format: string | null;
  error: string | null;
}

export interface CorpusTree {
  guideline_id: string;
  path: string;
  sha256: string;
  error: string | null;
}

const DOCUMENT = /(?:^|\/)guidelines\/(?:([^/]+)\/)?([^/]+)\.(pdf|md|txt)$/i;
const TREE = /(?:^|\/)trees\/([^/]+)\.json$/i;

/**
 * A CSV row that cannot be used. A `repeat` (an id listed again) is an error of its own line only:
 * the guideline keeps the row it was first listed on.
 */
interface CsvError {
  line: number;
  id: string;
  error: string;
  repeat?: boolean;
}

interface CsvEntry {
  line: number;
  language: string | null;
  title: string | null;
  split: string | null;
  year: number | null;
  source: string | null;
  license: string | null;
}

/** The CSV's rows by guideline id, and an error entry for each row that cannot be used. */
export function parseGuidelinesCsv(
  path: string,
  text: string,
  languages: readonly string[] = CORPUS_LANGUAGES,
): { rows: Map<string, CsvEntry>; errors: CsvError[]; extras: Map<string, Record<string, string>> } {
  const rows = new Map<string, CsvEntry>();
  const extras = new Map<string, Record<string, string>>();
  const errors: CsvError[] = [];
  // The line each id is first listed on, whether that row is usable or not: it is the guideline's row.
  const firstLine = new Map<string, number>();
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' });
  const header = parsed.meta.fields ?? [];
  if (!header.includes('guideline_id')) {
    errors.push({
      line: 1,
      id: '',
      error: `${path} line 1: no guideline_id column (header: ${header.join(', ') || 'empty'}); the columns are ${CSV_COLUMNS.join(', ')}`,
    });
    return { rows, errors, extras };
  }
  // Columns beyond these are the corpus's own business and are ignored.
  const badRows = new Set(parsed.errors.filter((e) => e.row !== undefined).map((e) => e.row as number));
  parsed.data.forEach((r, i) => {
    // Papaparse numbers data rows from 0 after the header; quoted newlines are not expected here.
    const line = i + 2;
    const id = (r.guideline_id ?? '').trim();
    const at = `${path} line ${line}`;
    const fail = (error: string) => errors.push({ line, id, error: `${at}: ${error}` });
    if (badRows.has(i))
      return fail(`unreadable row (${parsed.errors.find((e) => e.row === i)!.message}); each row needs ${header.length} fields`);
    if (!id) return fail('empty guideline_id');
    const first = firstLine.get(id);
    if (first !== undefined) {
      errors.push({
        line,
        id,
        repeat: true,
        error: `${at}: guideline_id '${id}' is already listed on line ${first}, which is the one used; list each guideline once`,
      });
      return;
    }
    firstLine.set(id, line);
    const language = (r.language ?? '').trim() || null;
    if (language && !languages.includes(language)) {
      return fail(`unknown language '${language}' for '${id}'; the prompts exist for ${languages.join(', ')}`);
    }
    const split = (r.split ?? '').trim() || null;
    if (split && !(CORPUS_SPLITS as readonly string[]).includes(split))
      return fail(`split '${split}' for '${id}' is neither ${CORPUS_SPLITS.join(' nor ')}`);
    const yearText = (r.year ?? '').trim();
    const year = yearText ? Number(yearText) : null;
    if (year !== null && !Number.isInteger(year)) return fail(`year '${yearText}' for '${id}' is not a whole number`);
    const text = (k: string) => (r[k] ?? '').trim() || null;
    rows.set(id, { line, language, title: text('title'), split, year, source: text('source'), license: text('license') });
    const rest = Object.entries(r).filter(([k]) => !CSV_COLUMNS.includes(k));
    extras.set(id, Object.fromEntries(rest.map(([k, v]) => [k, (v ?? '').trim()])));
  });
  return { rows, errors, extras };
}

/**
 * The corpus's guidelines and imported trees. `csv` is the CSV's text when the file list has one
 * (read by the caller: this function does no I/O).
 */
export function readCorpus(
  files: readonly CorpusFile[],
  csv: { path: string; text: string } | null,
  languages: readonly string[] = CORPUS_LANGUAGES,
): { documents: CorpusDocument[]; trees: CorpusTree[]; extras: Map<string, Record<string, string>> } {
  const byId = new Map<string, { path: string; sha256: string; folder: string | null; format: string }[]>();
  const treeFiles: CorpusFile[] = [];
  for (const f of files) {
    const d = DOCUMENT.exec(f.path);
    if (d) {
      const list = byId.get(d[2]) ?? [];
      list.push({ path: f.path, sha256: f.sha256, folder: d[1] ?? null, format: d[3].toLowerCase() });
      byId.set(d[2], list);
    } else if (TREE.test(f.path)) treeFiles.push(f);
  }
  const meta = csv
    ? parseGuidelinesCsv(csv.path, csv.text, languages)
    : { rows: new Map<string, CsvEntry>(), errors: [], extras: new Map<string, Record<string, string>>() };
  const documents: CorpusDocument[] = [];
  const blank = { language: null, title: null, split: null, year: null, source: null, license: null, sha256: null, format: null };
  for (const [id, list] of [...byId].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const m = meta.rows.get(id);
    const doc = list[0];
    if (list.length > 1) {
      documents.push({
        ...blank,
        guideline_id: id,
        path: doc.path,
        error: `guideline '${id}' has ${list.length} documents (${list.map((x) => x.path).join(', ')}); keep one`,
      });
      continue;
    }
    const bad = meta.errors.find((e) => e.id === id && !e.repeat);
    if (bad) {
      documents.push({ ...blank, guideline_id: id, path: doc.path, error: bad.error });
      continue;
    }
    let language = m?.language ?? null;
    if (!language && doc.folder) {
      if (!languages.includes(doc.folder)) {
        documents.push({
          ...blank,
          guideline_id: id,
          path: doc.path,
          error: `${doc.path}: unknown language folder '${doc.folder}'; use ${languages.join(' or ')}/, or give the language in guidelines.csv`,
        });
        continue;
      }
      language = doc.folder;
    }
    documents.push({
      guideline_id: id,
      language,
      title: m?.title ?? null,
      split: m?.split ?? null,
      year: m?.year ?? null,
      source: m?.source ?? null,
      license: m?.license ?? null,
      path: doc.path,
      sha256: doc.sha256,
      format: doc.format,
      error: null,
    });
  }
  for (const e of meta.errors) {
    if (byId.has(e.id) && !e.repeat) continue;
    // Named by its line when its id belongs to another row: one id is one guideline downstream.
    const named = e.id && !e.repeat ? e.id : `${csv!.path}:${e.line}`;
    documents.push({ ...blank, guideline_id: named, path: csv!.path, error: e.error });
  }
  for (const [id, m] of meta.rows) {
    if (!byId.has(id)) {
      documents.push({
        ...blank,
        guideline_id: id,
        path: csv!.path,
        error: `${csv!.path} line ${m.line}: '${id}' has no document guidelines/${id}.{pdf,md,txt}; add it or remove the row`,
      });
    }
  }
  const trees: CorpusTree[] = treeFiles.map((f) => {
    const id = TREE.exec(f.path)![1];
    const error = byId.has(id)
      ? null
      : `${f.path}: a tree for no document (no guidelines/${id}.{pdf,md,txt}); add the document or remove the tree`;
    return { guideline_id: id, path: f.path, sha256: f.sha256, error };
  });
  return { documents, trees, extras: meta.extras };
}

/** A guideline's language told from its text: Chinese when CJK characters are a fifth of its letters. */
export function languageOfText(text: string): 'en' | 'zh' {
  const sample = text.slice(0, 20000);
  const cjk = (sample.match(/[\u4e00-\u9fff]/g) ?? []).length;
  const latin = (sample.match(/[A-Za-z]/g) ?? []).length;
  return cjk > 0 && cjk * 5 >= cjk + latin ? 'zh' : 'en';
}

/**
 * Stage `corpus`: one row per guideline of the corpus directory (corpus-layout.ts), with its
 * document, language, title and pinned split, or an `error` naming the bad entry's file and
 * line. A table stage because a guideline's row depends on the whole file list (its CSV row, a
 * duplicate document); the guidelines stage then ingests row by row, so a new guideline is
 * ingested alone.
 */
import { readFileSync } from 'node:fs';
import { tableStage } from '../../pipeline/stage.ts';
import { readCorpus, type CorpusFile } from './corpus-layout.ts';

export const CORPUS_DOCUMENT_COLUMNS = {
  guideline_id: 'VARCHAR',
  language: 'VARCHAR',
  title: 'VARCHAR',
  split: 'VARCHAR',
  year: 'INTEGER',
  source: 'VARCHAR',
  license: 'VARCHAR',
  path: 'VARCHAR',
  sha256: 'VARCHAR',
  format: 'VARCHAR',
  error: 'VARCHAR',
} as const;

/**
 * A files source's rows as corpus files, and the text of its guidelines.csv (read from disk here,
 * through `file`: the stage's `ctx.file`), if any.
 */
export function csvOf(
  files: readonly Record<string, unknown>[],
  file: (path: string) => string,
): { list: CorpusFile[]; csv: { path: string; text: string } | null } {
  const list: CorpusFile[] = files.map((f) => ({ path: String(f.path), sha256: String(f.sha256) }));
  const csvs = list.filter((f) => /(?:^|\/)guidelines\.csv$/i.test(f.path));
  if (csvs.length > 1)
    throw new Error(`the corpus has ${csvs.length} guidelines.csv files (${csvs.map((c) => c.path).join(', ')}); keep one`);
  const csv = csvs[0] ? { path: csvs[0].path, text: readFileSync(file(csvs[0].path), 'utf8') } : null;
  return { list, csv };
}

/** The corpus as read from a files source's rows. */
export function corpusOf(files: readonly Record<string, unknown>[], file: (path: string) => string): ReturnType<typeof readCorpus> {
  const { list, csv } = csvOf(files, file);
  return readCorpus(list, csv);
}

export default tableStage({
  inputs: { files: 'whole' },
  params: {},
  columns: CORPUS_DOCUMENT_COLUMNS,
  run({ files }, ctx) {
    const { documents } = corpusOf(files, ctx.file);
    for (const d of documents) if (d.error) ctx.log(d.error);
    return documents.map((d) => ({ ...d }));
  },
});

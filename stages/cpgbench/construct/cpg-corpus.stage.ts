/**
 * Stage `cpg_corpus`: one row per guideline of a CPGBench corpus (cpg-corpus.ts), in the shape
 * the shared `guidelines` stage ingests, with CPGBench's metadata columns; a bad entry is a row
 * whose `error` names the file and says what to do. A table stage, as the shared `corpus` is: a
 * row depends on the whole file list (its CSV line, a duplicate document).
 */
import { tableStage } from '../../../pipeline/stage.ts';
import { CORPUS_DOCUMENT_COLUMNS, csvOf } from '../../ingest/corpus.stage.ts';
import { readCpgCorpus } from './cpg-corpus.ts';

export const CPG_CORPUS_COLUMNS = {
  ...CORPUS_DOCUMENT_COLUMNS,
  region: 'VARCHAR',
  specialty: 'VARCHAR',
  institute: 'VARCHAR',
  bona_fide: 'BOOLEAN',
} as const;

export default tableStage({
  inputs: { files: 'whole' },
  params: {},
  columns: CPG_CORPUS_COLUMNS,
  run({ files }, ctx) {
    const { list, csv } = csvOf(files, ctx.file);
    const documents = readCpgCorpus(list, csv);
    for (const d of documents) if (d.error) ctx.log(d.error);
    return documents.map((d) => ({ ...d }));
  },
});

/**
 * Stage `cpg_corpus_recommendations`: the corpus's own recommendation files
 * (DIR/recommendations/<guideline_id>.json), one row per file with its checksum; a file for no
 * document is a row whose `error` names it. `cpg_recommendations` joins these by guideline id and
 * imports them instead of asking the builder, so editing one file reruns that guideline alone.
 */
import { tableStage } from '../../../pipeline/stage.ts';
import { csvOf } from '../../ingest/corpus.stage.ts';
import { readCpgCorpus, recommendationFiles } from './cpg-corpus.ts';

export default tableStage({
  inputs: { files: 'whole' },
  params: {},
  columns: { guideline_id: 'VARCHAR', path: 'VARCHAR', sha256: 'VARCHAR', error: 'VARCHAR' },
  run({ files }, ctx) {
    const { list, csv } = csvOf(files, ctx.file);
    const ids = new Set(readCpgCorpus(list, csv).map((d) => d.guideline_id));
    const out = recommendationFiles(list, ids);
    for (const f of out) if (f.error) ctx.log(f.error);
    return out.map((f) => ({ ...f }));
  },
});

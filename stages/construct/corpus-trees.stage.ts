/**
 * Stage `corpus_trees`: the corpus's own reasoning trees (DIR/trees/<guideline_id>.json), one
 * row per file; a tree for no document is a row whose `error` names the file. The trees stage
 * joins these by guideline id and imports a tree instead of asking the builder. Only paths and
 * checksums are listed here, so editing a tree reruns that guideline's tree alone.
 */
import { tableStage } from '../../pipeline/stage.ts';
import { corpusOf } from '../ingest/corpus.stage.ts';

export default tableStage({
  inputs: { files: 'whole' },
  params: {},
  columns: { guideline_id: 'VARCHAR', path: 'VARCHAR', sha256: 'VARCHAR', error: 'VARCHAR' },
  run({ files }, ctx) {
    const { trees } = corpusOf(files, ctx.file);
    for (const t of trees) if (t.error) ctx.log(t.error);
    return trees.map((t) => ({ ...t }));
  },
});

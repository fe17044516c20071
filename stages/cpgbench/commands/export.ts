/** `cdp --config cpgbench.config.ts export benchmark|results DIR`: CPGBench's built benchmark, or a run's results, as Parquet + JSONL with a dataset card. */
import type { RegisterCommand } from '../../../pipeline/cli/config-exports.ts';
import { sourceDir } from '../../../pipeline/exec/sources.ts';

export const exportData: RegisterCommand = (program, project) => {
  program
    .command('export')
    .description(
      "write CPGBench's built benchmark (documents, recommendations, conversations, task inputs) or the run's results (answers, judgements, rates) as Parquet and JSONL with a dataset card (README.md)",
    )
    .argument('<kind>', 'benchmark or results')
    .argument('<dir>', 'output folder (new, empty, or an earlier export)')
    .action(async (kind: string, dir: string) => {
      if (kind !== 'benchmark' && kind !== 'results')
        throw new Error(`cdp --config cpgbench.config.ts export: kind must be benchmark or results, got "${kind}"`);
      const p = await project();
      const { cpgExportCommand } = await import('../export/cpg-export-command.ts');
      // The guidelines' source_path is relative to the corpus, where the NOTICE.md files are.
      const corpus = sourceDir(p.dag.root, p.dag.config.sources.cpg_corpus_files!);
      const r = await cpgExportCommand(kind, dir, { root: p.ws.root, warehouse: p.ws.warehouse, store: p.ws.store, corpus });
      for (const [t, n] of Object.entries(r.counts)) process.stdout.write(`${t}: ${n} rows\n`);
      process.stdout.write(`wrote ${r.files.length} files to ${r.dir}\n`);
    });
};

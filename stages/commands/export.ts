/** `cdp export benchmark|results DIR`: the built benchmark, or a run's results, as Parquet + JSONL with a dataset card. */
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';
import { sourceDir } from '../../pipeline/exec/sources.ts';

export const exportData: RegisterCommand = (program, project) => {
  program
    .command('export')
    .description("write the built benchmark (guidelines, cases) or the run's results as Parquet and JSONL with a dataset card (README.md)")
    .argument('<kind>', 'benchmark or results')
    .argument('<dir>', 'output folder (new, empty, or an earlier export)')
    .action(async (kind: string, dir: string) => {
      if (kind !== 'benchmark' && kind !== 'results') throw new Error(`cdp export: kind must be benchmark or results, got "${kind}"`);
      const p = await project();
      const { exportCommand } = await import('../export/export-command.ts');
      // The guidelines' source_path is relative to the corpus, where the NOTICE.md files are.
      const corpus = sourceDir(p.dag.root, p.dag.config.sources.corpus_files!);
      const r = await exportCommand(kind, dir, { root: p.ws.root, warehouse: p.ws.warehouse, store: p.ws.store, corpus });
      for (const [t, n] of Object.entries(r.counts)) process.stdout.write(`${t}: ${n} rows\n`);
      process.stdout.write(`wrote ${r.files.length} files to ${r.dir}\n`);
    });
};

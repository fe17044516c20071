/** `cdp import predictions FILE`: predictions made elsewhere (JSONL) into the store's imports/, judged by the next `cdp run`. */
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';

export const importData: RegisterCommand = (program, project) => {
  program
    .command('import')
    .description(
      "import predictions made elsewhere into the store's imports/: JSONL lines {setting, model, cdp_id, steps | questions, outcome, transcript?}",
    )
    .argument('<kind>', 'predictions')
    .argument('<file>', 'a JSONL file')
    .action(async (kind: string, file: string) => {
      if (kind !== 'predictions') throw new Error(`cdp import: only "predictions" can be imported, got "${kind}"`);
      const p = await project();
      const { importPredictions, importSummary } = await import('../evaluate/import-command.ts');
      const r = await importPredictions(file, { root: p.ws.root, warehouse: p.ws.warehouse, store: p.ws.store });
      process.stderr.write(importSummary(r));
      process.exitCode = r.single + r.multi ? 0 : 1;
    });
};

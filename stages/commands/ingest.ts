/** `cdp ingest <file.pdf>`: the Markdown of any PDF, as the guidelines stage would produce it. */
import type { RegisterCommand } from '../../pipeline/cli/config-exports.ts';

export const ingest: RegisterCommand = (program) => {
  program
    .command('ingest')
    .description('print the Markdown extracted from a PDF (warnings on stderr)')
    .argument('<file>', 'a PDF file')
    .option('--language <lang>', 'en or zh (picks the OCR languages; default: from the path, else both)')
    .action(async (file: string, o: { language?: 'en' | 'zh' }) => {
      // Imported when the command runs: PDF parsing (mupdf's WebAssembly) is slow to load.
      const { ingestCommand } = await import('../ingest/ingest-command.ts');
      process.exitCode = await ingestCommand(file, process.stdout, { language: o.language });
    });
};

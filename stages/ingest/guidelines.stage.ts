/**
 * Stage `guidelines`: one row per guideline PDF, with its Markdown. The guideline id is the file
 * name without `.pdf`; the language is the folder it sits in (`en/`, `zh/`). A PDF that cannot be
 * read becomes a row whose `error` names the file and the problem; the others go on.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { rowStage } from '../../pipeline/stage.ts';

export default rowStage<{ ocrDpi: number }>({
  // Tesseract's recommended resolution for body text.
  params: { ocrDpi: 300 },
  columns: {
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    title: 'VARCHAR',
    source_path: 'VARCHAR',
    sha256: 'VARCHAR',
    pages: 'INTEGER',
    markdown: 'VARCHAR',
    extraction: 'STRUCT(page_methods VARCHAR[], warnings VARCHAR[])',
  },
  async run({ row }, ctx) {
    // Loaded here rather than at the top: mupdf's WebAssembly takes seconds to load, and a run
    // that reuses this stage should not pay for it.
    const { pdfToMarkdown } = await import('./pdf-to-markdown.ts');
    const { languageFromPath } = await import('./ingest-command.ts');
    const path = row.path as string;
    const language = languageFromPath(path) ?? 'en';
    const id = { guideline_id: basename(path).replace(/\.pdf$/i, ''), language, source_path: path, sha256: row.sha256 as string };
    const result = await pdfToMarkdown(await readFile(join(ctx.root, path)), { name: path, language, ocrDpi: ctx.params.ocrDpi });
    if (!result.ok) return { ...id, error: result.error };
    return {
      ...id,
      title: result.title,
      pages: result.pages,
      markdown: result.markdown,
      extraction: { page_methods: result.pageMethods, warnings: result.warnings },
    };
  },
});

/**
 * Stage `guidelines`: one row per guideline of the corpus (stage `corpus`), with its Markdown.
 * PDFs are ingested; Markdown and text documents are used as they are. The language is the
 * corpus's (CSV or folder), else told from the text; the title is the CSV's, else the PDF's or
 * the document's first heading. A document that cannot be read becomes a row whose `error`
 * names the file and the problem; the others go on. A plain files source's row (path, sha256)
 * is a guideline too: its id is the file name, its language the folder it sits in (en/, zh/).
 */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { rowStage, z } from '../../pipeline/stage.ts';
import { languageOfText } from './corpus-layout.ts';

export default rowStage<{ ocrDpi: number }>({
  inputs: { corpus: 'drives' },
  // Tesseract's recommended resolution for body text.
  params: { ocrDpi: z.int().min(72).max(1200).default(300) },
  columns: {
    guideline_id: 'VARCHAR',
    language: 'VARCHAR',
    title: 'VARCHAR',
    source_path: 'VARCHAR',
    sha256: 'VARCHAR',
    format: 'VARCHAR',
    pages: 'INTEGER',
    markdown: 'VARCHAR',
    extraction: 'STRUCT(page_methods VARCHAR[], warnings VARCHAR[])',
    // The split the corpus pins (guidelines.csv), or null for the split rule to decide.
    pinned_split: 'VARCHAR',
    year: 'INTEGER',
    source: 'VARCHAR',
    license: 'VARCHAR',
  },
  async run({ row }, ctx) {
    const path = row.path as string;
    const format = (row.format as string | undefined) ?? extname(path).slice(1).toLowerCase();
    if (row.guideline_id === undefined) row = { ...row, language: /(?:^|\/)(en|zh)\//.exec(path)?.[1] ?? null };
    const id = {
      guideline_id: (row.guideline_id as string | undefined) ?? basename(path).replace(/\.(pdf|md|txt)$/i, ''),
      source_path: path,
      sha256: row.sha256 as string,
      format,
      pinned_split: (row.split as string | null) ?? null,
      year: (row.year as number | null) ?? null,
      source: (row.source as string | null) ?? null,
      license: (row.license as string | null) ?? null,
    };
    let bytes: Buffer;
    try {
      bytes = await readFile(ctx.file(path));
    } catch (err) {
      return { ...id, language: row.language, error: `${path}: cannot read the document (${(err as Error).message})` };
    }
    if (format === 'md' || format === 'txt') {
      const markdown = bytes.toString('utf8').replace(/^\uFEFF/, '');
      if (!markdown.trim()) return { ...id, language: row.language, error: `${path}: the document is empty` };
      const heading = /^#{1,2}\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? markdown.trim().split('\n')[0].trim().slice(0, 200);
      return {
        ...id,
        language: (row.language as string | null) ?? languageOfText(markdown),
        title: (row.title as string | null) ?? heading,
        markdown,
        extraction: { page_methods: [format], warnings: [] },
      };
    }
    // Loaded here rather than at the top: mupdf's WebAssembly takes seconds to load, and a run
    // that reuses this stage should not pay for it.
    const { pdfToMarkdown } = await import('./pdf-to-markdown.ts');
    const given = (row.language as 'en' | 'zh' | null) ?? undefined;
    const result = await pdfToMarkdown(bytes, { name: path, language: given, ocrDpi: ctx.params.ocrDpi });
    if (!result.ok) return { ...id, language: given ?? null, error: result.error };
    return {
      ...id,
      language: given ?? languageOfText(result.markdown),
      title: (row.title as string | null) ?? result.title,
      pages: result.pages,
      markdown: result.markdown,
      extraction: { page_methods: result.pageMethods, warnings: result.warnings },
    };
  },
});

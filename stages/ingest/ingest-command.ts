// `cdp ingest <file.pdf>`: prints the Markdown of a PDF; warnings and errors go to stderr.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { pdfToMarkdown } from './pdf-to-markdown.ts';

/** Guesses the language hint from a path segment such as ".../zh/..." (used only to pick OCR languages). */
export function languageFromPath(path: string): 'en' | 'zh' | undefined {
  const m = /(?:^|[\\/])(en|zh)[\\/]/.exec(path);
  return m ? (m[1] as 'en' | 'zh') : undefined;
}

export async function ingestCommand(
  path: string,
  out: NodeJS.WritableStream,
  opts: { language?: 'en' | 'zh'; err?: NodeJS.WritableStream } = {},
): Promise<number> {
  const err = opts.err ?? process.stderr;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    err.write(`cdp ingest: cannot read ${path}: ${(e as Error).message}\n`);
    return 2;
  }
  const result = await pdfToMarkdown(bytes, { name: basename(path), language: opts.language ?? languageFromPath(path) });
  if (!result.ok) {
    err.write(`cdp ingest: ${result.error}\n`);
    return 1;
  }
  for (const w of result.warnings) err.write(`warning: ${w}\n`);
  await new Promise<void>((resolve, reject) => out.write(result.markdown, (e) => (e ? reject(e) : resolve())));
  return 0;
}

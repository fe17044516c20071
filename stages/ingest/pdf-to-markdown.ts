// PDF bytes -> Markdown. Text-layer pages go through layout analysis; pages without text go to
// OCR. A document that cannot be read gives { ok: false, error } naming the file and the problem;
// this function never throws, so one bad document never stops a batch.
import * as mupdf from 'mupdf';
import type { Block, IngestOptions, IngestResult, PageMethod, PageText } from './types.ts';
import { countImages, readPageText } from './structured-text.ts';
import { removeRunningHeads } from './running-heads.ts';
import { readingOrder } from './columns.ts';
import { bodyFontSize, headingLevels } from './headings.ts';
import { buildVocabulary, joinLines, type HyphenVocabulary } from './reflow.ts';
import { pageBlocks, type RawBlock } from './blocks.ts';
import { mergeContinuations, textBlocks, toMarkdown } from './markdown.ts';
import { ocrLanguages, ocrPage } from './ocr.ts';
import { wasRepaired, withMupdfLog } from './mupdf-log.ts';

/** A page with fewer non-space characters than this and an image on it is treated as a scan. */
export const MIN_TEXT_CHARS = 20;

function fail(name: string, problem: string): IngestResult {
  return { ok: false, error: `${name}: ${problem}` };
}

/** Why these bytes are not a PDF we can open, or null when they look like one. */
export function sniff(bytes: Uint8Array, name: string): IngestResult | null {
  if (bytes.length === 0) return fail(name, 'empty file (0 bytes); re-download or re-export the PDF');
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) {
    // Text: valid UTF-8 (no replacement characters) without control bytes in the first KiB.
    const start = Buffer.from(bytes.subarray(0, 1024))
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    // eslint-disable-next-line no-control-regex -- control characters are exactly what marks a binary header
    const printable = !/[\x00-\x08\x0b\x0c\x0e-\x1f\uFFFD]/.test(start);
    return fail(
      name,
      `not a PDF (no %PDF- header${printable ? '; it looks like a text file' : ''}); check that the file really is the PDF you meant`,
    );
  }
  return null;
}

/** A complete PDF ends with %%EOF (perhaps followed by a little whitespace or junk). */
export function isTruncated(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).toString('latin1');
  return !tail.includes('%%EOF');
}

function plausibleTitle(t: string | undefined): string | null {
  const s = t?.trim();
  if (!s || s.length < 4 || /[~_]|^untitled|\.(pdf|docx?|indd)$/i.test(s)) return null;
  if (!/\s/.test(s) && !/\p{Script=Han}/u.test(s)) return null;
  return s;
}

function ocrBlocks(text: string, page: number, vocab: HyphenVocabulary): Block[] {
  return text
    .split(/\n\s*\n/)
    .map((p) =>
      joinLines(
        p.split('\n').filter((l) => l.trim()),
        vocab,
      ),
    )
    .filter((t) => t.trim())
    .map((t) => ({ kind: 'paragraph' as const, text: t, page, flow: -1 - page }));
}

export async function pdfToMarkdown(bytes: Uint8Array, opts: IngestOptions): Promise<IngestResult> {
  try {
    return await convert(bytes, opts);
  } catch (err) {
    return fail(
      opts.name,
      `could not be read (${(err as Error).message}); the file is probably corrupt or truncated — re-download or re-export it`,
    );
  }
}

async function convert(bytes: Uint8Array, opts: IngestOptions): Promise<IngestResult> {
  const { name } = opts;
  const bad = sniff(bytes, name);
  if (bad) return bad;
  let doc: mupdf.Document;
  let openLog: string[];
  try {
    const opened = withMupdfLog(() => mupdf.Document.openDocument(bytes, 'application/pdf'));
    doc = opened.value;
    openLog = opened.messages;
  } catch (err) {
    return fail(name, `corrupt PDF, mupdf cannot open it (${(err as Error).message}); re-download or re-export it`);
  }
  try {
    if (doc.needsPassword())
      return fail(name, 'encrypted PDF that needs a password; save an unencrypted copy (e.g. qpdf --decrypt) and ingest that');
    let count: number;
    try {
      const counted = withMupdfLog(() => doc.countPages());
      count = counted.value;
      openLog.push(...counted.messages);
    } catch (err) {
      return fail(name, `corrupt PDF, its page tree cannot be read (${(err as Error).message}); re-download or re-export it`);
    }
    const warnings: string[] = [];
    if (wasRepaired(openLog)) {
      if (isTruncated(bytes))
        return fail(name, 'truncated or corrupt PDF (no %%EOF at the end and a broken cross-reference table); re-download or re-export it');
      warnings.push(`${name}: damaged cross-reference table, repaired by mupdf; check the text against the PDF`);
    }
    if (count === 0) {
      return fail(
        name,
        wasRepaired(openLog)
          ? 'corrupt PDF, no pages can be found in it; re-download or re-export it'
          : 'the PDF has 0 pages; nothing to ingest',
      );
    }
    const methods: PageMethod[] = new Array(count).fill('empty');
    const textPages: PageText[] = [];
    const ocrTexts = new Map<number, string>();
    let unreadable = 0;
    for (let i = 0; i < count; i++) {
      let page: mupdf.Page | null = null;
      try {
        const read = withMupdfLog(() => {
          page = doc.loadPage(i);
          return readPageText(page, i);
        });
        const text = read.value;
        if (text.lines.reduce((n, l) => n + l.chars, 0) < MIN_TEXT_CHARS) text.images = countImages(page!);
        if (read.messages.length) {
          warnings.push(
            `${name} page ${i + 1}: mupdf reported "${read.messages[0]}"${read.messages.length > 1 ? ` and ${read.messages.length - 1} more` : ''}; the page may be incomplete`,
          );
        }
        const chars = text.lines.reduce((n, l) => n + l.chars, 0);
        if (chars >= MIN_TEXT_CHARS || (chars > 0 && text.images === 0)) {
          methods[i] = 'text';
          textPages.push(text);
        } else if (text.images > 0) {
          const res = await ocrPage(page!, {
            dpi: opts.ocrDpi ?? 300,
            languages: ocrLanguages(opts.language),
            label: `${name} page ${i + 1}`,
          });
          if ('warning' in res) warnings.push(res.warning);
          else if (res.text.trim()) {
            methods[i] = 'ocr';
            ocrTexts.set(i, res.text);
          }
        }
      } catch (err) {
        unreadable++;
        warnings.push(`${name} page ${i + 1}: cannot be read (${(err as Error).message}); page skipped`);
      } finally {
        (page as mupdf.Page | null)?.destroy();
      }
    }
    if (unreadable === count) return fail(name, `corrupt PDF, none of its ${count} pages can be read; re-download or re-export it`);

    const { pages } = removeRunningHeads(textPages);
    const allLines = pages.flatMap((p) => p.lines);
    const bodySize = bodyFontSize(allLines);
    const vocab = buildVocabulary([...allLines.map((l) => l.text), ...[...ocrTexts.values()].flatMap((t) => t.split('\n'))]);
    const raw = new Map<number, RawBlock[]>();
    let flow = 0;
    for (const p of pages) {
      const ordered = readingOrder(p.lines, flow);
      flow = (ordered[ordered.length - 1]?.flow ?? flow) + 1;
      raw.set(p.index, pageBlocks(ordered, bodySize, vocab));
    }
    const largeSizes = [...raw.values()].flat().flatMap((b) => (b.kind === 'heading' && b.style.kind === 'large' ? [b.style.size] : []));
    const levels = headingLevels(largeSizes);
    const levelOf = (b: Extract<RawBlock, { kind: 'heading' }>) =>
      b.style.kind === 'large' ? levels.levelOf(b.style.size) : levels.boldLevel;
    const blocks: Block[] = [];
    for (let i = 0; i < count; i++) {
      const r = raw.get(i);
      if (r) blocks.push(...textBlocks(i, r, levelOf, vocab, bodySize));
      const o = ocrTexts.get(i);
      if (o) blocks.push(...ocrBlocks(o, i, vocab));
    }
    const merged = mergeContinuations(blocks, vocab);
    if (!merged.length) warnings.push(`${name}: no text found on any of its ${count} pages`);
    const firstHeading = merged.find((b) => b.kind === 'heading' && b.level === 1);
    const title =
      plausibleTitle(doc.getMetaData('info:Title')) ??
      (firstHeading?.kind === 'heading' ? firstHeading.text : null) ??
      name.replace(/\.pdf$/i, '');
    return { ok: true, markdown: merged.length ? toMarkdown(merged) : '', pages: count, pageMethods: methods, warnings, title };
  } finally {
    doc.destroy();
  }
}

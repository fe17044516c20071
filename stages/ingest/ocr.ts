// OCR for pages without a text layer: mupdf renders the page to PNG in a temporary directory and
// Debian's tesseract reads it. Missing tesseract is a per-page warning, never a failure.
import * as mupdf from 'mupdf';
import { $ } from 'zx';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const TESSERACT_MISSING = 'OCR needed but tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-chi-sim)';

/** Tesseract language argument for a document language hint. */
export function ocrLanguages(language?: 'en' | 'zh'): string {
  // Chinese guidelines quote English drug names and abbreviations, so zh also loads eng.
  if (language === 'en') return 'eng';
  if (language === 'zh') return 'chi_sim+eng';
  return 'eng+chi_sim';
}

export function findExecutable(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, name);
    try {
      accessSync(full, constants.X_OK);
      return full;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** PNG of a page at `dpi`, grey, no alpha (what tesseract reads best). */
export function renderPagePng(page: mupdf.Page, dpi: number): Uint8Array {
  const scale = dpi / 72;
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
  try {
    return pixmap.asPNG();
  } finally {
    pixmap.destroy();
  }
}

/**
 * Tesseract puts spaces between CJK characters; Chinese text has none. Only spaces with CJK on
 * both sides go, so "大于 65 岁" keeps its spaces around the number.
 */
export function tidyOcrText(text: string): string {
  const cjk = '\\p{Script=Han}\\u3000-\\u303f\\uff00-\\uffef';
  return text
    .replace(new RegExp(`(?<=[${cjk}]) +(?=[${cjk}])`, 'gu'), '')
    .replace(/\f/g, '')
    .replace(/[ \t]+\n/g, '\n');
}

/**
 * The most pixels a page is rendered with for OCR: 2^28 (16k × 16k, 256 MiB grey). A poster-sized
 * page at 300 dpi would need gigabytes, and mupdf's failure then reads like a broken file.
 */
export const MAX_RENDER_PIXELS = 2 ** 28;

/** Why a page of these bounds (points) cannot be rendered at `dpi`, or null when it can. */
export function renderTooLarge(bounds: readonly number[], dpi: number): string | null {
  const [x0, y0, x1, y1] = bounds;
  const w = ((x1 - x0) / 72) * dpi;
  const h = ((y1 - y0) / 72) * dpi;
  if (w * h <= MAX_RENDER_PIXELS) return null;
  const inches = `${((x1 - x0) / 72).toFixed(0)} × ${((y1 - y0) / 72).toFixed(0)} inches`;
  const mp = ((w * h) / 1e6).toFixed(0);
  return `the page is ${inches}: rendering it for OCR at ${dpi} dpi needs ${mp} megapixels, over the ${(MAX_RENDER_PIXELS / 1e6).toFixed(0)} MP budget; lower the guidelines stage's ocrDpi or split the page`;
}

/** Text of a rendered page by tesseract, or a warning when the page is too large, tesseract is missing or fails. */
export async function ocrPage(
  page: mupdf.Page,
  opts: { dpi: number; languages: string; label: string },
): Promise<{ text: string } | { warning: string }> {
  const tooLarge = renderTooLarge(page.getBounds(), opts.dpi);
  if (tooLarge) return { warning: `${opts.label}: ${tooLarge}` };
  const tesseract = findExecutable('tesseract');
  if (!tesseract) return { warning: `${opts.label}: ${TESSERACT_MISSING}` };
  const dir = await mkdtemp(join(tmpdir(), 'cdp-ocr-'));
  try {
    const png = join(dir, 'page.png');
    let bytes: Uint8Array;
    try {
      bytes = renderPagePng(page, opts.dpi);
    } catch (err) {
      return {
        warning: `${opts.label}: rendering the page for OCR at ${opts.dpi} dpi failed (${(err as Error).message}); the file itself opened, so lower ocrDpi`,
      };
    }
    await writeFile(png, bytes);
    // One thread: tesseract's OpenMP threads fight over the cores when documents run in parallel.
    const res = await $({
      quiet: true,
      nothrow: true,
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    })`${tesseract} ${png} stdout -l ${opts.languages} --dpi ${opts.dpi}`;
    if (res.exitCode !== 0) {
      return {
        warning: `${opts.label}: tesseract failed (exit ${res.exitCode}): ${res.stderr.trim().split('\n').pop() ?? ''}; check that the language data ${opts.languages} is installed (tesseract --list-langs)`,
      };
    }
    return { text: tidyOcrText(res.stdout) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The licence of each source document, read from the NOTICE.md that sits beside the PDFs
 * (data/sample/guidelines/NOTICE.md): a Markdown table whose `file` column names the PDF relative
 * to the notice (in backticks) and whose `licence` column states its terms. The notices found
 * travel with an export (copied under its `notices/`). Shared by both benchmarks' exports.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';

export const UNKNOWN_LICENCE = 'unknown: no NOTICE.md beside the source PDF names it';

/** File (relative to the notice, "/" separators) → licence text; rows without both are skipped. */
export function parseNoticeLicences(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  let fileCol = -1,
    licenceCol = -1;
  for (const line of markdown.split(/\r?\n/)) {
    if (!line.trim().startsWith('|')) {
      fileCol = licenceCol = -1;
      continue;
    }
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
    if (fileCol < 0) {
      fileCol = cells.findIndex((c) => /^file$/i.test(c));
      licenceCol = cells.findIndex((c) => /^licen[cs]e$/i.test(c));
      continue;
    }
    if (licenceCol < 0 || cells.every((c) => /^:?-+:?$/.test(c))) continue;
    const file = cells[fileCol]?.replace(/`/g, '').trim();
    const licence = cells[licenceCol]?.trim();
    if (file && licence) out.set(file, licence);
  }
  return out;
}

/** The directories from a file's folder up to the root (relative, "/" separated; "" is the root). */
export function ancestorDirs(relPath: string): string[] {
  const parts = relPath.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/')).concat('');
}

/** Licence per source path (relative to `root`, or absolute), from the NOTICE.md files beside them; the notices found. */
export function licencesFor(root: string, sources: readonly string[]): { licence: Map<string, string>; notices: string[] } {
  const licence = new Map<string, string>();
  const notices = new Set<string>();
  for (const source of sources) {
    // An absolute source (a corpus outside the project) is looked up in its own folders only.
    const dirs = ancestorDirs(source).filter((d) => d !== '' || !posix.isAbsolute(source));
    for (const dir of dirs) {
      const notice = posix.join(dir, 'NOTICE.md');
      if (!existsSync(resolve(root, notice))) continue;
      const found = parseNoticeLicences(readFileSync(resolve(root, notice), 'utf8')).get(posix.relative(dir, source));
      if (found) {
        licence.set(source, found);
        notices.add(notice);
        break;
      }
    }
  }
  return { licence, notices: [...notices].sort() };
}

/** Copies each notice to `<dir>/notices/<its path>`; the paths written, relative to `dir`. */
export function copyNotices(root: string, dir: string, notices: readonly string[]): string[] {
  return notices.map((n) => {
    const rel = n.split('/').filter(Boolean);
    mkdirSync(join(dir, 'notices', ...rel.slice(0, -1)), { recursive: true });
    copyFileSync(resolve(root, n), join(dir, 'notices', ...rel));
    return posix.join('notices', ...rel);
  });
}

/**
 * The licence of each source document, read from the NOTICE.md that sits beside the PDFs
 * (data/sample/guidelines/NOTICE.md): a Markdown table whose `file` column names the PDF relative
 * to the notice (in backticks) and whose `licence` column states its terms.
 */

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

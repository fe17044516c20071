/**
 * One memo line: a unit's key, a checksum of its rows and the rows, as
 *
 *   {"k":"<unit key>","c":"<first 32 hex of the sha256 of the rows' JSON>","r":[…rows…]}
 *
 * The checksum is checked whenever a unit is about to be reused, so a line edited in place (an
 * editor, a script, a bad disk) is a miss and its unit is computed again, never reused into an
 * artifact. Lines of an older cdp carry no checksum; they cannot be vouched for and count as
 * misses too. The key comes first, so a line's key is read without parsing its rows.
 */
import { createHash } from 'node:crypto';

const CHECK_CHARS = 32;

export function rowsChecksum(rowsJson: string): string {
  return createHash('sha256').update(rowsJson).digest('hex').slice(0, CHECK_CHARS);
}

export function memoLine(key: string, rows: unknown[]): string {
  const r = JSON.stringify(rows);
  return `{"k":${JSON.stringify(key)},"c":"${rowsChecksum(r)}","r":${r}}`;
}

/** The key a line starts with (keys hold no quote or backslash), or null for a line that is not a memo line. */
export const LINE_KEY = /^\{"k":"([^"\\]*)",(?:"c":"[0-9a-f]{32}",)?"r":/;

export type LineCheck = 'intact' | 'no checksum' | 'checksum mismatch' | 'not a memo line';

export function checkMemoLine(line: string): LineCheck {
  const m = /^\{"k":"[^"\\]*",(?:"c":"([0-9a-f]{32})",)?"r":/.exec(line.slice(0, 200));
  if (!m || !line.endsWith('}')) return 'not a memo line';
  if (!m[1]) return 'no checksum';
  return rowsChecksum(line.slice(m[0].length, -1)) === m[1] ? 'intact' : 'checksum mismatch';
}

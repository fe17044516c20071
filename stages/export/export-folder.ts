/**
 * The folder an export writes into: new, empty, or an earlier export (it holds the marker file
 * every export writes), so re-exporting replaces an export and never mixes into other files.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written into every export so that re-exporting into it is allowed and into anything else is not. */
export const EXPORT_MARKER = '.cdp-export';

/** Refuses a folder that is not empty and holds no earlier export (`prefix` names the command); creates it and writes the marker. */
export function prepareExportFolder(dir: string, kind: string, prefix: string): void {
  if (existsSync(dir)) {
    const entries = readdirSync(dir);
    if (entries.length && !entries.includes(EXPORT_MARKER)) {
      throw new Error(`${prefix}: ${dir} is not empty and holds no earlier export; give an empty or new folder`);
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, EXPORT_MARKER), `cdp export ${kind}\n`);
}

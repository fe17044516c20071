/** Temporary directories for a test file, removed when its tests are done. */
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
let registered = false;

export function tempDir(prefix: string): string {
  if (!registered) {
    after(() => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
    registered = true;
  }
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/**
 * Content hashes of files, remembered by (path, size, mtime) so an unchanged large file is not
 * read again: a no-op rerun stats every input and code file but reads none of them. A code
 * file's entry also remembers the modules it imports (code-identity.ts), so an unchanged file is
 * not parsed again either.
 */
import { readFileSync, statSync, writeFileSync, renameSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { sha256 } from './canonical.ts';

interface Entry {
  size: number;
  mtimeMs: number;
  hash: string;
  /** The import specifiers of this content, and the scanner that read them. */
  imports?: { scanner: string; specifiers: string[] };
}

export class StatCache {
  private entries = new Map<string, Entry>();
  private dirty = false;

  constructor(private readonly file: string | null) {
    if (!file) return;
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>;
      for (const [k, e] of Object.entries(raw)) this.entries.set(k, e);
    } catch {
      // Missing or unreadable cache: every file is hashed afresh, which is always correct.
    }
  }

  /** sha256 of the file's bytes; throws ENOENT like fs does when the file is missing. */
  hashFile(path: string): string {
    const st = statSync(path);
    const hit = this.entries.get(path);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.hash;
    const hash = sha256(readFileSync(path));
    // A file modified within the mtime granularity of this write could change again unseen;
    // re-stat after reading and only remember the hash when nothing moved meanwhile.
    const after = statSync(path);
    if (after.size === st.size && after.mtimeMs === st.mtimeMs) {
      this.entries.set(path, { size: st.size, mtimeMs: st.mtimeMs, hash });
      this.dirty = true;
    }
    return hash;
  }

  /** The imports remembered for the file, if its entry is of this content and scanner. */
  importsOf(path: string, hash: string, scanner: string): string[] | undefined {
    const e = this.entries.get(path);
    return e && e.hash === hash && e.imports?.scanner === scanner ? e.imports.specifiers : undefined;
  }

  /** Remembers the file's imports beside its hash (only while the entry is of this content). */
  rememberImports(path: string, hash: string, scanner: string, specifiers: string[]): void {
    const e = this.entries.get(path);
    // The same content read by the same scanner has the same imports: nothing new to save.
    if (!e || e.hash !== hash || e.imports?.scanner === scanner) return;
    e.imports = { scanner, specifiers };
    this.dirty = true;
  }

  save(): void {
    if (!this.file || !this.dirty) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.entries)));
      renameSync(tmp, this.file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    this.dirty = false;
  }
}

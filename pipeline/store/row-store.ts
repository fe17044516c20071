/**
 * Memo of a row-mapped stage's units: unit key → the rows that unit produced. Append-only
 * segment files, one per writer, fsynced in batches, so a run killed at any moment keeps every
 * unit committed before the kill; a torn last line is ignored on load.
 */
import { openSync, writeSync, fsyncSync, closeSync, readdirSync, readFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Row } from '../dag/define.ts';
import { writeFileAtomic } from './atomic.ts';

export interface UnitRecord {
  k: string;
  r: Row[];
}

export class RowStore {
  constructor(readonly dir: string) {}

  /** Every committed unit; later segments win when a key repeats (a --retry-failed recompute). */
  load(): Map<string, Row[]> {
    const units = new Map<string, Row[]>();
    for (const file of this.segments()) {
      const text = readFileSync(join(this.dir, file), 'utf8');
      let start = 0;
      while (start < text.length) {
        const end = text.indexOf('\n', start);
        if (end < 0) break; // torn tail: the line was never completed
        const line = text.slice(start, end);
        start = end + 1;
        try {
          const rec = JSON.parse(line) as UnitRecord;
          units.set(rec.k, rec.r);
        } catch {
          // A line interrupted mid-write and then followed by a newline cannot happen with a
          // single writeSync per line, but a corrupt line must not lose the rest.
        }
      }
    }
    return units;
  }

  segments(): string[] {
    try {
      // Names start with a zero-padded timestamp, so sorting orders them by creation.
      return readdirSync(this.dir).filter((f) => f.endsWith('.ndjson')).sort();
    } catch {
      return [];
    }
  }

  writer(): RowStoreWriter {
    mkdirSync(this.dir, { recursive: true });
    const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${randomBytes(3).toString('hex')}.ndjson`;
    return new RowStoreWriter(join(this.dir, name));
  }

  /** Rewrites the store keeping only the given keys (used by `cdp clean`). */
  compact(keep: Set<string>): { kept: number; dropped: number } {
    const units = this.load();
    let dropped = 0;
    const lines: string[] = [];
    for (const [k, r] of units) {
      if (keep.has(k)) lines.push(JSON.stringify({ k, r }));
      else dropped++;
    }
    const old = this.segments();
    if (lines.length) writeFileAtomic(join(this.dir, `${String(Date.now()).padStart(15, '0')}-compact.ndjson`), lines.join('\n') + '\n');
    for (const f of old) rmSync(join(this.dir, f), { force: true });
    return { kept: lines.length, dropped };
  }
}

export class RowStoreWriter {
  private fd: number | null = null;
  private pending = 0;

  constructor(readonly path: string) {}

  /** Appends one unit; durable after the next commit(). One write call per line keeps lines whole. */
  append(key: string, rows: Row[]): void {
    if (this.fd === null) this.fd = openSync(this.path, 'a');
    writeSync(this.fd, JSON.stringify({ k: key, r: rows }) + '\n');
    this.pending++;
  }

  commit(): void {
    if (this.fd !== null && this.pending) {
      fsyncSync(this.fd);
      this.pending = 0;
    }
  }

  close(): void {
    this.commit();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

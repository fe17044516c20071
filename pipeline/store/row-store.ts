/**
 * Memo of a row-mapped stage's units: unit key → the rows that unit produced. Append-only
 * segment files, one per writer, fsynced in batches, so a run killed at any moment keeps every
 * unit committed before the kill; a torn last line is ignored on load.
 */
import { openSync, writeSync, fsyncSync, closeSync, readdirSync, mkdirSync, rmSync, renameSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Row } from '../dag/define.ts';
import { tempPathFor } from './atomic.ts';
import { LineWriter, readLines, readLineAt, getMaxStringChars } from './lines.ts';

/** Bytes read at once when a unit is looked up: the units after it usually follow. */
const READ_AHEAD = 256 << 10;

export interface UnitRecord {
  k: string;
  r: Row[];
}

/** Where a committed unit's line lies; its rows are read only when asked for. */
export interface UnitLocation {
  file: string;
  offset: number;
  bytes: number;
}

/**
 * The committed units of a memo, indexed by key. Only the index (key → file, offset, length) is
 * kept in memory; a unit's rows are read from disk when asked for, so a memo of any size loads
 * in memory proportional to its number of units, not its bytes.
 */
export class UnitIndex {
  constructor(
    private readonly dir: string,
    private readonly at: Map<string, UnitLocation>,
  ) {}

  get size(): number {
    return this.at.size;
  }

  has(key: string): boolean {
    return this.at.has(key);
  }

  keys(): IterableIterator<string> {
    return this.at.keys();
  }

  /** Every unit's rows, read one unit at a time. */
  *values(): Generator<Row[]> {
    try {
      for (const k of this.at.keys()) yield this.get(k)!;
    } finally {
      this.close();
    }
  }

  /** Records a unit just appended by a writer of this store. */
  add(key: string, loc: UnitLocation): void {
    this.at.set(key, loc);
  }

  get(key: string): Row[] | undefined {
    const line = this.line(key);
    return line === undefined ? undefined : (JSON.parse(line) as UnitRecord).r;
  }

  // Segment files stay open between reads (a stage reads thousands of units) until close().
  private readonly fds = new Map<string, number>();
  // Units are mostly read in the order they were written: one read of a block serves many.
  private block: { file: string; offset: number; buf: Buffer } | null = null;

  /** The raw memo line of a unit, for copying without parsing. */
  line(key: string): string | undefined {
    const loc = this.at.get(key);
    if (!loc) return undefined;
    const b = this.block;
    if (b && b.file === loc.file && loc.offset >= b.offset && loc.offset + loc.bytes <= b.offset + b.buf.length) {
      return b.buf.toString('utf8', loc.offset - b.offset, loc.offset - b.offset + loc.bytes);
    }
    let fd = this.fds.get(loc.file);
    if (fd === undefined) this.fds.set(loc.file, (fd = openSync(join(this.dir, loc.file), 'r')));
    if (loc.bytes >= READ_AHEAD) return readLineAt(fd, loc.offset, loc.bytes, `${loc.file}`);
    const buf = Buffer.allocUnsafe(READ_AHEAD);
    const got = readSync(fd, buf, 0, READ_AHEAD, loc.offset);
    if (got < loc.bytes) throw new Error(`${loc.file} ends before byte ${loc.offset + loc.bytes}: the store changed while it was read`);
    this.block = { file: loc.file, offset: loc.offset, buf: buf.subarray(0, got) };
    return this.block.buf.toString('utf8', 0, loc.bytes);
  }

  /** Closes the segment files opened for reading; the index stays usable and reopens them. */
  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    this.block = null;
  }
}

export class RowStore {
  constructor(readonly dir: string) {}

  /** Every committed unit; later segments win when a key repeats (a --retry-failed recompute). */
  load(): UnitIndex {
    const at = new Map<string, UnitLocation>();
    for (const file of this.segments()) {
      // A torn tail (a line never completed) is not yielded: that unit was never committed.
      for (const { line, offset, bytes } of readLines(join(this.dir, file))) {
        // The key is the record's first field (`{"k":"…","r":…}`, as append writes it), read
        // without parsing the rows; a line that does not start so is corrupt and skipped.
        const m = /^\{"k":"([^"\\]*)","r":/.exec(line.slice(0, 200));
        if (!m || !line.endsWith('}')) continue;
        at.set(m[1], { file, offset, bytes });
      }
    }
    return new UnitIndex(this.dir, at);
  }

  segments(): string[] {
    try {
      // Names start with a zero-padded timestamp, so sorting orders them by creation.
      return readdirSync(this.dir)
        .filter((f) => f.endsWith('.ndjson'))
        .sort();
    } catch {
      return [];
    }
  }

  writer(): RowStoreWriter {
    mkdirSync(this.dir, { recursive: true });
    const name = `${String(Date.now()).padStart(15, '0')}-${process.pid}-${randomBytes(3).toString('hex')}.ndjson`;
    return new RowStoreWriter(join(this.dir, name));
  }

  /** Rewrites the store keeping only the given keys (used by `cdp clean`), line by line. */
  compact(keep: Set<string>): { kept: number; dropped: number } {
    const units = this.load();
    let dropped = 0;
    let kept = 0;
    const old = this.segments();
    const target = join(this.dir, `${String(Date.now()).padStart(15, '0')}-compact.ndjson`);
    const tmp = tempPathFor(target);
    const out = new LineWriter(tmp);
    try {
      for (const k of units.keys()) {
        if (keep.has(k)) {
          out.write(units.line(k)!);
          kept++;
        } else dropped++;
      }
    } finally {
      units.close();
    }
    out.close();
    if (kept) renameSync(tmp, target);
    else rmSync(tmp, { force: true });
    for (const f of old) if (join(this.dir, f) !== target) rmSync(join(this.dir, f), { force: true });
    return { kept, dropped };
  }
}

export class RowStoreWriter {
  private fd: number | null = null;
  private pending = 0;

  constructor(readonly path: string) {}

  private position = 0;

  /**
   * Appends one unit; durable after the next commit(). One write call per line keeps lines
   * whole. Returns where the line lies, for the memo's index.
   */
  append(key: string, rows: Row[]): UnitLocation {
    if (this.fd === null) this.fd = openSync(this.path, 'a');
    const line = JSON.stringify({ k: key, r: rows });
    if (line.length > getMaxStringChars()) throw new Error(`one unit's rows are ${line.length} characters, over the store's string limit`);
    const bytes = Buffer.from(line + '\n', 'utf8');
    writeSync(this.fd, bytes);
    const loc = { file: basename(this.path), offset: this.position, bytes: bytes.length - 1 };
    this.position += bytes.length;
    this.pending++;
    return loc;
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

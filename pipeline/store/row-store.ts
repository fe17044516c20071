/**
 * Memo of a row-mapped stage's units: unit key → the rows that unit produced. Append-only
 * segment files, one per writer, fsynced in batches, so a run killed at any moment keeps every
 * unit committed before the kill; a torn last line is ignored on load.
 */
import { openSync, fsyncSync, ftruncateSync, closeSync, readdirSync, mkdirSync, rmSync, renameSync, readSync } from 'node:fs';
import { asDiskFull, writeAll } from './disk-full.ts';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Row } from '../dag/define.ts';
import { tempPathFor } from './atomic.ts';
import { LineWriter, fsyncOffThread, readLines, readLineAt, getMaxStringChars } from './lines.ts';
import { MemoIndex, MemoIndexBuilder, keyDigest } from './memo-index.ts';
import { checkMemoLine, LINE_KEY, memoLine } from './memo-line.ts';

let writers = 0;

/** Indexes up to this many units are held as maps once read. */
const SMALL_INDEX = 4096;

/** Bytes read at once when a unit is looked up: the units after it usually follow. */
const READ_AHEAD = 256 << 10;

export interface UnitRecord {
  k: string;
  /** The rows' checksum (memo-line.ts); absent on lines of an older cdp. */
  c?: string;
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
    protected readonly at: Map<string, UnitLocation>,
  ) {}

  /** Where a unit's line lies. */
  protected locate(key: string): UnitLocation | undefined {
    return this.at.get(key);
  }

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

  /**
   * Whether a unit's line is what its writer wrote (its checksum matches): checked before a unit
   * is reused. A unit that is not here is not intact either.
   */
  intact(key: string): boolean {
    const line = this.line(key);
    return line !== undefined && checkMemoLine(line) === 'intact';
  }

  // Segment files stay open between reads (a stage reads thousands of units) until close().
  private readonly fds = new Map<string, number>();
  // Units are mostly read in the order they were written: one read of a block serves many.
  private block: { file: string; offset: number; buf: Buffer } | null = null;

  /** The raw memo line of a unit, for copying without parsing. */
  line(key: string): string | undefined {
    const loc = this.locate(key);
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

/**
 * A memo opened for lookups: each file's key index (memo-index.ts) is searched where there is
 * one, and only files without one (a writer killed before closing) are scanned. Newer files win.
 */
export class UnitLookup extends UnitIndex {
  constructor(
    dir: string,
    private readonly files: { file: string; index: MemoIndex | null; scanned: Map<string, UnitLocation> | null }[],
  ) {
    super(dir, new Map());
  }

  override has(key: string): boolean {
    return this.locate(key) !== undefined;
  }

  // The last key located: a unit is asked for with has() and then get().
  private last: { key: string; loc: UnitLocation | undefined } | null = null;
  // Small indexes (a rerun's few units) as maps, so that most lookups pass them in one step.
  private readonly small = new Map<number, Map<string, { offset: number; bytes: number }>>();

  protected override locate(key: string): UnitLocation | undefined {
    if (this.last?.key === key) return this.last.loc;
    const loc = this.find(key);
    this.last = { key, loc };
    return loc;
  }

  private find(key: string): UnitLocation | undefined {
    const added = this.at.get(key);
    if (added) return added;
    let digest: Buffer | null = null;
    for (let i = this.files.length - 1; i >= 0; i--) {
      const f = this.files[i];
      if (f.scanned) {
        const loc = f.scanned.get(key);
        if (loc) return loc;
        continue;
      }
      digest ??= keyDigest(key);
      const index = f.index!;
      let hit: { offset: number; bytes: number } | undefined;
      if (index.size <= SMALL_INDEX) {
        let map = this.small.get(i);
        if (!map) this.small.set(i, (map = new Map(index.entries())));
        hit = map.get(digest.toString('latin1'));
      } else hit = index.find(digest);
      if (hit) return { file: f.file, ...hit };
    }
    return undefined;
  }

  override add(key: string, loc: UnitLocation): void {
    super.add(key, loc);
    if (this.last?.key === key) this.last = null;
  }

  override line(key: string): string | undefined {
    const line = super.line(key);
    // An index is a cache: the line it points to must carry the key.
    if (line !== undefined && !line.startsWith(`{"k":${JSON.stringify(key)},`)) {
      throw new Error(`the memo index of ${this.locate(key)?.file} points to another unit: run \`cdp clean\` to rebuild the memo`);
    }
    return line;
  }

  override get size(): number {
    throw new Error('internal: a memo opened for lookups has no size; use RowStore.load()');
  }

  override keys(): IterableIterator<string> {
    throw new Error('internal: a memo opened for lookups cannot list its keys; use RowStore.load()');
  }
}

/** The units of one memo file, by key, read line by line (a file without a usable index). */
function scanFile(dir: string, file: string, into: Map<string, UnitLocation>): void {
  // A torn tail (a line never completed) is not yielded: that unit was never committed.
  for (const { line, offset, bytes } of readLines(join(dir, file))) {
    // The key is the record's first field (memo-line.ts), read without parsing the rows; a line
    // that does not start so is corrupt and skipped.
    const m = LINE_KEY.exec(line.slice(0, 200));
    if (!m || !line.endsWith('}')) continue;
    into.set(m[1], { file, offset, bytes });
  }
}

export class RowStore {
  constructor(readonly dir: string) {}

  /** The memo for lookups: indexes read, not lines (see UnitLookup). */
  open(): UnitLookup {
    return new UnitLookup(
      this.dir,
      this.segments().map((file) => {
        const index = MemoIndex.open(join(this.dir, file));
        if (index) return { file, index, scanned: null };
        const scanned = new Map<string, UnitLocation>();
        scanFile(this.dir, file, scanned);
        return { file, index: null, scanned };
      }),
    );
  }

  /** Every committed unit; later segments win when a key repeats (a --retry-failed recompute). */
  load(): UnitIndex {
    const at = new Map<string, UnitLocation>();
    for (const file of this.segments()) scanFile(this.dir, file, at);
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
    // Time, then a count within this process: two writers of one millisecond still sort in order.
    const name = `${String(Date.now()).padStart(15, '0')}-${String(process.pid).padStart(8, '0')}-${String(writers++).padStart(6, '0')}-${randomBytes(3).toString('hex')}.ndjson`;
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
    const index = new MemoIndexBuilder();
    let position = 0;
    try {
      for (const k of units.keys()) {
        if (keep.has(k)) {
          const line = units.line(k)!;
          const bytes = Buffer.byteLength(line);
          index.add(k, position, bytes);
          position += bytes + 1;
          out.write(line);
          kept++;
        } else dropped++;
      }
    } finally {
      units.close();
    }
    out.close();
    if (kept) {
      index.write(`${target}.idx`, position);
      renameSync(tmp, target);
    } else rmSync(tmp, { force: true });
    for (const f of old) {
      if (join(this.dir, f) === target) continue;
      rmSync(join(this.dir, f), { force: true });
      rmSync(join(this.dir, `${f}.idx`), { force: true });
    }
    return { kept, dropped };
  }
}

export class RowStoreWriter {
  private fd: number | null = null;
  private pending = 0;
  // Lines are written in batches, not one system call a unit: a unit is durable after commit()
  // either way, and commit() writes the batch before its fsync.
  private batch: Buffer[] = [];
  private batchBytes = 0;
  /** The fsync a commit() started, while it runs. */
  private syncing: Promise<void> | null = null;
  private syncError: Error | null = null;

  constructor(readonly path: string) {}

  private position = 0;
  private readonly index = new MemoIndexBuilder();

  /** Appends one unit; durable once the next commit's fsync (or closeAsync) is done. Returns where the line lies, for the memo's index. */
  append(key: string, rows: Row[]): UnitLocation {
    const line = memoLine(key, rows);
    if (line.length > getMaxStringChars()) throw new Error(`one unit's rows are ${line.length} characters, over the store's string limit`);
    const bytes = Buffer.from(line + '\n', 'utf8');
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
    const loc = { file: basename(this.path), offset: this.position, bytes: bytes.length - 1 };
    this.index.add(key, loc.offset, loc.bytes);
    this.position += bytes.length;
    this.pending++;
    if (this.batchBytes >= 1 << 20) this.flush();
    return loc;
  }

  private flush(): void {
    if (this.failed) throw this.failed;
    if (!this.batch.length) return;
    const start = this.position - this.batchBytes;
    try {
      this.fd ??= openSync(this.path, 'a');
      // One write call per batch, each line whole in it: a kill tears at most the batch's last line.
      writeAll(this.fd, this.batch.length === 1 ? this.batch[0] : Buffer.concat(this.batch, this.batchBytes), this.path);
    } catch (err) {
      // A full disk: what was written of the batch is cut off again, and the writer takes no
      // more (its units were never committed; the next run computes them again).
      if (this.fd !== null) ftruncateSync(this.fd, start);
      this.failed = asDiskFull(err, this.path) as Error;
      throw this.failed;
    }
    this.batch = [];
    this.batchBytes = 0;
  }

  /** Set once a write failed: the file holds only what was committed before it. */
  private failed: Error | null = null;

  /**
   * Writes the batch (whole lines, one write: what a kill leaves is readable) and starts its
   * fsync on libuv's thread pool, so the main thread — answering LLM calls meanwhile — never
   * waits for the disk mid-stage. One fsync is in flight at a time; lines written during it are
   * taken by the next. The stage counts as done only after closeAsync(), which waits for both.
   */
  commit(): void {
    this.flush();
    if (this.fd === null || !this.pending || this.syncing) return;
    this.pending = 0;
    this.syncing = fsyncOffThread(this.fd).then(
      () => void (this.syncing = null),
      (err: unknown) => {
        this.syncing = null;
        this.syncError ??= asDiskFull(err, this.path) as Error;
      },
    );
  }

  /** Commits, closes, and writes the file's key index (a writer killed before this leaves none). */
  close(): void {
    if (this.syncing) throw new Error(`memo ${this.path}: close() while a commit's fsync is in flight; use closeAsync()`);
    this.flush();
    if (this.fd !== null && this.pending) fsyncSync(this.fd);
    this.pending = 0;
    this.closeCommitted();
  }

  /** close(), with its last fsync off the main thread (lines.ts's fsyncOffThread). */
  async closeAsync(): Promise<void> {
    try {
      // Written before anything is awaited: the stage reads its units' lines back meanwhile.
      this.flush();
      while (this.syncing) await this.syncing;
      if (this.syncError) throw this.syncError;
      if (this.fd !== null && this.pending) {
        await fsyncOffThread(this.fd).catch((err: unknown) => {
          throw asDiskFull(err, this.path);
        });
        this.pending = 0;
      }
    } finally {
      this.closeCommitted();
    }
  }

  private closeCommitted(): void {
    if (this.fd !== null) {
      closeSync(this.fd);
      // A writer whose write failed wrote less than its index would say: it gets none (its file is scanned).
      if (!this.failed) this.index.write(`${this.path}.idx`, this.position);
    }
    this.fd = null;
  }
}

/**
 * The durable call cache and call log, in one set of append-only JSONL segments under
 * `<cacheDir>/calls/`. Every line is one finished call (answered or failed); answered lines are
 * the cache, all lines are the `llm_calls` warehouse view (DuckDB reads them natively).
 *
 * Durability: appends are group-committed — one write and one fdatasync for everything queued
 * meanwhile — and a caller's promise resolves only after its line is on disk, so a killed run
 * loses at most the calls in flight. A torn last line (killed mid-write) has no newline; it is
 * cut off when the store opens. One writer process at a time (the runner holds the store lock).
 *
 * Each line starts `{"key":"<64 hex>","status":"ok"`, so opening scans keys at fixed offsets
 * without parsing JSON, and a hit reads just its own line back (pread), which keeps a million
 * cached answers out of the heap.
 */
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export interface CallRecord {
  key: string;
  status: 'ok' | 'failed';
  model: string;
  modelId: string;
  stage: string;
  promptHash: string;
  repeat: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  attempts: number;
  /** ISO time the call finished. */
  ts: string;
  error?: string;
  text?: string;
  /** The API's finish_reason, when the server gave one ('length' = the answer was cut off). */
  finishReason?: string;
  batchId?: string;
}

/** What a hit gives back. */
export interface CachedAnswer {
  text: string;
  finishReason?: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}

const PREFIX = Buffer.from('{"key":"');
const OK_AFTER_KEY = Buffer.from('","status":"ok"');
const KEY_LEN = 64;
const NEWLINE = 0x0a;
const READ_AHEAD = 1 << 20;

export function serializeRecord(r: CallRecord): string {
  if (!/^[0-9a-f]{64}$/.test(r.key)) throw new Error(`call store: key "${r.key}" is not 64 lowercase hex characters`);
  const { key, status, ...rest } = r;
  return `{"key":"${key}","status":"${status}",${JSON.stringify(rest).slice(1)}\n`;
}

export class CallStore {
  readonly dir: string;
  private readonly segments: { path: string; fd: number }[] = [];
  // Index: key → slot; slot → (segment, offset, length) in typed arrays to keep 1M entries compact.
  private readonly index = new Map<string, number>();
  private seg = new Uint16Array(1024);
  private off = new Float64Array(1024);
  private len = new Uint32Array(1024);
  private slots = 0;
  private readBuf = Buffer.alloc(64 * 1024);
  // Read-ahead for runs of hits in file order (a rerun asks in roughly the order it first
  // asked): one read per block instead of one per hit. Scattered hits read exactly.
  private block = { seg: -1, start: 0, end: 0, buf: null as Buffer | null };
  private lastSeg = -1;
  private lastEnd = 0;

  private writer: { fh: FileHandle; segIndex: number; size: number } | null = null;
  private opening: Promise<void> | null = null;
  private pending: { line: Buffer; key: string | null; resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;

  private constructor(
    dir: string,
    private readonly readOnly = false,
  ) {
    this.dir = dir;
  }

  /** Opens (creating if needed) the store in `<cacheDir>/calls`, repairing torn tails and indexing answered calls. */
  static open(cacheDir: string, opts: { readOnly?: boolean } = {}): CallStore {
    const dir = join(cacheDir, 'calls');
    const store = new CallStore(dir, !!opts.readOnly);
    // Read-only (cdp estimate) creates nothing and repairs nothing: a fresh store stays untouched.
    if (opts.readOnly && !existsSync(dir)) return store;
    if (!opts.readOnly) mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) store.scanSegment(join(dir, name));
    return store;
  }

  get size(): number {
    return this.index.size;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  /** The answer recorded for a key, read back from disk; undefined on a miss. */
  get(key: string): CachedAnswer | undefined {
    const slot = this.index.get(key);
    if (slot === undefined) return undefined;
    const n = this.len[slot];
    const seg = this.seg[slot];
    const off = this.off[slot];
    const b = this.block;
    let src: Buffer;
    let at = 0;
    if (b.buf && b.seg === seg && off >= b.start && off + n <= b.end) {
      src = b.buf;
      at = off - b.start;
    } else if (seg === this.lastSeg && off >= this.lastEnd && off - this.lastEnd < READ_AHEAD && n <= READ_AHEAD / 4) {
      b.buf ??= Buffer.allocUnsafe(READ_AHEAD);
      const got = readSync(this.segments[seg].fd, b.buf, 0, READ_AHEAD, off);
      b.seg = seg;
      b.start = off;
      b.end = off + got;
      if (got < n) throw this.shortRead(seg, off);
      src = b.buf;
    } else {
      if (this.readBuf.length < n) this.readBuf = Buffer.alloc(Math.max(n, this.readBuf.length * 2));
      if (readSync(this.segments[seg].fd, this.readBuf, 0, n, off) !== n) throw this.shortRead(seg, off);
      src = this.readBuf;
    }
    this.lastSeg = seg;
    this.lastEnd = off + n;
    const r = JSON.parse(src.toString('utf8', at, at + n)) as CallRecord;
    return { text: r.text ?? '', inputTokens: r.inputTokens, outputTokens: r.outputTokens, latencyMs: r.latencyMs, ...(r.finishReason ? { finishReason: r.finishReason } : {}) };
  }

  private shortRead(seg: number, off: number): Error {
    return new Error(`call store: short read in ${this.segments[seg].path} at ${off}; the file changed under the store — was it edited or truncated by hand?`);
  }

  /** Appends a record; resolves once it is durable (and, if answered, visible to `get`). */
  append(r: CallRecord): Promise<void> {
    if (this.readOnly) return Promise.reject(new Error(`call store ${this.dir} is open read-only (cdp estimate); nothing may be recorded`));
    if (this.closed) return Promise.reject(new Error('call store: append after close'));
    const line = Buffer.from(serializeRecord(r), 'utf8');
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line, key: r.status === 'ok' ? r.key : null, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.closed = true;
    if (this.writer) await this.writer.fh.close();
    this.writer = null;
    for (const s of this.segments) closeSync(s.fd);
    this.segments.length = 0;
  }

  private async ensureWriter(): Promise<void> {
    if (this.writer) return;
    this.opening ??= (async () => {
      const stamp = new Date().toISOString().replace(/[-:.]/g, '');
      const path = join(this.dir, `${stamp}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.jsonl`);
      const fh = await open(path, 'a');
      const segIndex = this.segments.length;
      this.segments.push({ path, fd: openSync(path, 'r') });
      this.writer = { fh, segIndex, size: 0 };
    })();
    await this.opening;
  }

  private async flushLoop(): Promise<void> {
    try {
      await this.ensureWriter();
      while (this.pending.length) {
        const group = this.pending.splice(0);
        const w = this.writer!;
        const buf = group.length === 1 ? group[0].line : Buffer.concat(group.map((g) => g.line));
        try {
          let done = 0;
          while (done < buf.length) done += (await w.fh.write(buf, done, buf.length - done, null)).bytesWritten;
          await w.fh.datasync();
        } catch (err) {
          const e = new Error(`call store: writing ${this.segments[w.segIndex].path} failed: ${(err as Error).message}; check free disk space and permissions`);
          for (const g of group) g.reject(e);
          continue;
        }
        let at = w.size;
        for (const g of group) {
          if (g.key) this.put(g.key, w.segIndex, at, g.line.length - 1);
          at += g.line.length;
        }
        w.size = at;
        for (const g of group) g.resolve();
      }
    } catch (err) {
      for (const g of this.pending.splice(0)) g.reject(err as Error);
    } finally {
      this.flushing = null;
    }
  }

  private put(key: string, segIndex: number, offset: number, length: number): void {
    let slot = this.index.get(key);
    if (slot === undefined) {
      if (this.slots === this.seg.length) {
        const grow = <T extends Uint16Array | Float64Array | Uint32Array>(a: T, C: new (n: number) => T): T => {
          const b = new C(a.length * 2);
          b.set(a);
          return b;
        };
        this.seg = grow(this.seg, Uint16Array);
        this.off = grow(this.off, Float64Array);
        this.len = grow(this.len, Uint32Array);
      }
      slot = this.slots++;
      this.index.set(key, slot);
    }
    this.seg[slot] = segIndex;
    this.off[slot] = offset;
    this.len[slot] = length;
  }

  /** Indexes one segment; a last line without its newline was torn by a kill and is cut off. */
  private scanSegment(path: string): void {
    const fd = openSync(path, this.readOnly ? 'r' : 'r+');
    const size = fstatSync(fd).size;
    const segIndex = this.segments.length;
    this.segments.push({ path, fd });
    let chunk = Buffer.alloc(8 * 1024 * 1024);
    let fileOff = 0; // file offset of chunk[0]
    let carry = 0; // bytes of an unfinished line kept at the start of chunk
    let lastLineEnd = 0;
    while (fileOff + carry < size) {
      const got = readSync(fd, chunk, carry, chunk.length - carry, fileOff + carry);
      if (got <= 0) break;
      const filled = carry + got;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(NEWLINE, start);
        if (nl < 0 || nl >= filled) break;
        this.indexLine(chunk, start, nl, segIndex, fileOff + start);
        lastLineEnd = fileOff + nl + 1;
        start = nl + 1;
      }
      if (start === 0 && filled === chunk.length) {
        // One line longer than the chunk: grow it and keep reading.
        const bigger = Buffer.alloc(chunk.length * 2);
        chunk.copy(bigger, 0, 0, filled);
        chunk = bigger;
        carry = filled;
        continue;
      }
      chunk.copy(chunk, 0, start, filled);
      carry = filled - start;
      fileOff += start;
    }
    if (lastLineEnd < size && !this.readOnly) ftruncateSync(fd, lastLineEnd);
  }

  private indexLine(buf: Buffer, start: number, end: number, segIndex: number, fileOffset: number): void {
    const keyAt = start + PREFIX.length;
    if (end - start < keyAt - start + KEY_LEN + OK_AFTER_KEY.length) return;
    if (buf.compare(PREFIX, 0, PREFIX.length, start, keyAt) !== 0) return;
    const after = keyAt + KEY_LEN;
    if (buf.compare(OK_AFTER_KEY, 0, OK_AFTER_KEY.length, after, after + OK_AFTER_KEY.length) !== 0) return;
    this.put(buf.toString('latin1', keyAt, after), segIndex, fileOffset, end - start);
  }
}

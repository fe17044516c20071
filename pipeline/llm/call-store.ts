/**
 * The durable call cache and call log, in one set of append-only JSONL segments under
 * `<cacheDir>/calls/`. Every line is one finished call (answered or failed); answered lines are
 * the cache, all lines are the `llm_calls` warehouse view (DuckDB reads them natively).
 *
 * Durability: appends are group-committed — one write and one fdatasync for everything queued
 * meanwhile — and a caller's promise resolves only after its line is on disk, so a killed run
 * loses at most the calls in flight.
 *
 * Several processes may share one store (the project's one call cache, used by every store's
 * runs): each writes only a segment of its own (`<time>-<pid>-<random>.jsonl`, opened for append),
 * always whole lines in one write, and never touches another's. A reader — another process
 * opening the store, or DuckDB — may meet a segment's last line half written (a writer mid-write,
 * or killed mid-write): a line without its newline is never indexed, and nothing is cut off,
 * since the segment's writer may still be finishing it. Lines another process appends after this
 * one opened are not seen until the store is opened again: at worst a call both make is asked twice.
 *
 * Each line starts `{"key":"<64 hex>","status":"ok"`, so opening scans keys at fixed offsets
 * without parsing JSON, and a hit reads just its own line back (pread), which keeps a million
 * cached answers out of the heap. A context overflow the server reported starts
 * `{"key":…,"status":"failed","kind":"context-overflow"` and is remembered by its key and the
 * model's declared window (`overflowOf`), so a retry does not send it again.
 *
 * A `rejected` line says a reader refused the answer recorded before it under the same key (and
 * attempt): the answer stays in the log for the record, but is no longer served, and the next ask
 * of that key is a fresh attempt (attempt index + 1, a new seed), so a server that recovers can
 * answer differently. A line that cannot be read back (a valid prefix, broken JSON) is a miss,
 * warned about once with its file, line and byte offset, so its call is simply made again.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { asDiskFull, isDiskFull } from '../store/disk-full.ts';
import type { CallFailureKind } from './types.ts';

export interface CallRecord {
  key: string;
  status: 'ok' | 'failed' | 'rejected';
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
  /** What the call is an independent sample of (a case id), when the request named one. */
  sample?: string;
  /** The role the model played (builder, evaluated, patient, judge), when the request named one. */
  role?: string;
  /** Fresh attempts before this one: answers of the same key rejected earlier (absent = 0). */
  attempt?: number;
  /** On a `rejected` line: why the reader refused the answer. */
  reason?: string;
  /** On a failed line: its kind (types.ts CallFailureKind). */
  kind?: CallFailureKind;
  /** On a failed line: the HTTP status of the last attempt, when there was a response. */
  httpStatus?: number;
  /** On an overflow: the window the server stated. */
  window?: number;
  /** The model's declared context window when the call was made (a remembered overflow is keyed by it). */
  contextWindow?: number;
  /** The seed sent, when one was. */
  seed?: number;
  /** The id of the store whose run made the call (call-log.ts: a store's llm_calls view shows its own). */
  store?: string;
}

/** What a hit gives back. */
export interface CachedAnswer {
  text: string;
  finishReason?: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** Fresh attempts before this answer (0 for the first answer of its key). */
  attempt: number;
  /** The store whose run made the call, when it was recorded with one. */
  store?: string;
}

/** What `reject` records: which answer (key and attempt) was refused, and why. */
export type Rejection = Pick<CallRecord, 'key' | 'model' | 'modelId' | 'stage' | 'promptHash' | 'repeat'> & {
  attempt: number;
  reason: string;
};

const PREFIX = Buffer.from('{"key":"');
const OK_AFTER_KEY = Buffer.from('","status":"ok"');
const REJECTED_AFTER_KEY = Buffer.from('","status":"rejected"');
const OVERFLOW_AFTER_KEY = Buffer.from('","status":"failed","kind":"context-overflow"');
const KEY_LEN = 64;
const NEWLINE = 0x0a;
const READ_AHEAD = 1 << 20;

export function serializeRecord(r: CallRecord): string {
  if (!/^[0-9a-f]{64}$/.test(r.key)) throw new Error(`call store: key "${r.key}" is not 64 lowercase hex characters`);
  const { key, status, kind, ...rest } = r;
  const k = kind ? `"kind":"${kind}",` : '';
  return `{"key":"${key}","status":"${status}",${k}${JSON.stringify(rest).slice(1)}\n`;
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
  /** Rejected answers per key (only keys with any): the attempt index of the key's next answer. */
  private readonly rejections = new Map<string, number>();
  /** Overflows the server reported, by key: where their latest line is (few: parsed when asked). */
  private readonly overflows = new Map<string, { seg: number; off: number; len: number }>();
  private readonly warn: (line: string) => void;
  private readBuf = Buffer.alloc(64 * 1024);
  // Read-ahead for runs of hits in file order (a rerun asks in roughly the order it first
  // asked): one read per block instead of one per hit. Scattered hits read exactly.
  private block = { seg: -1, start: 0, end: 0, buf: null as Buffer | null };
  private lastSeg = -1;
  private lastEnd = 0;

  private writer: { fh: FileHandle; segIndex: number; size: number } | null = null;
  private opening: Promise<void> | null = null;
  private pending: { line: Buffer; key: string | null; overflow: boolean; resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;

  private constructor(
    dir: string,
    private readonly readOnly: boolean,
    warn: ((line: string) => void) | undefined,
  ) {
    this.dir = dir;
    this.warn = warn ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /**
   * Opens (creating if needed) the store in `<cacheDir>/<subdir>` (default `calls`), indexing
   * answered calls and remembered overflows. `warn` hears of lines that cannot be read back
   * (default: stderr).
   */
  static open(cacheDir: string, opts: { readOnly?: boolean; warn?: (line: string) => void; subdir?: string } = {}): CallStore {
    const dir = join(cacheDir, opts.subdir ?? 'calls');
    const store = new CallStore(dir, !!opts.readOnly, opts.warn);
    // Read-only (cdp estimate) creates nothing and repairs nothing: a fresh store stays untouched.
    if (opts.readOnly && !existsSync(dir)) return store;
    if (!opts.readOnly) mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl'))
      .sort())
      store.scanSegment(join(dir, name));
    return store;
  }

  get size(): number {
    return this.index.size;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  /** The attempt index the key's next answer gets: how many of its answers were rejected. */
  attemptOf(key: string): number {
    return this.rejections.get(key) ?? 0;
  }

  /**
   * Records that a reader refused the answer of `key` given at `attempt`: from now on it is not
   * served, and the key's next answer is attempt + 1. A second rejection of the same attempt (two
   * callers shared one answer) changes nothing. Resolves once the rejection is durable.
   */
  reject(r: Rejection): Promise<void> {
    if (this.attemptOf(r.key) > r.attempt) return Promise.resolve();
    this.rejections.set(r.key, r.attempt + 1);
    this.index.delete(r.key);
    const { attempt, ...rest } = r;
    const ts = new Date().toISOString();
    const line: CallRecord = { ...rest, status: 'rejected', inputTokens: 0, outputTokens: 0, latencyMs: 0, attempts: 0, ts };
    return this.append(attempt > 0 ? { ...line, attempt } : line);
  }

  /** The answer recorded for a key, read back from disk; undefined on a miss. */
  get(key: string): CachedAnswer | undefined {
    const slot = this.index.get(key);
    if (slot === undefined) return undefined;
    const r = this.readLine(key, this.seg[slot], this.off[slot], this.len[slot]);
    if (!r) return undefined;
    const fr = r.finishReason ? { finishReason: r.finishReason } : {};
    const st = r.store ? { store: r.store } : {};
    const { inputTokens, outputTokens, latencyMs } = r;
    return { text: r.text ?? '', inputTokens, outputTokens, latencyMs, attempt: r.attempt ?? 0, ...fr, ...st };
  }

  /** The whole line of a key's answer (to copy it into a store's own log), or undefined on a miss. */
  record(key: string): CallRecord | undefined {
    const slot = this.index.get(key);
    return slot === undefined ? undefined : this.readLine(key, this.seg[slot], this.off[slot], this.len[slot]);
  }

  /** The context overflow the server reported for a key, when it did (latest line); undefined otherwise. */
  overflowOf(key: string): CallRecord | undefined {
    const at = this.overflows.get(key);
    if (!at) return undefined;
    const r = this.readLine(key, at.seg, at.off, at.len, false);
    if (!r) this.overflows.delete(key);
    return r;
  }

  /** Reads one line back and checks it is the key's; an unreadable answer line is forgotten with a warning. */
  private readLine(key: string, seg: number, off: number, n: number, answer = true): CallRecord | undefined {
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
    try {
      const r = JSON.parse(src.toString('utf8', at, at + n)) as CallRecord;
      if (r.key !== key) throw new Error('the line names another key');
      if (typeof r.inputTokens !== 'number') throw new Error('the line has no token counts');
      return r;
    } catch (err) {
      if (answer) this.unreadable(key, seg, off, (err as Error).message);
      return undefined;
    }
  }

  /** A cached line that does not read back: forget it (the call is made again) and say where it is. */
  private unreadable(key: string, seg: number, off: number, why: string): void {
    this.index.delete(key);
    const path = this.segments[seg].path;
    this.warn(
      `call store: skipping an unreadable cache line in ${path}, line ${this.lineNumberAt(seg, off)} (byte offset ${off}): ${why}; ` +
        'its call is made again and the new answer appended (the damaged line may be deleted by hand)',
    );
  }

  /** 1-based line number of a byte offset: counted only when a warning needs it. */
  private lineNumberAt(seg: number, off: number): number {
    const buf = Buffer.allocUnsafe(1 << 20);
    let line = 1;
    for (let pos = 0; pos < off;) {
      const got = readSync(this.segments[seg].fd, buf, 0, Math.min(buf.length, off - pos), pos);
      if (got <= 0) break;
      for (let i = 0; i < got; i++) if (buf[i] === NEWLINE) line++;
      pos += got;
    }
    return line;
  }

  private shortRead(seg: number, off: number): Error {
    return new Error(
      `call store: short read in ${this.segments[seg].path} at ${off}; the file changed under the store — was it edited or truncated by hand?`,
    );
  }

  /** Appends a record; resolves once it is durable (and, if answered, visible to `get`). */
  append(r: CallRecord): Promise<void> {
    if (this.readOnly) return Promise.reject(new Error(`call store ${this.dir} is open read-only (cdp estimate); nothing may be recorded`));
    if (this.closed) return Promise.reject(new Error('call store: append after close'));
    const line = Buffer.from(serializeRecord(r), 'utf8');
    const overflow = r.status === 'failed' && r.kind === 'context-overflow';
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line, key: r.status === 'ok' || overflow ? r.key : null, overflow, resolve, reject });
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
          const path = this.segments[w.segIndex].path;
          // What was written of the group is cut off again: the next group must not be glued to half a line.
          await w.fh.truncate(w.size).catch(() => {});
          const e = isDiskFull(err)
            ? (asDiskFull(err, path) as Error)
            : new Error(`call store: writing ${path} failed: ${(err as Error).message}; check free disk space and permissions`);
          for (const g of group) g.reject(e);
          continue;
        }
        let at = w.size;
        for (const g of group) {
          if (g.overflow) this.overflows.set(g.key!, { seg: w.segIndex, off: at, len: g.line.length - 1 });
          else if (g.key) this.put(g.key, w.segIndex, at, g.line.length - 1);
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

  /**
   * Indexes one segment. A last line without its newline (its writer killed mid-write, or still
   * writing it) is not indexed and not cut off: the segment is another writer's, never appended to here.
   */
  private scanSegment(path: string): void {
    const fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const segIndex = this.segments.length;
    this.segments.push({ path, fd });
    let chunk = Buffer.alloc(8 * 1024 * 1024);
    let fileOff = 0; // file offset of chunk[0]
    let carry = 0; // bytes of an unfinished line kept at the start of chunk
    while (fileOff + carry < size) {
      const got = readSync(fd, chunk, carry, chunk.length - carry, fileOff + carry);
      if (got <= 0) break;
      const filled = carry + got;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(NEWLINE, start);
        if (nl < 0 || nl >= filled) break;
        this.indexLine(chunk, start, nl, segIndex, fileOff + start);
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
  }

  private indexLine(buf: Buffer, start: number, end: number, segIndex: number, fileOffset: number): void {
    const keyAt = start + PREFIX.length;
    if (end - start < keyAt - start + KEY_LEN + OK_AFTER_KEY.length) return;
    if (buf.compare(PREFIX, 0, PREFIX.length, start, keyAt) !== 0) return;
    const after = keyAt + KEY_LEN;
    if (buf.compare(OK_AFTER_KEY, 0, OK_AFTER_KEY.length, after, after + OK_AFTER_KEY.length) === 0) {
      this.put(buf.toString('latin1', keyAt, after), segIndex, fileOffset, end - start);
      return;
    }
    if (
      end - after >= OVERFLOW_AFTER_KEY.length &&
      buf.compare(OVERFLOW_AFTER_KEY, 0, OVERFLOW_AFTER_KEY.length, after, after + OVERFLOW_AFTER_KEY.length) === 0
    ) {
      this.overflows.set(buf.toString('latin1', keyAt, after), { seg: segIndex, off: fileOffset, len: end - start });
      return;
    }
    if (end - after < REJECTED_AFTER_KEY.length) return;
    if (buf.compare(REJECTED_AFTER_KEY, 0, REJECTED_AFTER_KEY.length, after, after + REJECTED_AFTER_KEY.length) !== 0) return;
    // Rejections are rare, so their lines are parsed; lines are in time order, so the answer a
    // rejection refers to was indexed before it.
    const key = buf.toString('latin1', keyAt, after);
    let attempt = 0;
    try {
      attempt = Number((JSON.parse(buf.toString('utf8', start, end)) as CallRecord).attempt ?? 0) || 0;
    } catch {
      // An unreadable rejection still rejects: serving a refused answer is worse than asking again.
    }
    this.rejections.set(key, Math.max(this.attemptOf(key), attempt + 1));
    this.index.delete(key);
  }
}

/**
 * Line-at-a-time file I/O for the store's NDJSON files. Node refuses strings over 2^29 − 24
 * characters, and an artifact at the paper's scale is larger than that, so no file is ever read
 * into one string or written from one: reads go through a fixed-size buffer and writes are
 * flushed in bounded batches. `maxStringChars` is the longest string this module ever builds;
 * tests lower it to prove that a table many times its size passes through.
 */
import { openSync, readSync, fsync, fsyncSync, closeSync } from 'node:fs';
import { asDiskFull, writeAll } from './disk-full.ts';

const NODE_MAX_STRING = 2 ** 29 - 24;
let maxStringChars = NODE_MAX_STRING;

/** Lowers (or with no argument restores) the longest string the store may build; for tests. */
export function setMaxStringChars(n?: number): void {
  maxStringChars = n ?? NODE_MAX_STRING;
}

export function getMaxStringChars(): number {
  return maxStringChars;
}

function checked(s: string, what: string): string {
  if (s.length > maxStringChars) {
    throw new Error(
      `${what} is ${s.length} characters, over the store's string limit of ${maxStringChars}; a single row this large cannot be stored`,
    );
  }
  return s;
}

export interface LineAt {
  line: string;
  /** Byte offset of the line's first byte, and its length in bytes without the newline. */
  offset: number;
  bytes: number;
}

/**
 * The complete lines of a file, with their byte offsets. A last line without its newline (a
 * write torn by a kill) is not complete: it is reported through `onTorn` and not yielded.
 */
export function* readLines(path: string, opts: { chunkBytes?: number; onTorn?: (offset: number) => void } = {}): Generator<LineAt> {
  const chunk = Math.max(16, Math.min(opts.chunkBytes ?? 1 << 20, maxStringChars));
  const fd = openSync(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    let carryOffset = 0;
    let position = 0;
    const buf = Buffer.allocUnsafe(chunk);
    for (let n; (n = readSync(fd, buf, 0, chunk, position)) > 0;) {
      position += n;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let nl; (nl = data.indexOf(0x0a, start)) >= 0; start = nl + 1) {
        if (nl > start) {
          const line = checked(data.toString('utf8', start, nl), `line at byte ${carryOffset + start} of ${path}`);
          yield { line, offset: carryOffset + start, bytes: nl - start };
        }
      }
      carryOffset += start;
      // Copied, not viewed: `buf` is reused by the next read.
      carry = Buffer.from(data.subarray(start));
      if (carry.length > maxStringChars * 4)
        throw new Error(`a line of ${path} from byte ${carryOffset} exceeds the store's string limit of ${maxStringChars}`);
    }
    if (carry.length) opts.onTorn?.(carryOffset);
  } finally {
    closeSync(fd);
  }
}

/** Reads `bytes` bytes at `offset` of an open file as one UTF-8 string: one memo line. */
export function readLineAt(fd: number, offset: number, bytes: number, path: string): string {
  {
    const buf = Buffer.allocUnsafe(bytes);
    let got = 0;
    while (got < bytes) {
      const n = readSync(fd, buf, got, bytes - got, offset + got);
      if (n <= 0) throw new Error(`${path} ends before byte ${offset + bytes}: the store changed while it was read`);
      got += n;
    }
    return checked(buf.toString('utf8'), `line at byte ${offset} of ${path}`);
  }
}

/**
 * Writes lines to a file in batches of at most `batchChars` characters (and never more than
 * the string limit), so memory and string sizes stay bounded by a batch, not by the file.
 */
export class LineWriter {
  private fd: number;
  private closed = false;
  private batch: string[] = [];
  private batchLength = 0;
  private readonly batchChars: number;
  bytesWritten = 0;

  constructor(
    readonly path: string,
    opts: { batchChars?: number; flags?: string } = {},
  ) {
    try {
      this.fd = openSync(path, opts.flags ?? 'w');
    } catch (err) {
      throw asDiskFull(err, path);
    }
    this.batchChars = Math.max(1, Math.min(opts.batchChars ?? 1 << 20, maxStringChars));
  }

  /** Appends one line (without its newline). */
  write(line: string): void {
    checked(line, `a line for ${this.path}`);
    if (this.batchLength + line.length + 1 > this.batchChars) this.flush();
    if (line.length + 1 > this.batchChars) {
      this.put(line);
      this.put('\n');
      return;
    }
    this.batch.push(line, '\n');
    this.batchLength += line.length + 1;
  }

  flush(): void {
    if (!this.batch.length) return;
    this.put(this.batch.join(''));
    this.batch = [];
    this.batchLength = 0;
  }

  private put(s: string): void {
    const b = Buffer.from(s, 'utf8');
    writeAll(this.fd, b, this.path);
    this.bytesWritten += b.length;
  }

  /** Flushes, fsyncs (unless `sync: false`, for a file that is a cache and is checked when read) and closes. */
  close(opts: { sync?: boolean } = {}): void {
    try {
      this.flush();
      if (opts.sync !== false) fsyncSync(this.fd);
    } catch (err) {
      throw asDiskFull(err, this.path);
    } finally {
      this.abandon();
    }
  }

  /** close(), with the fsync on libuv's thread pool: the main thread goes on with other stages meanwhile. */
  async closeAsync(): Promise<void> {
    try {
      this.flush();
      await fsyncOffThread(this.fd);
    } catch (err) {
      throw asDiskFull(err, this.path);
    } finally {
      this.abandon();
    }
  }

  /** Closes without the fsync, for a file about to be removed; closing twice is nothing. */
  abandon(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/**
 * fsync on libuv's thread pool. A one-row change commits a memo file and a segment in each of 200
 * stages, each fsync a millisecond or more of waiting: off the main thread, the other stage in
 * flight computes during it.
 */
export function fsyncOffThread(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

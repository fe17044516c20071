/**
 * The key index of one memo file, written beside it when its writer closes (`<file>.idx`), so
 * that a run which looks up a few units reads a few kilobytes instead of scanning every memo line.
 * Records are fixed-width and sorted by the sha256 of the key, for binary search:
 *
 *   "CDPIDX01" · data file size (f64) · count (u32) · count × [sha256(key) 32 B · offset f64 · bytes u32]
 *
 * An index is a cache: one missing (a writer killed before closing), truncated, or written for a
 * data file of another size is ignored and the file scanned, and every line it points to is checked
 * to carry its key before it is used. A file of fewer than INDEXED_FROM units gets none: scanning its
 * few lines costs less than creating one more file (about 0.6 ms of kernel time here), and a
 * one-row change leaves a memo file of one unit in every stage it reaches.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { writeFileAtomic } from './atomic.ts';

const MAGIC = Buffer.from('CDPIDX01');
const HEADER = 8 + 8 + 4;
const RECORD = 32 + 8 + 4;

/** The fewest units a memo file is indexed for. */
export const INDEXED_FROM = 64;

/** A key as the index stores it: a sha256 in hex (a unit key) as its bytes, any other key hashed. */
export function keyDigest(key: string): Buffer {
  return key.length === 64 && /^[0-9a-f]{64}$/.test(key) ? Buffer.from(key, 'hex') : createHash('sha256').update(key).digest();
}

export class MemoIndexBuilder {
  // Digests as latin1 strings: they sort by byte, and a string compare is much cheaper than Buffer.compare.
  private readonly keys: string[] = [];
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];

  add(key: string, offset: number, bytes: number): void {
    this.keys.push(keyDigest(key).toString('latin1'));
    this.offsets.push(offset);
    this.lengths.push(bytes);
  }

  /** Writes the index of a data file of `dataSize` bytes (later entries of a key win), if it has INDEXED_FROM units. */
  write(path: string, dataSize: number): void {
    if (this.keys.length < INDEXED_FROM) return;
    const last = new Map<string, number>();
    this.keys.forEach((k, i) => last.set(k, i));
    const order = [...last.values()].sort((a, b) => (this.keys[a] < this.keys[b] ? -1 : this.keys[a] > this.keys[b] ? 1 : 0));
    const buf = Buffer.allocUnsafe(HEADER + order.length * RECORD);
    MAGIC.copy(buf, 0);
    buf.writeDoubleLE(dataSize, 8);
    buf.writeUInt32LE(order.length, 16);
    order.forEach((e, i) => {
      const at = HEADER + i * RECORD;
      buf.write(this.keys[e], at, 32, 'latin1');
      buf.writeDoubleLE(this.offsets[e], at + 32);
      buf.writeUInt32LE(this.lengths[e], at + 40);
    });
    // A cache (checked against its data file when opened): not fsynced.
    writeFileAtomic(path, buf, { sync: false });
  }
}

export class MemoIndex {
  private constructor(private readonly buf: Buffer) {}

  /** The index of `dataPath`, or null when there is none that fits it. */
  static open(dataPath: string): MemoIndex | null {
    const path = `${dataPath}.idx`;
    if (!existsSync(path)) return null;
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch {
      return null;
    }
    if (buf.length < HEADER || !buf.subarray(0, 8).equals(MAGIC)) return null;
    const count = buf.readUInt32LE(16);
    if (buf.length !== HEADER + count * RECORD) return null;
    if (buf.readDoubleLE(8) !== statSync(dataPath).size) return null;
    return new MemoIndex(buf);
  }

  get size(): number {
    return this.buf.readUInt32LE(16);
  }

  /** Where the unit of `digest` lies in the data file, if this file has it. */
  find(digest: Buffer): { offset: number; bytes: number } | undefined {
    // Compared by their first 6 bytes as a number first: a native compare per step costs more than the search.
    const head = digest.readUIntBE(0, 6);
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const at = HEADER + mid * RECORD;
      const h = this.buf.readUIntBE(at, 6);
      const c = h !== head ? h - head : this.buf.compare(digest, 0, 32, at, at + 32);
      if (c === 0) return { offset: this.buf.readDoubleLE(at + 32), bytes: this.buf.readUInt32LE(at + 40) };
      // c > 0: the record sorts after the digest.
      if (c > 0) hi = mid;
      else lo = mid + 1;
    }
    return undefined;
  }

  /** Every record, for an index small enough to hold as a map (digest as a latin1 string → where). */
  *entries(): Generator<[string, { offset: number; bytes: number }]> {
    for (let i = 0; i < this.size; i++) {
      const at = HEADER + i * RECORD;
      yield [this.buf.toString('latin1', at, at + 32), { offset: this.buf.readDoubleLE(at + 32), bytes: this.buf.readUInt32LE(at + 40) }];
    }
  }
}

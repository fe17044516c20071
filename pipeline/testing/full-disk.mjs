// A full disk, for a `cdp` child process: `node --import <this file> bin/cdp.mjs …` with
// CDP_TEST_DISK_FULL=<text>[,<text>…]: a write of the store (through its write helpers,
// pipeline/store/disk-full.ts, and the no-op fast path's) to a file whose path contains one of
// them gets CDP_TEST_DISK_FITS bytes (default 0) written and then fails with ENOSPC, as a disk that
// fills up midway does. A write that is taken back frees its bytes again, so each write is
// measured alone. DuckDB's own writes are not seen here: scripts/full-disk-tmpfs.sh fills a real
// tmpfs for those.
const full = (process.env.CDP_TEST_DISK_FULL ?? '').split(',').filter(Boolean);
const fits = Number(process.env.CDP_TEST_DISK_FITS ?? '0');
if (full.length) {
  globalThis[Symbol.for('cdp.writeFault')] = (file, bytes) => (full.some((f) => file.includes(f)) ? Math.min(bytes, fits) : undefined);
}

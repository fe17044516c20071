/**
 * The store never builds one string of a table: with the string limit lowered to a few KB, a
 * stage whose rows are hundreds of times that passes through the runner, its memo and its
 * artifact, and a table far larger than the heap growth allowed is written in bounded memory.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, statSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { setMaxStringChars, readLines, LineWriter } from '../store/lines.ts';
import { writeArtifact, readRows, iterRows, hashRows, segmentPaths } from '../store/artifacts.ts';
import { RowStore } from '../store/row-store.ts';
import { makeToyProject } from '../testing/toy-project.ts';
import { resolveDag } from '../dag/validate.ts';
import { runDag } from './executor.ts';
import { workspaceFor } from './workspace.ts';
import { readLedger } from '../store/ledger.ts';
import type { Row } from '../dag/define.ts';

/** The bytes of an artifact's NDJSON, over all its segments. */
function bytesOf(store: string, stage: string, segments: readonly { hash: string }[]): number {
  return segments.reduce((n, seg) => n + statSync(segmentPaths(store, stage, seg.hash).ndjson).size, 0);
}

const LIMIT = 4096;
after(() => setMaxStringChars());

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'cdp-stream-'));
}

describe('lines', () => {
  test('readLines yields every complete line with its byte offset, across chunk borders, and reports a torn tail', () => {
    const path = join(tmp(), 'f.ndjson');
    writeFileSync(path, 'ab\nçé\n\nxyz\ntorn');
    let torn = -1;
    const got = [...readLines(path, { chunkBytes: 16, onTorn: (o) => (torn = o) })];
    // 'ç' and 'é' are two bytes each: 'xyz' starts at byte 3 + 5 + 1 = 9.
    assert.deepEqual(
      got.map((l) => [l.line, l.offset, l.bytes]),
      [
        ['ab', 0, 2],
        ['çé', 3, 4],
        ['xyz', 9, 3],
      ],
    );
    assert.equal(torn, 13);
  });

  test('a single line over the string limit is refused with the file named', () => {
    setMaxStringChars(LIMIT);
    try {
      const path = join(tmp(), 'big.ndjson');
      writeFileSync(path, 'x'.repeat(LIMIT * 5) + '\n');
      assert.throws(() => [...readLines(path)], /big\.ndjson.*string limit of 4096/);
      const w = new LineWriter(join(tmp(), 'out.ndjson'));
      assert.throws(() => w.write('y'.repeat(LIMIT + 1)), /string limit of 4096/);
      w.abandon();
    } finally {
      setMaxStringChars();
    }
  });
});

describe('artifacts and memos larger than the string limit', () => {
  test('an artifact of 400 × the limit is written and read back row for row, its name the hash of its rows', async () => {
    setMaxStringChars(LIMIT);
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      const store = tmp();
      const rows = Array.from({ length: 2000 }, (_, i) => ({ i, text: `row ${i} ` + 'z'.repeat(800) }));
      const columns = { i: 'INTEGER', text: 'VARCHAR' };
      const a = await writeArtifact(store, 's', [{ rows: rows.values(), chunk: true }], columns, async () => con);
      assert.ok(bytesOf(store, 's', a.segments) > 400 * LIMIT);
      assert.equal(a.rows, 2000);
      assert.ok(a.segments.length > 1, 'cut into segments by content');
      assert.equal(a.hash, hashRows(rows, columns, 's').hash);
      assert.deepEqual(readRows(store, 's', a.segments), rows);
      const files = a.segments.map((seg) => `'${segmentPaths(store, 's', seg.hash).parquet}'`).join(', ');
      const n = await con.runAndReadAll(`select count(*)::INTEGER as n, sum(length(text))::BIGINT as chars from read_parquet([${files}])`);
      assert.deepEqual(n.getRowObjectsJson(), [{ n: 2000, chars: String(rows.reduce((s, r) => s + r.text.length, 0)) }]);
    } finally {
      con.closeSync();
      db.closeSync();
      setMaxStringChars();
    }
  });

  test('a memo of 2,000 units loads as an index and serves each unit from disk; a torn last line is not a unit', () => {
    setMaxStringChars(LIMIT);
    try {
      const store = new RowStore(join(tmp(), 'units'));
      const w = store.writer();
      for (let i = 0; i < 2000; i++) w.append(`k${i}`, [{ i, pad: 'p'.repeat(500) }]);
      w.close();
      appendFileSync(join(store.dir, store.segments()[0]), '{"k":"k-torn","r":[{"i":');
      const memo = store.load();
      assert.equal(memo.size, 2000);
      assert.equal(memo.has('k-torn'), false);
      assert.deepEqual(memo.get('k1234'), [{ i: 1234, pad: 'p'.repeat(500) }]);
      const kept = store.compact(new Set(['k7', 'k1999']));
      assert.deepEqual(kept, { kept: 2, dropped: 1998 });
      assert.deepEqual(
        [...store.load().values()].map((r) => r[0].i),
        [7, 1999],
      );
    } finally {
      setMaxStringChars();
    }
  });

  test('a row stage whose rows are 500 × the limit runs, reruns from its memo, and its artifact holds every row', async () => {
    // Units must each fit the limit (a unit's rows are one memo line); the table is 600 of them.
    const p = makeToyProject(Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`d${String(i).padStart(3, '0')}.txt`, `w${i}`])));
    writeFileSync(
      join(p.root, 'stages', 'bulk.ts'),
      `import { rowStage } from ${JSON.stringify(join(import.meta.dirname, '..', 'stage.ts'))};
export default rowStage({
  inputs: { words: 'drives' },
  columns: { path: 'VARCHAR', j: 'INTEGER', blob: 'VARCHAR' },
  run({ row }) {
    return Array.from({ length: 3 }, (_, j) => ({ path: row.path, j, blob: String(row.path).repeat(90) + j }));
  },
});
`,
    );
    const config = p.config({ extraStages: [{ name: 'bulk', module: 'stages/bulk.ts', inputs: { words: 'words' }, forEach: 'words' }] });
    setMaxStringChars(LIMIT);
    try {
      const ws = workspaceFor(p.root, config);
      const first = await runDag(await resolveDag(config, p.root), ws);
      assert.equal(first.ok, true, JSON.stringify(first.stages.filter((s) => s.error)));
      const bulk = () => first.stages.find((s) => s.stage === 'bulk')!;
      assert.equal(bulk().rowsComputed, 600);
      const segments = readLedger(ws.ledger).entries.bulk.segments!;
      const size = bytesOf(ws.store, 'bulk', segments);
      assert.ok(size > 500 * LIMIT, `artifact is ${size} bytes`);
      let n = 0;
      for (const r of iterRows(ws.store, 'bulk', segments)) {
        assert.equal(r.blob, String(r.path).repeat(90) + r.j);
        n++;
      }
      assert.equal(n, 1800);
      // A new document: bulk reruns, computing its one unit; the other 600 come from the memo.
      p.writeDoc('d600.txt', 'eta');
      const second = await runDag(await resolveDag(config, p.root), ws);
      const b2 = second.stages.find((s) => s.stage === 'bulk')!;
      assert.deepEqual([b2.status, b2.rowsComputed, b2.rowsReused], ['ran', 1, 600]);
      assert.equal([...iterRows(ws.store, 'bulk', readLedger(ws.ledger).entries.bulk.segments!)].length, 1803);
    } finally {
      setMaxStringChars();
    }
  });

  test('writing a 96 MB artifact grows the heap by far less than the artifact', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    try {
      const pad = 'q'.repeat(1000);
      let peak = 0;
      const base = process.memoryUsage().heapUsed;
      function* rows(): Generator<Row> {
        for (let i = 0; i < 96_000; i++) {
          if (i % 4000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - base);
          yield { i, pad };
        }
      }
      const store = tmp();
      const a = await writeArtifact(store, 'big', [{ rows: rows(), chunk: true }], { i: 'INTEGER', pad: 'VARCHAR' }, async () => con);
      const size = bytesOf(store, 'big', a.segments);
      assert.ok(size > 96e6);
      assert.ok(peak < 32e6, `heap grew by ${(peak / 1e6).toFixed(1)} MB while writing ${(size / 1e6).toFixed(0)} MB`);
    } finally {
      con.closeSync();
      db.closeSync();
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinGroups } from './join-chunks.ts';
import type { RowShape } from './row-shape.ts';
import type { PendingSegment } from './runner-types.ts';

const MiB = 2 ** 20;
const seg = (hash: string, rows: number, bytes = 0) => ({ hash, rows, files: { ndjson: { size: bytes }, parquet: { size: 0 } } });
/** A stage driven by `driving` segments, joining one input of `joined` segments. */
function shape(driving: number[], joined: number[]): RowShape {
  return {
    joinNames: joined.length ? ['j'] : [],
    driving: { segments: driving.map((r, i) => seg(`d${i}`, r)) },
    inputs: { j: { segments: joined.map((b, i) => seg(`j${i}`, 1, b)) } },
  } as unknown as RowShape;
}
const pending = (rows: number[]): PendingSegment[] =>
  rows.map((n, i) => ({ seg: i, rows: Array.from({ length: n }, () => ({ row: {}, line: null, values: [] })), parts: [] }));
const sizes = (groups: PendingSegment[][]) => groups.map((g) => g.map((p) => p.rows.length));

test('joinGroups: one group when the joined bytes fit the budget, none when nothing is pending', () => {
  assert.deepEqual(sizes(joinGroups(shape([10, 10], [30 * MiB]), pending([10, 10]), 64 * MiB)), [[10, 10]]);
  assert.deepEqual(sizes(joinGroups(shape([10, 10], []), pending([10, 10]), 1)), [[10, 10]], 'no join: one group whatever the budget');
  assert.deepEqual(joinGroups(shape([10], [500 * MiB]), [], 64 * MiB), []);
});

test('joinGroups: whole segments in order, about equal rows, as many groups as the joined bytes need', () => {
  // 256 MiB joined, all pending: 4 groups of 2 segments.
  const eight = pending([5, 5, 5, 5, 5, 5, 5, 5]);
  const g = joinGroups(shape([5, 5, 5, 5, 5, 5, 5, 5], [200 * MiB, 56 * MiB]), eight, 64 * MiB);
  assert.deepEqual(sizes(g), [
    [5, 5],
    [5, 5],
    [5, 5],
    [5, 5],
  ]);
  assert.deepEqual(g.flat(), eight, 'every segment once, in order');
  // Never more groups than segments.
  assert.equal(joinGroups(shape([3, 3], [10_000 * MiB]), pending([3, 3]), 64 * MiB).length, 2);
  // Uneven segments: a group closes once it holds its share of the rows.
  assert.deepEqual(sizes(joinGroups(shape([8, 1, 1, 4, 2], [128 * MiB]), pending([8, 1, 1, 4, 2]), 64 * MiB)), [[8], [1, 1, 4, 2]]);
});

test('joinGroups: a rerun that plans a share of the driving rows joins that share of the bytes', () => {
  // 1 GiB joined, but 1 of 100 driving rows pending: about 10 MiB, one group.
  assert.equal(joinGroups(shape([50, 50], [1024 * MiB]), pending([1]), 64 * MiB).length, 1);
  // A fifth pending: about 205 MiB, 4 groups.
  assert.equal(joinGroups(shape([100], [1024 * MiB]), pending([5, 5, 5, 5]), 64 * MiB).length, 4);
});

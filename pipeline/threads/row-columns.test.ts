// Rows crossing to a worker column by column come back as they were: the same keys in the same
// order and the same values (numbers, -0, nulls, strings, arrays, undefined), through a real
// structured clone; rows of differing keys, and short lists, cross as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromColumns, toColumns, type RowColumns } from './row-columns.ts';

const many = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

test('rows cross as columns and come back equal, key order and all', () => {
  const rows = many(100, (i) => ({
    setting: i % 2 ? 'single' : 'multi',
    score: i === 3 ? -0 : i / 7,
    n: i,
    label: i % 5 ? `case ${i}` : null,
    steps: i % 3 ? [i, 'x', [1.5]] : [],
    missing: i === 9 ? undefined : 'here',
  }));
  const crossed = toColumns(rows) as RowColumns;
  assert.deepEqual(crossed.columns, ['setting', 'score', 'n', 'label', 'steps', 'missing']);
  assert.ok(crossed.values[1] instanceof Float64Array, 'a column of numbers is one typed array');
  assert.ok(crossed.values[2] instanceof Float64Array);
  assert.ok(Array.isArray(crossed.values[3]), 'a column with nulls is not');
  const back = fromColumns(structuredClone(crossed));
  assert.deepEqual(back, rows);
  assert.ok(Object.is(back[3]!.score, -0));
  assert.ok('missing' in back[9]! && back[9]!.missing === undefined);
  assert.deepEqual(
    back.map((r) => Object.keys(r)),
    rows.map((r) => Object.keys(r)),
  );
});

test('rows whose keys differ in name or order, and short lists, cross as rows', () => {
  const rows = many(50, (i) => ({ a: i, b: i }));
  const reordered = [...rows.slice(0, 49), { b: 1, a: 1 }];
  assert.equal(toColumns(reordered), reordered);
  const extra = [...rows.slice(0, 49), { a: 1, b: 1, c: 1 }];
  assert.equal(toColumns(extra), extra);
  const fewer = [...rows.slice(0, 49), { a: 1 }];
  assert.equal(toColumns(fewer), fewer);
  const short = rows.slice(0, 5);
  assert.equal(toColumns(short), short);
  assert.equal(fromColumns(short), short);
  assert.deepEqual(fromColumns(toColumns(rows)), rows);
});

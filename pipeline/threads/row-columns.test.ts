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

test('a column of repeated strings crosses as its distinct strings and indices, nulls kept', () => {
  const rows = many(200, (i) => ({
    model: i % 3 ? `model-${i % 7}` : null,
    cdp_id: `cdp-${i >> 2}`,
    pair_id: `pair-${i}`,
    setting: i % 2 ? 'single' : '多轮',
  }));
  const crossed = structuredClone(toColumns(rows) as RowColumns);
  const [model, cdp, pair, setting] = crossed.values as { dictionary?: string[]; codes?: Int32Array }[];
  assert.deepEqual(
    model!.dictionary,
    ['model-1', 'model-2', 'model-4', 'model-5', 'model-0', 'model-3', 'model-6'],
    'in order of first use',
  );
  assert.ok(model!.codes instanceof Int32Array);
  assert.equal(model!.codes![0], -1, 'a null is index -1');
  assert.equal(cdp!.dictionary!.length, 50, 'four rows share a case id');
  assert.ok(Array.isArray(pair), 'strings that never repeat cross as they are');
  assert.deepEqual(setting!.dictionary, ['多轮', 'single']);
  assert.deepEqual(fromColumns(crossed), rows);
});

test('a column of strings mixed with other values crosses as it is', () => {
  const rows = many(64, (i) => ({ v: i % 2 ? 'x' : i % 4 ? 1 : undefined }));
  const crossed = toColumns(rows) as RowColumns;
  assert.ok(Array.isArray(crossed.values[0]));
  assert.deepEqual(fromColumns(structuredClone(crossed)), rows);
});

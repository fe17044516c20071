// The streamed output formats of `cdp sql`, fed chunk by chunk as DuckDB hands them over.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { jsonArraySink, tableSink, cellText, columnWidths, WIDTH_SAMPLE_ROWS, MAX_WIDTH } from './sql-output.ts';
import type { JsonRow, RowSink } from './sql.ts';

async function feed(sink: RowSink, columns: string[], chunks: JsonRow[][]): Promise<void> {
  await sink.begin(columns);
  let n = 0;
  for (const c of chunks) {
    n += c.length;
    await sink.rows(c);
  }
  await sink.end(n);
}

function collector(): { write: (s: string) => void; text: () => string; writes: () => number } {
  const parts: string[] = [];
  return { write: (s) => void parts.push(s), text: () => parts.join(''), writes: () => parts.length };
}

describe('table output', () => {
  test('cells: NULL, objects as JSON, whitespace runs as one space', () => {
    assert.deepEqual(
      [cellText(null), cellText(undefined), cellText({ a: [1, 2] }), cellText('a \n\t b'), cellText(7)],
      ['NULL', 'NULL', '{"a":[1,2]}', 'a b', '7'],
    );
    assert.deepEqual(
      columnWidths(
        ['id', 'name'],
        [
          ['1', 'x'.repeat(80)],
          ['12345', 'y'],
        ],
      ),
      [5, MAX_WIDTH],
    );
  });

  test('a small result: header, rule, padded rows, the count', async () => {
    const out = collector();
    await feed(
      tableSink(out.write),
      ['id', 'name', 'tags'],
      [[{ id: 1, name: 'alpha', tags: ['a'] }], [{ id: 22, name: null, tags: null }]],
    );
    assert.equal(out.text(), ['id  name   tags', '--  -----  -----', '1   alpha  ["a"]', '22  NULL   NULL', '(2 rows)', ''].join('\n'));
  });

  test('one row and no rows', async () => {
    const one = collector();
    await feed(tableSink(one.write), ['x'], [[{ x: 'only' }]]);
    assert.equal(one.text(), 'x\n----\nonly\n(1 row)\n');
    const none = collector();
    await feed(tableSink(none.write), ['x'], [[]]);
    assert.equal(none.text(), '(no rows)\n');
  });

  test('widths come from exactly the first WIDTH_SAMPLE_ROWS rows, whatever the chunking; later cells are whole up to MAX_WIDTH', async () => {
    const rows: JsonRow[] = Array.from({ length: WIDTH_SAMPLE_ROWS + 2 }, (_, i) => ({ id: i, name: 'n' }));
    rows[WIDTH_SAMPLE_ROWS] = { id: WIDTH_SAMPLE_ROWS, name: 'x'.repeat(70) };
    rows[WIDTH_SAMPLE_ROWS + 1] = { id: WIDTH_SAMPLE_ROWS + 1, name: 'a much longer name' };
    const expected = [
      'id    name',
      '----  ----',
      ...Array.from({ length: WIDTH_SAMPLE_ROWS }, (_, i) => `${String(i).padEnd(4)}  n`),
      `2048  ${'x'.repeat(59)}…`,
      '2049  a much longer name',
      '(2050 rows)',
      '',
    ].join('\n');
    for (const size of [1000, 2048, 4096]) {
      const out = collector();
      const chunks: JsonRow[][] = [];
      for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
      await feed(tableSink(out.write), ['id', 'name'], chunks);
      assert.equal(out.text(), expected, `chunks of ${size}`);
    }
  });
});

describe('JSON output', () => {
  test('one row object per line, a valid JSON array whatever the chunking', async () => {
    const out = collector();
    await feed(
      jsonArraySink(out.write),
      ['a', 'b'],
      [
        [
          { a: 1, b: 'x' },
          { a: 2, b: null },
        ],
        [],
        [{ a: 3, b: [1] }],
      ],
    );
    assert.equal(out.text(), '[\n{"a":1,"b":"x"},\n{"a":2,"b":null},\n{"a":3,"b":[1]}\n]\n');
    assert.deepEqual(JSON.parse(out.text()), [
      { a: 1, b: 'x' },
      { a: 2, b: null },
      { a: 3, b: [1] },
    ]);
    assert.equal(out.writes(), 3, 'one write per non-empty chunk and one to close');
  });

  test('no rows is []', async () => {
    const out = collector();
    await feed(jsonArraySink(out.write), ['a'], [[]]);
    assert.equal(out.text(), '[]\n');
  });
});

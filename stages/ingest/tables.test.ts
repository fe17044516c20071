import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableAt } from './tables.ts';
import { sortIntoRows } from './columns.ts';
import { EMPTY_VOCABULARY } from './reflow.ts';
import { line } from './testing/text-lines.ts';

test('aligned cells over several rows become a table; wrapped cells join their row', () => {
  const lines = [
    line('Parameter', 50, 100, { width: 60 }),
    line('Criteria', 200, 100, { width: 60 }),
    line('Body mass index', 50, 112, { width: 80 }),
    line('≥23 kg/m2 (overweight)', 200, 112, { width: 120 }),
    line('Waist', 50, 124, { width: 40 }),
    line('>90 cm in men and', 200, 124, { width: 100 }),
    line('>80 cm in women', 200, 136, { width: 90 }),
    line('Waist-hip ratio', 50, 148, { width: 80 }),
    line('0.9 in men', 200, 148, { width: 60 }),
  ];
  const rows = sortIntoRows(lines);
  const t = tableAt(rows, 0, 400, EMPTY_VOCABULARY);
  assert.ok(t);
  assert.equal(t.start, 0);
  assert.equal(t.end, 5);
  assert.deepEqual(t.cells, [
    ['Parameter', 'Criteria'],
    ['Body mass index', '≥23 kg/m2 (overweight)'],
    ['Waist', '>90 cm in men and >80 cm in women'],
    ['Waist-hip ratio', '0.9 in men'],
  ]);
});

test('two side-by-side paragraphs are not a table', () => {
  const lines = [];
  for (let r = 0; r < 5; r++) {
    lines.push(line(`left column text ${r}`, 50, 100 + 12 * r, { width: 240 }));
    lines.push(line(`right column text ${r}`, 310, 100 + 12 * r, { width: 240 }));
  }
  assert.equal(tableAt(sortIntoRows(lines), 0, 500, EMPTY_VOCABULARY), null);
});

test('a row of one paragraph line is not a table start', () => {
  const rows = sortIntoRows([line('just text', 50, 100, { width: 400 }), line('more text', 50, 112, { width: 400 })]);
  assert.equal(tableAt(rows, 0, 400, EMPTY_VOCABULARY), null);
});

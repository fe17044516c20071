import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findGutter, orderFlows, readingOrder } from './columns.ts';
import { line } from './testing/text-lines.ts';

// A two-column page: a full-width title, 10 rows of two 250-pt columns with a 20-pt gutter, a
// full-width footnote, as typeset in journal guidelines.
function twoColumnPage() {
  const lines = [line('A full width title across both columns', 50, 60, { width: 520, size: 16 })];
  for (let r = 0; r < 10; r++) {
    lines.push(line(`L${r}`, 50, 100 + 13 * r, { width: 250 }));
    lines.push(line(`R${r}`, 320, 100 + 13 * r, { width: 250 }));
  }
  lines.push(line('A full width note under both columns', 50, 260, { width: 520 }));
  return lines;
}

test('the gutter is found between the columns', () => {
  const g = findGutter(twoColumnPage());
  assert.ok(g !== null && g > 300 && g < 320, `gutter ${g}`);
});

test('left column, then right column, between full-width lines', () => {
  const order = readingOrder(twoColumnPage(), 0).map((l) => l.text);
  assert.deepEqual(order, [
    'A full width title across both columns',
    ...Array.from({ length: 10 }, (_, i) => `L${i}`),
    ...Array.from({ length: 10 }, (_, i) => `R${i}`),
    'A full width note under both columns',
  ]);
  const flows = orderFlows(twoColumnPage()).map((f) => f.length);
  assert.deepEqual(flows, [1, 10, 10, 1]);
});

test('a single column of full lines has no gutter', () => {
  const lines = Array.from({ length: 20 }, (_, r) => line(`row ${r}`, 50, 100 + 13 * r, { width: 500 }));
  assert.equal(findGutter(lines), null);
});

test('short table cells side by side are not columns', () => {
  // Narrow cells (< 20 % of the width) on both sides of a gap: a table, kept row by row.
  const lines = [];
  for (let r = 0; r < 10; r++) {
    lines.push(line(`a${r}`, 50, 100 + 13 * r, { width: 60 }));
    lines.push(line(`b${r}`, 450, 100 + 13 * r, { width: 60 }));
  }
  lines.push(line('a full-width paragraph line that crosses the middle of the page', 50, 260, { width: 460 }));
  assert.equal(findGutter(lines), null);
  assert.deepEqual(
    readingOrder(lines, 0)
      .slice(0, 4)
      .map((l) => l.text),
    ['a0', 'b0', 'a1', 'b1'],
  );
});

test('a full-width table whose column gap falls on the gutter is read row by row', () => {
  // Two-column text below a four-column table; the table's second gap lines up with the gutter.
  const lines = [];
  for (let r = 0; r < 3; r++) {
    const y = 60 + 12 * r;
    lines.push(line(`s${r}`, 50, y, { width: 20 }), line(`description ${r}`, 90, y, { width: 200 }));
    lines.push(line(`level ${r}`, 320, y, { width: 60 }), line(`management ${r}`, 420, y, { width: 150 }));
  }
  for (let r = 0; r < 8; r++) {
    lines.push(line(`L${r}`, 50, 120 + 13 * r, { width: 250 }));
    lines.push(line(`R${r}`, 320, 120 + 13 * r, { width: 250 }));
  }
  const order = readingOrder(lines, 0).map((l) => l.text);
  assert.deepEqual(order.slice(0, 4), ['s0', 'description 0', 'level 0', 'management 0']);
  assert.deepEqual(order.slice(12, 14), ['L0', 'L1']);
  assert.equal(order[20], 'R0');
});

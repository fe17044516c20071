import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyFontSize, headingLevels, headingStyle } from './headings.ts';
import { line } from './testing/text-lines.ts';

test('the body size is the size that sets the most characters', () => {
  const lines = [
    line('A big title', 50, 50, { size: 18 }),
    line('x'.repeat(300), 50, 80, { size: 10.2 }),
    line('y'.repeat(200), 50, 95, { size: 8 }),
    line('z'.repeat(150), 50, 110, { size: 8 }),
  ];
  assert.equal(bodyFontSize(lines), 8); // 350 characters at 8 pt beat 300 at 10 pt
});

test('large text and whole-line bold at body size are heading styles', () => {
  assert.deepEqual(headingStyle(line('INTRODUCTION', 0, 0, { size: 12 }), 9), { kind: 'large', size: 12 });
  assert.deepEqual(headingStyle(line('Supporting Rationale', 0, 0, { size: 10, bold: true }), 10), { kind: 'bold', size: 10 });
  assert.equal(headingStyle(line('ordinary text', 0, 0, { size: 10 }), 10), null);
  assert.equal(headingStyle(line('2091', 0, 0, { size: 20 }), 10), null); // no words: a big page number
});

test('levels rank the sizes, largest first; bold body text sits below them', () => {
  const { levelOf, boldLevel } = headingLevels([18, 12, 12.3, 14]);
  assert.equal(levelOf(18), 1);
  assert.equal(levelOf(14), 2);
  assert.equal(levelOf(12), 3);
  assert.equal(levelOf(12.3), 3);
  assert.equal(boldLevel, 4);
  assert.equal(headingLevels([12]).boldLevel, 2);
});

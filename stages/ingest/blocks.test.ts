import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brokeEarly, linePitch, nextInSequence, pageBlocks } from './blocks.ts';
import { readingOrder } from './columns.ts';
import { EMPTY_VOCABULARY } from './reflow.ts';
import { line } from './testing/text-lines.ts';
import type { TextLine } from './types.ts';

const blocksOf = (lines: TextLine[]) =>
  pageBlocks(readingOrder(lines, 0), 10, EMPTY_VOCABULARY).map((b) => [b.kind, b.lines.map((l) => l.text).join(' / ')]);

test('paragraphs split at a first-line indent and at a wider gap, not at every line', () => {
  const lines = [
    line('Pain is one of the most common reasons adults seek medical', 50, 100, { width: 300 }),
    line('care in the United States. Acute pain is a nearly universal', 50, 112, { width: 300 }),
    line('experience.', 50, 124, { width: 60 }),
    line('Chronic pain often co-occurs with behavioral health', 62, 136, { width: 288 }), // indent
    line('conditions and substance use disorders.', 50, 148, { width: 200 }),
    line('A new paragraph after a blank line of space with more words', 50, 172, { width: 300 }), // gap
    line('to fill the line.', 50, 184, { width: 90 }),
  ];
  assert.deepEqual(blocksOf(lines), [
    [
      'paragraph',
      'Pain is one of the most common reasons adults seek medical / care in the United States. Acute pain is a nearly universal / experience.',
    ],
    ['paragraph', 'Chronic pain often co-occurs with behavioral health / conditions and substance use disorders.'],
    ['paragraph', 'A new paragraph after a blank line of space with more words / to fill the line.'],
  ]);
});

test('a bold heading over two lines is one block; list items keep their hanging lines', () => {
  const lines = [
    line('Recommendation 1: Blood pressure threshold for', 50, 100, { width: 300, bold: true }),
    line('initiation of treatment', 50, 113, { width: 140, bold: true }),
    line('The areas are:', 50, 130, { width: 80 }),
    line('1. Determining whether or not to initiate opioids', 56, 142, { width: 294 }),
    line('for pain', 68, 154, { width: 40 }),
    line('2. Selecting opioids and dosages', 56, 166, { width: 200 }),
    line('After the list comes text at the margin again, a long line', 50, 178, { width: 300 }),
  ];
  assert.deepEqual(blocksOf(lines), [
    ['heading', 'Recommendation 1: Blood pressure threshold for / initiation of treatment'],
    ['paragraph', 'The areas are:'],
    ['list-item', '1. Determining whether or not to initiate opioids / for pain'],
    ['list-item', '2. Selecting opioids and dosages'],
    ['paragraph', 'After the list comes text at the margin again, a long line'],
  ]);
});

test('line pitch is the median gap per size; a break is early when the next word would have fitted', () => {
  const lines = [0, 1, 2, 3].map((i) => line(`line ${i}`, 50, 100 + 12 * i));
  assert.equal(linePitch(lines).get(10), 12);
  const [a, b] = readingOrder([line('short line.', 50, 100, { width: 60 }), line('Next words here', 50, 112, { width: 300 })], 0);
  assert.equal(brokeEarly(a!, b!), true);
  const [c, d] = readingOrder(
    [line('a full line of text', 50, 100, { width: 297 }), line('continuation here', 50, 112, { width: 300 })],
    0,
  );
  assert.equal(brokeEarly(c!, d!), false);
});

test('numbered items in sequence', () => {
  assert.equal(nextInSequence('2.', '3.'), true);
  assert.equal(nextInSequence('(3)', '(4)'), true);
  assert.equal(nextInSequence('（二）', '（三）'), true);
  assert.equal(nextInSequence('2.', '(3)'), false);
  assert.equal(nextInSequence('2.', '4.'), false);
  assert.equal(nextInSequence('-', '-'), false);
});

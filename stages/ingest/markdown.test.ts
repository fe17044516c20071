import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collapseLeaders, mergeContinuations, tableMarkdown, toMarkdown } from './markdown.ts';
import { EMPTY_VOCABULARY } from './reflow.ts';
import type { Block } from './types.ts';

test('Markdown for headings, paragraphs, list items and tables', () => {
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: 'Recommendation 1', page: 0 },
    { kind: 'paragraph', text: '# not a heading in the source', page: 0, flow: 0 },
    { kind: 'list-item', marker: '-', depth: 0, text: 'acute pain', page: 0, flow: 0 },
    { kind: 'list-item', marker: '-', depth: 1, text: 'duration <1 month', page: 0, flow: 0 },
    { kind: 'list-item', marker: '2.', depth: 0, text: 'Selecting opioids', page: 0, flow: 0 },
    {
      kind: 'table',
      rows: [
        ['Opioid', 'Factor'],
        ['Codeine', '0.15'],
        ['a|b', ''],
      ],
      page: 0,
    },
  ];
  assert.equal(
    toMarkdown(blocks),
    '## Recommendation 1\n\n\\# not a heading in the source\n\n- acute pain\n  - duration <1 month\n2. Selecting opioids\n\n' +
      '| Opioid | Factor |\n| --- | --- |\n| Codeine | 0.15 |\n| a\\|b |  |\n',
  );
  assert.equal(tableMarkdown([['a'], ['b', 'c']]), '| a |  |\n| --- | --- |\n| b | c |');
});

test('dot leaders collapse', () => {
  assert.equal(collapseLeaders('Introduction..........1 Recommendation 6 . . . . . 38'), 'Introduction … 1 Recommendation 6 … 38');
  assert.equal(collapseLeaders('etc... and so on.'), 'etc... and so on.');
});

test('a sentence continues across columns, past a footnote, only when it was cut off', () => {
  const para = (text: string, flow: number, extra: Partial<Extract<Block, { kind: 'paragraph' }>> = {}): Block => ({
    kind: 'paragraph',
    text,
    page: 0,
    flow,
    ...extra,
  });
  const merged = mergeContinuations(
    [
      para('approximately one in 14 adults', 1, { roomChars: 2 }),
      para('Corresponding author: CDC.', 1, { small: true }),
      para('experienced chronic pain.', 2),
    ],
    EMPTY_VOCABULARY,
  );
  assert.deepEqual(
    merged.map((b) => (b.kind === 'paragraph' ? b.text : '')),
    ['approximately one in 14 adults experienced chronic pain.', 'Corresponding author: CDC.'],
  );
  // A line with room for the next word ended on purpose; a full stop ends the sentence.
  assert.equal(
    mergeContinuations([para('Obesity in children', 1, { roomChars: 30 }), para('at least 30%', 2)], EMPTY_VOCABULARY).length,
    2,
  );
  assert.equal(mergeContinuations([para('It ends here.', 1, { roomChars: 0 }), para('and this is new', 2)], EMPTY_VOCABULARY).length, 2);
  // The same flow is never merged here (the block builder already decided).
  assert.equal(mergeContinuations([para('one', 1), para('two', 1)], EMPTY_VOCABULARY).length, 2);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPageNumber, removeRunningHeads, repeatThreshold } from './running-heads.ts';
import type { PageText } from './types.ts';
import { line } from './testing/text-lines.ts';

function page(index: number, body: string[], extra: ReturnType<typeof line>[] = []): PageText {
  return {
    index,
    width: 600,
    height: 800,
    images: 0,
    lines: [...body.map((t, i) => line(t, 50, 200 + 14 * i, { page: index })), ...extra],
  };
}

test('repeated margin lines and page numbers go, body text stays', () => {
  const pages = [0, 1, 2, 3, 4].map((i) =>
    page(
      i,
      [`Body text of page ${i}`, 'A sentence that repeats on every page'],
      [
        line('Liu YM et al. Expert consensus on CPSP', 300, 40, { page: i }),
        line(`WHO Guideline (2021) Page ${i + 1}`, 50, 780, { page: i }),
        line(String(2091 + i), 290, 760, { page: i }),
      ],
    ),
  );
  const { pages: out, removed } = removeRunningHeads(pages);
  assert.equal(removed, 15);
  for (const p of out)
    assert.deepEqual(
      p.lines.map((l) => l.text),
      [`Body text of page ${p.index}`, 'A sentence that repeats on every page'],
    );
});

test('a margin line on too few pages stays (a title on page 1)', () => {
  const pages = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => page(i, ['body'], i === 0 ? [line('Journal title', 50, 30)] : []));
  assert.equal(repeatThreshold(12), 3);
  assert.equal(removeRunningHeads(pages).removed, 0);
});

test('page number shapes', () => {
  for (const t of ['12', 'Page 3', '- 4 -', 'iv', '第 3 页', '3 / 10']) assert.equal(isPageNumber(t), true, t);
  for (const t of ['12 mg', 'Table 3', '2022;71']) assert.equal(isPageNumber(t), false, t);
});

// The smoke-run selection: spread over languages and guidelines, the same on every run, and a
// larger limit keeps a smaller one's cases (so the full run reuses the smoke run's units).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectCases, smokeOrder, type CaseRef } from './case-selection.ts';

const cases: CaseRef[] = [];
for (const [language, guidelines, per] of [
  ['en', ['casp', 'who', 'esi', 'cdc'], 6],
  ['zh', ['nhc', 'csco'], 5],
] as const) {
  for (const g of guidelines) for (let i = 0; i < per; i++) cases.push({ cdp_id: `${g}-${i}`, guideline_id: g, language });
}

test('the first cases alternate languages and, within a language, come from distinct guidelines', () => {
  const order = smokeOrder(cases);
  assert.equal(order.length, cases.length);
  assert.deepEqual(new Set(order.map((c) => c.cdp_id)), new Set(cases.map((c) => c.cdp_id)), 'every case exactly once');
  assert.deepEqual(
    order.slice(0, 4).map((c) => c.language),
    ['en', 'zh', 'en', 'zh'],
  );
  const five = order.slice(0, 5);
  assert.equal(new Set(five.map((c) => c.guideline_id)).size, 5, '5 cases from 5 guidelines');
  // zh has 2 guidelines: its 3rd case comes back to the first zh guideline, en goes on to new ones.
  const zh = order.filter((c) => c.language === 'zh');
  assert.notEqual(zh[0].guideline_id, zh[1].guideline_id);
  assert.equal(zh[2].guideline_id, zh[0].guideline_id);
});

test('the order depends only on the ids: shuffled input, same selection; a larger limit keeps a smaller one', () => {
  const shuffled = [...cases].sort((a, b) => (a.cdp_id.split('').reverse().join('') < b.cdp_id.split('').reverse().join('') ? -1 : 1));
  assert.deepEqual(
    smokeOrder(shuffled).map((c) => c.cdp_id),
    smokeOrder(cases).map((c) => c.cdp_id),
  );
  for (let n = 1; n < cases.length; n++) {
    const small = selectCases(cases, n);
    const big = selectCases(cases, n + 1);
    assert.equal(small.size, n);
    for (const id of small) assert.ok(big.has(id), `limit ${n + 1} keeps ${id}`);
  }
  assert.equal(selectCases(cases, null).size, cases.length);
  assert.equal(selectCases(cases, 1000).size, cases.length);
});

test('adding a guideline does not change which of the others come first within their language', () => {
  const before = smokeOrder(cases)
    .filter((c) => c.language === 'zh')
    .map((c) => c.cdp_id);
  const more = [...cases, ...Array.from({ length: 3 }, (_, i) => ({ cdp_id: `new-${i}`, guideline_id: 'new', language: 'en' }))];
  const after = smokeOrder(more)
    .filter((c) => c.language === 'zh')
    .map((c) => c.cdp_id);
  assert.deepEqual(after, before);
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { splitGuidelines, testCount } from './split.ts';
import { createRng } from '../stats/rng.ts';

const corpus = (zh: number, en: number) => [
  ...Array.from({ length: zh }, (_, i) => ({ guideline_id: `zh-${String(i).padStart(4, '0')}`, language: 'zh' })),
  ...Array.from({ length: en }, (_, i) => ({ guideline_id: `en-${String(i).padStart(4, '0')}`, language: 'en' })),
];

const shuffled = <T>(xs: readonly T[], seed: number): T[] => {
  const out = [...xs];
  const rng = createRng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

const testSet = (m: Map<string, string>) => [...m].filter(([, s]) => s === 'test').map(([id]) => id).sort();

describe('testCount', () => {
  test('rounds half up, robustly to floating point', () => {
    assert.equal(testCount(10, 0.25), 3); // 2.5
    assert.equal(testCount(10, 0.24), 2);
    assert.equal(testCount(50, 0.05), 3); // 2.5 in exact arithmetic
    assert.equal(testCount(10, 0.35), 4); // 3.5
    assert.equal(testCount(7, 1), 7);
    assert.equal(testCount(7, 0), 0);
  });
});

describe('splitGuidelines', () => {
  test('reproduces the paper: 440 of 2,274 = 210 zh + 230 en', () => {
    const g = corpus(1085, 1189);
    const m = splitGuidelines(g, { testFraction: 440 / 2274, seed: 1 });
    const t = testSet(m);
    assert.equal(t.length, 440);
    assert.equal(t.filter((id) => id.startsWith('zh-')).length, 210);
    assert.equal(t.filter((id) => id.startsWith('en-')).length, 230);
    assert.equal(m.size, 2274);
  });

  test('per-language counts are round(fraction × count)', () => {
    const g = [...corpus(13, 7), { guideline_id: 'fr-1', language: 'fr' }, { guideline_id: 'fr-2', language: 'fr' }];
    const t = testSet(splitGuidelines(g, { testFraction: 0.25, seed: 9 }));
    assert.equal(t.filter((id) => id.startsWith('zh-')).length, 3); // 3.25
    assert.equal(t.filter((id) => id.startsWith('en-')).length, 2); // 1.75
    assert.equal(t.filter((id) => id.startsWith('fr-')).length, 1); // 0.5 rounds up
  });

  test('deterministic for a seed; different seeds give different draws', () => {
    const g = corpus(200, 300);
    const a = splitGuidelines(g, { testFraction: 0.2, seed: 42 });
    const b = splitGuidelines(g, { testFraction: 0.2, seed: 42 });
    const c = splitGuidelines(g, { testFraction: 0.2, seed: 43 });
    assert.deepEqual([...a], [...b]);
    assert.notDeepEqual(testSet(a), testSet(c));
    assert.notDeepEqual(testSet(a), testSet(splitGuidelines(g, { testFraction: 0.2, seed: 42 + 2 ** 32 })));
  });

  test('independent of input order', () => {
    const g = corpus(120, 80);
    const ref = splitGuidelines(g, { testFraction: 0.3, seed: 5 });
    for (const s of [1, 2, 3]) assert.deepEqual([...splitGuidelines(shuffled(g, s), { testFraction: 0.3, seed: 5 })], [...ref]);
    assert.deepEqual([...ref.keys()], [...ref.keys()].sort());
  });

  test('adding guidelines in one language leaves the other language\'s draw unchanged', () => {
    const before = testSet(splitGuidelines(corpus(100, 100), { testFraction: 0.2, seed: 7 }));
    const after = testSet(splitGuidelines(corpus(100, 160), { testFraction: 0.2, seed: 7 }));
    assert.deepEqual(after.filter((id) => id.startsWith('zh-')), before.filter((id) => id.startsWith('zh-')));
  });

  test('every guideline is equally likely to be drawn (over 2,000 seeds)', () => {
    const g = corpus(10, 0);
    const hits = new Map<string, number>();
    const seeds = 2000;
    for (let s = 0; s < seeds; s++) for (const id of testSet(splitGuidelines(g, { testFraction: 0.3, seed: s }))) hits.set(id, (hits.get(id) ?? 0) + 1);
    const expected = seeds * 0.3;
    const chi2 = g.reduce((acc, { guideline_id }) => acc + ((hits.get(guideline_id) ?? 0) - expected) ** 2 / expected, 0);
    // Each count is Binomial(2000, 0.3) (variance 420, so chi2 is scaled by 0.7): a 9-dof chi-square
    // bound of 27.9 (p = 0.001) is conservative.
    assert.ok(chi2 < 27.9, `chi2 = ${chi2}`);
  });

  test('an explicit test list overrides the draw', () => {
    const g = corpus(5, 5);
    const m = splitGuidelines(g, { testFraction: 0.5, seed: 1, testIds: ['zh-0001', 'en-0003'] });
    assert.deepEqual(testSet(m), ['en-0003', 'zh-0001']);
    assert.equal(m.size, 10);
    assert.throws(() => splitGuidelines(g, { testFraction: 0.5, seed: 1, testIds: ['zh-0001', 'xx-9'] }), /"xx-9" are not among the guidelines/);
  });

  test('rejects duplicate ids, bad fractions and non-integer seeds', () => {
    assert.throws(() => splitGuidelines([...corpus(2, 0), { guideline_id: 'zh-0000', language: 'en' }], { testFraction: 0.5, seed: 1 }), /"zh-0000" appears more than once/);
    assert.throws(() => splitGuidelines(corpus(2, 2), { testFraction: 1.5, seed: 1 }), /testFraction must be in \[0, 1\]/);
    assert.throws(() => splitGuidelines(corpus(2, 2), { testFraction: 0.5, seed: 0.5 }), /seed must be an integer/);
  });

  test('fractions 0 and 1 put everything on one side', () => {
    const g = corpus(4, 3);
    assert.equal(testSet(splitGuidelines(g, { testFraction: 0, seed: 1 })).length, 0);
    assert.equal(testSet(splitGuidelines(g, { testFraction: 1, seed: 1 })).length, 7);
  });
});

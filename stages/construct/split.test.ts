import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { splitGuidelines, splitScore, unusedPins, type Split } from './split.ts';
import { parseSplitPins } from './split-pins.ts';
import { createRng, type Rng } from '../stats/rng.ts';
import { fileURLToPath } from 'node:url';
import dagDefinition from '../../dag.config.ts';
import { builtConfig } from '../../pipeline/testing/config-stages.ts';

const dagConfig = builtConfig(dagDefinition, fileURLToPath(new URL('../..', import.meta.url)));

const corpus = (zh: number, en: number) => [
  ...Array.from({ length: zh }, (_, i) => ({ guideline_id: `zh-${String(i).padStart(4, '0')}`, language: 'zh' })),
  ...Array.from({ length: en }, (_, i) => ({ guideline_id: `en-${String(i).padStart(4, '0')}`, language: 'en' })),
];

const shuffled = <T>(xs: readonly T[], rng: Rng): T[] => {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

const randomId = (rng: Rng) => `g-${rng.nextUint32().toString(36)}-${rng.nextInt(1000)}`;
const testSet = (m: Map<string, string>) =>
  [...m]
    .filter(([, s]) => s === 'test')
    .map(([id]) => id)
    .sort();

describe('splitScore: hand-computed', () => {
  // Expected values from coreutils, independently of this code:
  //   printf '42\0a' | sha256sum → d837af07139c2…; the score is the first 13 hex digits / 16^13.
  const cases: [string, number, number][] = [
    ['a', 42, 0xd837af07139c2 / 2 ** 52], // 0.84460
    ['b', 42, 0x99d699860a281 / 2 ** 52], // 0.60093
    ['指南-1', 42, 0x0038369d42db2 / 2 ** 52], // 0.00086: UTF-8 bytes of the id
    ['nhc-2020-insomnia', 42, 0x4e112feeb0103 / 2 ** 52], // 0.30495
    ['a', 156, 0x7732beb32d1f9 / 2 ** 52], // 0.46562
    ['a', -3, 0x6734f4e4c65d0 / 2 ** 52], // 0.40315: the seed as written in decimal
  ];
  for (const [id, seed, expected] of cases) {
    test(`${id} under seed ${seed}`, () => assert.equal(splitScore(id, seed), expected));
  }

  test('the split is score < testFraction', () => {
    const g = ['a', 'b', '指南-1', 'nhc-2020-insomnia'].map((guideline_id) => ({ guideline_id }));
    assert.deepEqual(testSet(splitGuidelines(g, { testFraction: 0.5, seed: 42 })), ['nhc-2020-insomnia', '指南-1']);
    assert.deepEqual(testSet(splitGuidelines(g, { testFraction: 0.6, seed: 42 })), ['nhc-2020-insomnia', '指南-1'], 'b scores 0.6009');
    assert.deepEqual(testSet(splitGuidelines(g, { testFraction: 0.61, seed: 42 })), ['b', 'nhc-2020-insomnia', '指南-1']);
    assert.deepEqual(testSet(splitGuidelines(g, { testFraction: 0.5, seed: 156 })), ['a', 'nhc-2020-insomnia', '指南-1']);
  });
});

describe('splitGuidelines: stable under adding and removing guidelines', () => {
  test('property: over random id sets, adding or removing guidelines never moves another one', () => {
    const rng = createRng(20260101);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + rng.nextInt(60);
      const ids = [...new Set(Array.from({ length: n }, () => randomId(rng)))];
      const opts = { testFraction: rng.nextFloat(), seed: rng.nextInt(1000) - 500 };
      const before = splitGuidelines(
        ids.map((guideline_id) => ({ guideline_id })),
        opts,
      );
      const added = [...ids, ...Array.from({ length: 1 + rng.nextInt(5) }, () => randomId(rng))].filter((x, i, a) => a.indexOf(x) === i);
      const afterAdd = splitGuidelines(
        shuffled(added, rng).map((guideline_id) => ({ guideline_id })),
        opts,
      );
      const kept = ids.filter(() => rng.nextFloat() < 0.7);
      const afterRemove = splitGuidelines(
        kept.map((guideline_id) => ({ guideline_id })),
        opts,
      );
      for (const id of ids) assert.equal(afterAdd.get(id), before.get(id), `trial ${trial}: ${id} moved when guidelines were added`);
      for (const id of kept) assert.equal(afterRemove.get(id), before.get(id), `trial ${trial}: ${id} moved when guidelines were removed`);
      assert.equal(afterAdd.size, added.length);
      assert.equal(afterRemove.size, kept.length);
    }
  });

  test('raising the fraction only adds test guidelines', () => {
    const g = corpus(300, 300);
    const low = new Set(testSet(splitGuidelines(g, { testFraction: 0.1, seed: 7 })));
    const high = new Set(testSet(splitGuidelines(g, { testFraction: 0.3, seed: 7 })));
    assert.ok(low.size < high.size);
    for (const id of low) assert.ok(high.has(id), id);
  });

  test('independent of input order; keyed in code-unit order', () => {
    const g = corpus(120, 80);
    const ref = splitGuidelines(g, { testFraction: 0.3, seed: 5 });
    const rng = createRng(3);
    for (let k = 0; k < 3; k++) assert.deepEqual([...splitGuidelines(shuffled(g, rng), { testFraction: 0.3, seed: 5 })], [...ref]);
    assert.deepEqual([...ref.keys()], [...ref.keys()].sort());
  });

  test('deterministic for a seed; different seeds give different splits', () => {
    const g = corpus(200, 300);
    const a = splitGuidelines(g, { testFraction: 0.2, seed: 42 });
    assert.deepEqual([...a], [...splitGuidelines(g, { testFraction: 0.2, seed: 42 })]);
    assert.notDeepEqual(testSet(a), testSet(splitGuidelines(g, { testFraction: 0.2, seed: 43 })));
    assert.notDeepEqual(testSet(a), testSet(splitGuidelines(g, { testFraction: 0.2, seed: 42 + 2 ** 32 })));
  });
});

describe('splitGuidelines: shares are expected, not exact', () => {
  test("the paper's corpus (1,085 zh + 1,189 en at 440/2,274): each language within 4 standard deviations of its expected count", () => {
    const f = 440 / 2274;
    const m = splitGuidelines(corpus(1085, 1189), { testFraction: f, seed: 42 });
    const t = testSet(m);
    for (const [lang, n] of [
      ['zh', 1085],
      ['en', 1189],
    ] as const) {
      const k = t.filter((id) => id.startsWith(`${lang}-`)).length;
      const sd = Math.sqrt(n * f * (1 - f));
      assert.ok(Math.abs(k - n * f) < 4 * sd, `${lang}: ${k} test, expected ${(n * f).toFixed(1)} ± ${sd.toFixed(1)}`);
    }
  });

  test('every guideline is equally likely to be test (over 2,000 seeds)', () => {
    const g = corpus(10, 0);
    const hits = new Map<string, number>();
    const seeds = 2000;
    for (let s = 0; s < seeds; s++) {
      for (const id of testSet(splitGuidelines(g, { testFraction: 0.3, seed: s }))) hits.set(id, (hits.get(id) ?? 0) + 1);
    }
    const expected = seeds * 0.3;
    const variance = seeds * 0.3 * 0.7;
    const chi2 = g.reduce((acc, { guideline_id }) => acc + ((hits.get(guideline_id) ?? 0) - expected) ** 2 / variance, 0);
    // Ten independent Binomial(2000, 0.3) counts: a 10-dof chi-square, 29.6 at p = 0.001.
    assert.ok(chi2 < 29.6, `chi2 = ${chi2}`);
  });

  test('fractions 0 and 1 put everything on one side', () => {
    const g = corpus(4, 3);
    assert.equal(testSet(splitGuidelines(g, { testFraction: 0, seed: 1 })).length, 0);
    assert.equal(testSet(splitGuidelines(g, { testFraction: 1, seed: 1 })).length, 7);
  });
});

describe('splitGuidelines: explicit lists, pins and bad input', () => {
  test('an explicit test list overrides the rule', () => {
    const g = corpus(5, 5);
    const m = splitGuidelines(g, { testFraction: 0.5, seed: 1, testIds: ['zh-0001', 'en-0003'] });
    assert.deepEqual(testSet(m), ['en-0003', 'zh-0001']);
    assert.equal(m.size, 10);
    assert.throws(
      () => splitGuidelines(g, { testFraction: 0.5, seed: 1, testIds: ['zh-0001', 'xx-9'] }),
      /"xx-9" are not among the guidelines; remove them from the list or add the guidelines/,
    );
  });

  test('pins fix single guidelines, the rest follow the rule; pins of absent ids are reported', () => {
    const g = ['a', 'b', '指南-1', 'nhc-2020-insomnia'].map((guideline_id) => ({ guideline_id }));
    const pins = new Map<string, Split>([
      ['a', 'test'],
      ['指南-1', 'non-test'],
      ['gone', 'test'],
    ]);
    assert.deepEqual(testSet(splitGuidelines(g, { testFraction: 0.5, seed: 42, pins })), ['a', 'nhc-2020-insomnia']);
    assert.deepEqual(unusedPins(g, pins), ['gone']);
    assert.throws(
      () => splitGuidelines(g, { testFraction: 0.5, seed: 42, pins, testIds: ['a'] }),
      /both testIds and split pins were given; use one of them/,
    );
  });

  test('rejects duplicate ids, bad fractions and non-integer seeds', () => {
    const duplicated = [...corpus(2, 0), { guideline_id: 'zh-0000', language: 'en' }];
    assert.throws(() => splitGuidelines(duplicated, { testFraction: 0.5, seed: 1 }), /"zh-0000" appears more than once/);
    assert.throws(() => splitGuidelines(corpus(2, 2), { testFraction: 1.5, seed: 1 }), /testFraction must be in \[0, 1\], got 1\.5/);
    assert.throws(() => splitGuidelines(corpus(2, 2), { testFraction: NaN, seed: 1 }), /testFraction must be in \[0, 1\], got NaN/);
    assert.throws(() => splitGuidelines(corpus(2, 2), { testFraction: 0.5, seed: 0.5 }), /seed must be an integer/);
  });
});

describe('the bundled sample under dag.config.ts', () => {
  const root = join(import.meta.dirname, '../../data/sample/guidelines');
  const sample = ['en', 'zh'].flatMap((language) =>
    readdirSync(join(root, language))
      .filter((f) => f.endsWith('.pdf'))
      .map((f) => ({ guideline_id: f.replace(/\.pdf$/, ''), language })),
  );

  test("the test split holds guidelines of both languages (seed 156: the former sampler's test set, 2 en + 1 zh)", () => {
    const params = dagConfig.stages.find((s) => s.name === 'cdps')!.params as { testFraction: number; seed: number };
    assert.equal(sample.length, 6);
    const m = splitGuidelines(sample, params);
    const test = sample.filter((g) => m.get(g.guideline_id) === 'test');
    assert.deepEqual(test.map((g) => g.guideline_id).sort(), [
      'casp-2021-chronic-postsurgical-pain-consensus',
      'nhc-2020-insomnia',
      'who-2021-hypertension-pharmacological-treatment-retypeset',
    ]);
    assert.deepEqual([...new Set(test.map((g) => g.language))].sort(), ['en', 'zh']);
  });
});

describe('split pin files', () => {
  test('merged over files; BOM, case, blank lines and extra columns accepted; a repeated pin that agrees is fine', () => {
    const pins = parseSplitPins([
      { name: 'a.csv', text: '\ufeffguideline_id,split,note\nwho,TEST,held out\n\ncdc, non-test ,\n' },
      { name: 'b.csv', text: 'split,guideline_id\ntest,who\nnon-test,esi\n' },
    ]);
    assert.deepEqual([...pins].sort(), [
      ['cdc', 'non-test'],
      ['esi', 'non-test'],
      ['who', 'test'],
    ]);
    assert.deepEqual([...parseSplitPins([])], []);
  });

  test('any bad line rejects the pins, every problem named with file and line', () => {
    const text = 'guideline_id,split\nwho,test\ncdc,train\n,test\nwho,non-test\n';
    assert.throws(
      () => parseSplitPins([{ name: 'pins.csv', text }]),
      (e: Error) => {
        assert.match(e.message, /^split pins rejected \(3 problems\); fix the file\(s\), nothing was split:/);
        assert.match(e.message, /pins\.csv line 3: column "split" must be test or non-test, got "train"/);
        assert.match(e.message, /pins\.csv line 4: column "guideline_id" is empty/);
        assert.match(e.message, /pins\.csv line 5: guideline who pinned to non-test, but to test on pins\.csv line 2; keep one/);
        return true;
      },
    );
    assert.throws(
      () => parseSplitPins([{ name: 'p.csv', text: 'id,split\nwho,test\n' }]),
      /p\.csv: missing column "guideline_id"; the header must name guideline_id,split/,
    );
    assert.throws(() => parseSplitPins([{ name: 'p.csv', text: '' }]), /p\.csv: the file is empty; expected a header guideline_id,split/);
  });
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseStepScores, normaliseLikert, averageRuns, readAnyLayout } from './parse-step-scores.ts';

// A 3 × 2 grid; row-major expected matrix.
const GRID = 'R1-C1: 5, R1-C2: 2\nR2-C1: 3, R2-C2: 4\nR3-C1: 1, R3-C2: 5';
const MATRIX = [5, 2, 3, 4, 1, 5];

function scores(raw: string, m = 3, n = 2): number[] {
  const r = parseStepScores(raw, m, n);
  assert.ok(r.ok, `expected a matrix, got ${r.ok ? '' : r.problems.join(' | ')}`);
  assert.ok(r.scores instanceof Float64Array);
  return Array.from(r.scores);
}

function problems(raw: string, m = 3, n = 2): string[] {
  const r = parseStepScores(raw, m, n);
  assert.equal(r.ok, false, raw);
  return r.ok ? [] : r.problems;
}

describe('well-formed and tolerated grids', () => {
  const TABLE = '| | C1 | C2 |\n|---|---|---|\n| R1 | 5 | 2 |\n| R2 | 3 | 4 |\n| R3 | 1 | 5 |';
  const rows: Array<{ name: string; input: string; format: string; finishReason?: string }> = [
    { name: 'the format of Prompt 5', input: GRID, format: 'strict' },
    { name: 'finish_reason stop', input: GRID, format: 'strict', finishReason: 'stop' },
    { name: 'blank lines and trailing spaces', input: `\n${GRID.split('\n').join('  \n\n')}\n\n`, format: 'strict' },
    {
      name: 'reasoning block first',
      input: `<think>R1 vs C1: both ask about fever, so 5. R1-C1: 4 was my first guess.</think>\n${GRID}`,
      format: 'think-block',
    },
    { name: 'bold pairs', input: GRID.replace(/(R\d-C\d)/g, '**$1**'), format: 'bold-marker' },
    { name: 'bold scores', input: GRID.replace(/: (\d)/g, ': **$1**'), format: 'bold-marker' },
    { name: 'spaces inside the pair', input: GRID.replace(/R(\d)-C(\d): /g, 'R$1 - C$2 : '), format: 'score-layout' },
    { name: 'full-width colons and commas', input: GRID.replace(/: /g, '：').replace(/, /g, '，'), format: 'full-width+score-layout' },
    { name: 'semicolons', input: GRID.replace(/, /g, '; '), format: 'score-layout' },
    { name: 'tabs', input: GRID.replace(/, /g, '\t'), format: 'score-layout' },
    { name: 'one pair per line', input: GRID.replace(/, /g, '\n'), format: 'score-layout' },
    { name: 'all on one line', input: GRID.replace(/\n/g, ', '), format: 'score-layout' },
    { name: 'en dash and no dash', input: GRID.replace('R1-C1', 'R1–C1').replace('R2-C2', 'R2C2'), format: 'score-layout' },
    { name: 'lower case', input: GRID.toLowerCase(), format: 'case' },
    { name: 'lower case and equals', input: GRID.toLowerCase().replace(/: /g, ' = '), format: 'score-layout' },
    { name: 'rows out of order', input: GRID.split('\n').reverse().join('\n'), format: 'score-layout' },
    {
      name: 'commentary lines without pairs',
      input: `Here are the pairwise consistency scores:\n${GRID}\nAll 6 pairs were verified.`,
      format: 'preamble+trailing-note',
    },
    { name: 'inside a code fence', input: `\`\`\`\n${GRID}\n\`\`\``, format: 'fence' },
    { name: '"/5" after scores', input: GRID.replace(/: (\d)/g, ': $1/5'), format: 'score-layout' },
    { name: 'a markdown table', input: TABLE, format: 'score-layout' },
    {
      name: 'a transposed markdown table',
      input: '| | R1 | R2 | R3 |\n|---|---|---|---|\n| C1 | 5 | 3 | 1 |\n| C2 | 2 | 4 | 5 |',
      format: 'score-layout',
    },
    {
      name: 'a table with a preamble and a note',
      input: `Scores:\n\n${TABLE}\n\nAll pairs scored.`,
      format: 'preamble+score-layout+trailing-note',
    },
    {
      name: 'pair and score in adjacent cells',
      input:
        '| Pair | Score |\n|---|---|\n' +
        GRID.split(/, |\n/)
          .map((p) => `| ${p.replace(': ', ' | ')} |`)
          .join('\n'),
      format: 'score-layout',
    },
    { name: 'tuples "(R1, C1): 5"', input: GRID.replace(/R(\d)-C(\d)/g, '(R$1, C$2)'), format: 'score-layout' },
    { name: 'JSON {"R1-C1": 5}', input: `{${GRID.replace(/\n/g, ', ').replace(/(R\d-C\d)/g, '"$1"')}}`, format: 'score-layout' },
    {
      name: 'nested JSON {"R1": {"C1": 5}}',
      input: '{"R1": {"C1": 5, "C2": 2}, "R2": {"C1": 3, "C2": 4}, "R3": {"C1": 1, "C2": 5}}',
      format: 'score-layout',
    },
    {
      name: 'the pathways echoed before the scores',
      input: `R1: Fever of 38.5 °C\nC1: 38.5 °C fever, 3 days\n${GRID}`,
      format: 'preamble',
    },
    { name: 'rows "R1: C1=5, C2=2"', input: 'R1: C1=5, C2=2\nR2: C1=3, C2=4\nR3: C1=1, C2=5', format: 'score-layout' },
    // Read as "duplicate pair R1-C1" before: an explanation that names a pair is not a second score.
    {
      name: 'an explanation line repeating a pair',
      input: `${GRID}\nExplanation: R1-C1: both steps assess the fever threshold; R1-C2: 2 as the topics differ.`,
      format: 'trailing-note',
    },
    { name: 'a pair repeated with the same score', input: `${GRID}\nR1-C2: 2`, format: 'repeated-pair+score-layout' },
    {
      name: 'a pair mentioned again without a score',
      input: `${GRID}\nThe weakest match is R1-C2: see above.`,
      format: 'repeated-pair+trailing-note',
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const r = parseStepScores(row.input, 3, 2, row.finishReason);
      assert.ok(r.ok, `expected a matrix, got ${r.ok ? '' : r.problems.join(' | ')}`);
      assert.deepEqual([Array.from(r.scores), r.format], [MATRIX, row.format]);
    });
  }

  test('two-digit labels (12 × 11)', () => {
    const m = 12,
      n = 11;
    const lines: string[] = [];
    const expected: number[] = [];
    for (let i = 1; i <= m; i++) {
      const row: string[] = [];
      for (let j = 1; j <= n; j++) {
        const s = ((i * 7 + j * 3) % 5) + 1;
        row.push(`R${i}-C${j}: ${s}`);
        expected.push(s);
      }
      lines.push(row.join(', '));
    }
    assert.deepEqual(scores(lines.join('\n'), m, n), expected);
  });

  test('a 1 × 1 grid', () => assert.deepEqual(scores('R1-C1: 3', 1, 1), [3]));
});

describe('defects, each listed as a re-ask message', () => {
  test('missing pairs, in row-major order', () => {
    assert.deepEqual(problems('R1-C1: 5, R1-C2: 2\nR2-C1: 3\nR3-C2: 5'), ['missing pairs: R2-C2, R3-C1']);
  });

  test('a truncated answer', () => {
    assert.deepEqual(problems('R1-C1: 5, R1-C2: 2\nR2-C1: 3, R2-C2: 4\nR3-C1: 1, R3-'), ['missing pairs: R3-C2']);
  });

  test('truncated right after a colon: no score', () => {
    assert.deepEqual(problems('R1-C1: 5, R1-C2: 2\nR2-C1: 3, R2-C2: 4\nR3-C1: 1, R3-C2:'), ['no score for R3-C2']);
  });

  test('a pair given two different scores is a fault naming the pair; the same score again is not', () => {
    assert.deepEqual(problems(`${GRID}\nR1-C2: 3, R2-C1: 3`), ['duplicate pair R1-C2 with different scores (2 and 3)']);
    assert.deepEqual(problems('R1: C1=5, C2=2\nR2: C1=3, C2=4\nR3: C1=1, C2=5\nR1: C2=4'), [
      'duplicate pair R1-C2 with different scores (2 and 4)',
    ]);
  });

  test('a truncated answer (finish_reason length) is refused as such, even when every pair is there', () => {
    assert.deepEqual(parseStepScores(GRID, 3, 2, 'length'), {
      ok: false,
      problems: ['truncated answer (finish_reason: length): cut off at the output token limit; answer again, complete and more concisely'],
    });
  });

  test('an answer that is only reasoning says so', () => {
    assert.match(problems('<think>R1-C1: 5, R1-C2: 2 …')[0], /only reasoning/);
  });

  test('a table with a missing cell names the pair', () => {
    assert.deepEqual(problems('| | C1 | C2 |\n|---|---|---|\n| R1 | 5 | 2 |\n| R2 | 3 | |\n| R3 | 1 | 5 |'), ['no score for R2-C2']);
  });

  test('labels out of range, reported once per label', () => {
    assert.deepEqual(problems(`${GRID}\nR4-C1: 2, R4-C2: 2, R1-C3: 1, R0-C1: 1`), [
      'label R4 out of range 1..3',
      'label C3 out of range 1..2',
      'label R0 out of range 1..3',
    ]);
  });

  test('the example from the brief: R7 with m = 5', () => {
    const grid = [1, 2, 3, 4, 5].map((i) => `R${i}-C1: 3`).join('\n');
    assert.deepEqual(problems(`${grid}\nR7-C1: 4`, 5, 1), ['label R7 out of range 1..5']);
  });

  test('scores outside 1–5 and fractional scores', () => {
    assert.deepEqual(problems(GRID.replace('R1-C1: 5', 'R1-C1: 7').replace('R3-C1: 1', 'R3-C1: 0')), [
      'score 7 for R1-C1 is not in 1–5',
      'score 0 for R3-C1 is not in 1–5',
    ]);
    // Half points are refused rather than rounded (see the module comment).
    assert.deepEqual(problems(GRID.replace('R2-C2: 4', 'R2-C2: 4.5')), ['score 4.5 for R2-C2 is not an integer in 1–5']);
    assert.deepEqual(problems(GRID.replace('R2-C2: 4', 'R2-C2: -1')), ['score -1 for R2-C2 is not in 1–5']);
  });

  test('an integral decimal is an integer score', () => {
    assert.deepEqual(scores(GRID.replace('R2-C2: 4', 'R2-C2: 4.0')), MATRIX);
  });

  test('no pairs at all: prose, empty, or the echoed template', () => {
    const none = ['no pairs of the form R<i>-C<j>: <score> found; expected 3 × 2 = 6 pairs'];
    assert.deepEqual(problems('The candidate pathway is broadly consistent with the reference.'), none);
    assert.deepEqual(problems(''), none);
    assert.deepEqual(problems('R<i>-C1: <score>, R<i>-C2: <score>'), none);
  });

  test('several defects at once, in a fixed order', () => {
    assert.deepEqual(problems('R1-C1: 5, R1-C1: 4, R1-C2: 9\nR5-C1: 3\nR2-C1:'), [
      'label R5 out of range 1..3',
      'duplicate pair R1-C1 with different scores (5 and 4)',
      'score 9 for R1-C2 is not in 1–5',
      'no score for R2-C1',
      'missing pairs: R2-C2, R3-C1, R3-C2',
    ]);
  });

  test('long lists of missing pairs are cut after 20', () => {
    const [p] = problems('R1-C1: 3', 5, 5);
    assert.equal(
      p,
      `missing pairs: ${Array.from({ length: 24 }, (_, k) => `R${Math.floor((k + 1) / 5) + 1}-C${((k + 1) % 5) + 1}`)
        .slice(0, 20)
        .join(', ')} … (4 more)`,
    );
  });

  test('a pathway of length 0 is refused before the judge is read', () => {
    assert.throws(() => parseStepScores(GRID, 0, 2), /m = 0 must be an integer ≥ 1/);
    assert.throws(() => parseStepScores(GRID, 3, 1.5), /n = 1.5/);
  });
});

describe('normaliseLikert and averageRuns', () => {
  test('(s − 1)/4 maps 1..5 onto 0, 0.25, 0.5, 0.75, 1', () => {
    assert.deepEqual(Array.from(normaliseLikert(Float64Array.from([1, 2, 3, 4, 5]))), [0, 0.25, 0.5, 0.75, 1]);
    assert.ok(Math.abs(normaliseLikert(Float64Array.from([3.4]))[0] - 0.6) < 1e-12, 'an averaged score 3.4 maps to 0.6');
  });

  test('values outside [1, 5] or NaN are refused, naming the index', () => {
    assert.throws(() => normaliseLikert(Float64Array.from([3, 0])), /Likert score 0 at index 1/);
    assert.throws(() => normaliseLikert(Float64Array.from([Number.NaN])), /NaN at index 0/);
  });

  test('five runs average element-wise; normalising commutes with averaging', () => {
    const runs = [
      [5, 2, 3, 4, 1, 5],
      [4, 2, 3, 4, 1, 5],
      [5, 1, 3, 5, 1, 4],
      [5, 2, 2, 4, 2, 5],
      [4, 3, 3, 4, 1, 5],
    ].map((r) => Float64Array.from(r));
    const mean = averageRuns(runs);
    const expected = [23 / 5, 10 / 5, 14 / 5, 21 / 5, 6 / 5, 24 / 5];
    mean.forEach((v, k) => assert.ok(Math.abs(v - expected[k]) < 1e-12, `index ${k}: ${v}`));
    const a = normaliseLikert(mean);
    const b = averageRuns(runs.map(normaliseLikert));
    a.forEach((v, k) => assert.ok(Math.abs(v - b[k]) < 1e-12));
    assert.ok(Math.abs(a[0] - 0.9) < 1e-12 && Math.abs(a[4] - 0.05) < 1e-12);
  });

  test('a single run is returned as a copy; shape mismatches and no runs are refused', () => {
    const one = Float64Array.from([1, 5]);
    const avg = averageRuns([one]);
    assert.deepEqual(Array.from(avg), [1, 5]);
    assert.notEqual(avg, one);
    assert.throws(() => averageRuns([]), /at least one run/);
    assert.throws(() => averageRuns([one, Float64Array.from([1, 2, 3])]), /run 1 has 3 scores but run 0 has 2/);
  });
});

describe('the strict layout read directly', () => {
  // A seeded generator: the same answers on every run.
  let seed = 23;
  const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
  const strict = (m: number, n: number, score: (i: number, j: number) => string) =>
    Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) => `R${i + 1}-C${j + 1}: ${score(i, j)}`).join(', ')).join('\n');
  // What a strict answer turns into when a model writes it a little differently, and faults.
  const edits: Array<[string, (s: string) => string]> = [
    ['as it is', (s) => s],
    ['a trailing newline', (s) => `${s}\n`],
    ['a preamble', (s) => `Scores:\n${s}`],
    ['a score of 6', (s) => s.replace(/: \d$/, ': 6')],
    ['a score of 0 first', (s) => s.replace(/: \d/, ': 0')],
    ['a two-digit score', (s) => s.replace(/: \d$/, ': 45')],
    ['lower-case labels', (s) => s.toLowerCase()],
    ['no space after the colon', (s) => s.replace(': ', ':')],
    ['a leading zero', (s) => s.replace('R1-', 'R01-')],
    ['the last pair dropped', (s) => s.replace(/, R\d+-C\d+: \d$/, '')],
    ['rows swapped', (s) => s.split('\n').reverse().join('\n')],
    ['a half point', (s) => s.replace(/: \d$/, ': 4.5')],
    ['bold', (s) => `**${s}**`],
  ];
  test('every answer, strict or not, reads as the general reader reads it (scores, format, problems)', () => {
    for (let k = 0; k < 60; k++) {
      const m = 1 + rand(27);
      const n = 1 + rand(27);
      const answer = strict(m, n, () => String(1 + rand(5)));
      for (const [what, edit] of edits) {
        const raw = edit(answer);
        for (const finish of [undefined, 'stop', 'length'])
          assert.deepEqual(parseStepScores(raw, m, n, finish), readAnyLayout(raw, m, n, finish), `${m} × ${n}, ${what}, finish ${finish}`);
      }
    }
  });
  test('a strict answer of 27 × 27 gives its scores, format strict', () => {
    const score = (i: number, j: number) => ((i * 5 + j * 3) % 5) + 1;
    const r = parseStepScores(
      strict(27, 27, (i, j) => String(score(i, j))),
      27,
      27,
    );
    assert.ok(r.ok);
    assert.equal(r.format, 'strict');
    assert.deepEqual(Array.from(r.scores).slice(0, 6), [1, 4, 2, 5, 3, 1]);
    assert.equal(r.scores[26 * 27 + 26], score(26, 26));
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseThresholdLabels, parsePreferenceChoices, parsePairPcc, readThresholdLabels } from './read-csv.ts';

const labels = [
  'judge,model,score,human,note', //                  line 1
  'gpt-5.4-mini,qwen3-8b,0.75,yes,', //               line 2
  'gpt-5.4-mini,qwen3-8b,0.2,No,"multi', //           line 3 (quoted field spans lines 3–4)
  'line note"', //                                    line 4
  '', //                                              line 5 (blank: ignored)
  'gpt-5.4-mini,qwen3-8b,0.9,maybe,', //              line 6
  'bertscore,qwen3-8b,1.3,yes,', //                   line 7
  'bertscore,,abc,yes,', //                           line 8 (two problems)
  'bertscore,qwen3-8b,0.4', //                        line 9 (too few fields)
  'bertscore,qwen3-8b,0.4,TRUE,', //                  line 10
].join('\r\n');

test('threshold labels: good rows kept, bad rows reported by line and skipped', () => {
  const { rows, errors } = parseThresholdLabels('\ufeff' + labels, 'labels.csv');
  assert.deepEqual(rows, [
    { judge: 'gpt-5.4-mini', model: 'qwen3-8b', score: 0.75, human: true, line: 2 },
    { judge: 'gpt-5.4-mini', model: 'qwen3-8b', score: 0.2, human: false, line: 3 },
    { judge: 'bertscore', model: 'qwen3-8b', score: 0.4, human: true, line: 10 },
  ]);
  assert.deepEqual(
    errors.map((e) => e.message),
    [
      'labels.csv line 6: column "human" must be yes/no, got "maybe"',
      'labels.csv line 7: column "score" must be in [0, 1], got "1.3"',
      'labels.csv line 8: column "model" is empty',
      'labels.csv line 8: column "score" must be a number, got "abc"',
      'labels.csv line 9: expected 5 fields like the header, got 3; check for a missing or extra comma or an unclosed quote',
    ],
  );
  assert.deepEqual(
    errors.map((e) => e.line),
    [6, 7, 8, 8, 9],
  );
});

test('a missing column or an empty file throws, naming what is expected', () => {
  assert.throws(
    () => parseThresholdLabels('judge,model,score\nJ,m,0.5\n', 'x.csv'),
    /x\.csv: missing column "human"; the header must name judge,model,score,human/,
  );
  assert.throws(() => parseThresholdLabels('\n\n', 'x.csv'), /x\.csv: the file is empty/);
});

test('preference choices: choice spelling, duplicates reported with both lines', () => {
  const csv = [
    'group,pair_id,annotator,choice',
    'random,p1,ann1,a',
    'random,p1,ann2,Tie',
    'random,p2,ann1,C',
    'strong,p3,ann1,B',
    'random,p1,ann1,B',
    '',
  ].join('\n');
  const { rows, errors } = parsePreferenceChoices(csv, 'prefs.csv');
  assert.deepEqual(
    rows.map((r) => [r.pair_id, r.annotator, r.choice, r.line]),
    [
      ['p1', 'ann1', 'A', 2],
      ['p1', 'ann2', 'tie', 3],
      ['p3', 'ann1', 'B', 5],
    ],
  );
  assert.deepEqual(
    errors.map((e) => e.message),
    [
      'prefs.csv line 4: column "choice" must be A, B or tie, got "C"',
      'prefs.csv line 6: annotator ann1 already labelled pair p1 on line 2; keep one label',
    ],
  );
});

test('pair PCC values and reading from a file', () => {
  const { rows, errors } = parsePairPcc('pair_id,pcc_a,pcc_b\np1,0.25,0.5\np2,,0.1\n', 'pcc.csv');
  assert.deepEqual(rows, [{ pair_id: 'p1', pccA: 0.25, pccB: 0.5, line: 2 }]);
  assert.deepEqual(
    errors.map((e) => e.message),
    ['pcc.csv line 3: column "pcc_a" must be a number, got ""'],
  );
  const dir = mkdtempSync(join(tmpdir(), 'stats-csv-'));
  writeFileSync(join(dir, 'labels.csv'), 'judge,model,score,human\nJ,m,0.5,maybe\n');
  assert.equal(
    readThresholdLabels(join(dir, 'labels.csv')).errors[0]!.message,
    'labels.csv line 2: column "human" must be yes/no, got "maybe"',
  );
});

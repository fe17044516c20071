import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPathway, shownStep } from './pathway-labels.ts';

/** The definition shownStep must keep whatever shortcut it takes. */
const folded = (s: string) => s.replace(/\s+/g, ' ').trim();

test('shownStep: whitespace folded to single spaces and trimmed, by hand', () => {
  assert.equal(shownStep('Assess  blood\tpressure\n'), 'Assess blood pressure');
  assert.equal(shownStep(' 评估\u3000血压 '), '评估 血压');
  assert.equal(shownStep('\uFEFFCheck\u00a0HbA1c'), 'Check HbA1c');
  assert.equal(shownStep('Already clean'), 'Already clean');
  assert.equal(shownStep(''), '');
  assert.equal(shownStep('   '), '');
});

test('shownStep equals folding on random strings of letters, spaces and every other kind of whitespace', () => {
  const alphabet = ['a', 'B', '血', ' ', ' ', ' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000', '\uFEFF', '\u2028', '\u000b', '.'];
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let k = 0; k < 5000; k++) {
    const n = Math.floor(next() * 12);
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    assert.equal(shownStep(s), folded(s), JSON.stringify(s));
  }
});

test('formatPathway: one labelled line per step, steps shown folded', () => {
  assert.equal(formatPathway(['Take  history', 'Order\nECG'], 'R'), 'R1: Take history\nR2: Order ECG');
  assert.throws(() => formatPathway([], 'C'), /empty candidate pathway/);
});

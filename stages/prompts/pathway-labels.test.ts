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

test('shownStep equals folding on 20,000 random strings of letters, spaces, every other whitespace and the code points beside it', () => {
  // Every character \s matches, the code points beside its ranges, and ordinary text.
  const spaces = [
    '\t',
    '\n',
    '\v',
    '\f',
    '\r',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\uFEFF',
  ];
  const near = [
    '\u0008',
    '\u000e',
    '\u001f',
    '\u0085',
    '\u009f',
    '\u00a1',
    '\u1fff',
    '\u200b',
    '\u202e',
    '\u2030',
    '\u205e',
    '\u2060',
    '\u2fff',
    '\u3001',
    '\ufefe',
  ];
  const alphabet = ['a', 'B', '血', '.', ' ', ' ', ' ', ' ', ...spaces, ...near];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let k = 0; k < 20000; k++) {
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

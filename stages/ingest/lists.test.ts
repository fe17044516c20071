import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listMarker, markdownItemPrefix } from './lists.ts';

test('bullet markers', () => {
  for (const b of ['•', '▪', '–', '-'])
    assert.deepEqual(listMarker(`${b} a clinical tool`), { marker: '-', ordered: false, rest: 'a clinical tool' });
  assert.equal(listMarker('-5 mg'), null);
});

test('numbered markers, Latin and Chinese', () => {
  const cases: [string, string, string][] = [
    ['1. Determining whether', '1.', 'Determining whether'],
    ['2) selecting opioids', '2)', 'selecting opioids'],
    ['(3) Intrathecal drug delivery', '(3)', 'Intrathecal drug delivery'],
    ['（2）米氮平：属于', '（2）', '米氮平：属于'],
    ['一、概述', '一、', '概述'],
    ['（一）临床特征', '（一）', '临床特征'],
    ['1.注意障碍和意识障碍', '1.', '注意障碍和意识障碍'],
    ['4.1(L) Body mass index', '4.1(L)', 'Body mass index'],
    ['3.2 (L) The cardiometabolic risk', '3.2 (L)', 'The cardiometabolic risk'],
  ];
  for (const [text, marker, rest] of cases) assert.deepEqual(listMarker(text), { marker, ordered: true, rest }, text);
});

test('numbers that are not markers', () => {
  assert.equal(listMarker('1.5 mg twice daily'), null);
  assert.equal(listMarker('2022 was the year'), null);
  assert.equal(listMarker('Recommendation 1'), null);
});

test('Markdown prefixes', () => {
  assert.equal(markdownItemPrefix('-'), '- ');
  assert.equal(markdownItemPrefix('1.'), '1. ');
  assert.equal(markdownItemPrefix('(3)'), '- (3) ');
  assert.equal(markdownItemPrefix('（一）'), '- （一）');
});

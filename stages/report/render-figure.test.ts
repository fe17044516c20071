import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { figure1c, figure5 } from './figures.ts';
import { FONT_FAMILY, renderPng, renderSvg, wrapTitle } from './render-figure.ts';
import { SUMMARY } from './testing/report-rows.ts';

const cdps = [
  ['test', 1],
  ['test', 2],
  ['test', 2],
  ['test', 10],
  ['non-test', 2],
  ['non-test', 3],
  ['non-test', 12],
].map(([split, length]) => ({ split, length }));
const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;

describe('figure rendering', () => {
  test('SVG: standalone, fixed fonts and sizes, no random class names, the title as text', () => {
    const svg = renderSvg(figure1c(SUMMARY));
    assert.match(
      svg,
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="720" height="\d+" viewBox="0 0 720 \d+" font-family="DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif" font-size="10">/,
    );
    assert.equal(count(svg, /font-family="/g), 1 + 1, 'the figure and its one panel name the same font list');
    assert.equal(count(svg, new RegExp(`font-family="${FONT_FAMILY}"`, 'g')), 2);
    assert.doesNotMatch(svg, /class="plot-|clip-path|<style/);
    assert.match(svg, /<title>Figure 1\(c\): pathway consistency cost against outcome accuracy \(judge: gpt-5\.4-mini\)<\/title>/);
    assert.equal(count(svg, /<circle/g), 2, 'one dot per plotted (setting, model)');
  });

  test('Figure 5 composes the inset into the same SVG: a boxed second panel with the tail bars', () => {
    const svg = renderSvg(figure5(cdps, [{ split: 'full', statistic: 'P95', value: 10.6 }]));
    assert.equal(count(svg, /<svg /g), 3, 'the figure, the main panel and the inset');
    assert.equal(count(svg, /<rect[^>]*stroke="#666"/g), 1, 'the inset box');
    // background + 6 main bars + 1 tail bar + inset box + 2 legend swatches
    assert.equal(count(svg, /<rect/g), 11);
  });

  test("byte-identical across renders; PNG is a PNG of the SVG's size, identical across renders without system fonts", () => {
    const spec = figure5(cdps);
    const a = renderSvg(spec),
      b = renderSvg(figure5(cdps));
    assert.equal(a, b);
    const p1 = renderPng(a),
      p2 = renderPng(b);
    assert.deepEqual(Buffer.from(p1), Buffer.from(p2));
    assert.deepEqual([...p1.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(p1.buffer, p1.byteOffset);
    const height = Number(/height="(\d+)"/.exec(a)![1]);
    assert.deepEqual([view.getUint32(16), view.getUint32(20)], [720, height]);
  });

  test('titles wrap at a fixed advance, never depending on a font', () => {
    assert.deepEqual(wrapTitle('aaaa bbbb cccc', 20 + 7.6 * 10), ['aaaa bbbb', 'cccc']);
    assert.deepEqual(wrapTitle('short', 720), ['short']);
  });
});

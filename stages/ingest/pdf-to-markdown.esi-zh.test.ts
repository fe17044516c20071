// Real sample PDFs: a two-column journal guideline and the two Chinese sections.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { pdfToMarkdown } from './pdf-to-markdown.ts';
import { readSample } from './testing/sample-corpus.ts';
import type { IngestResult } from './types.ts';

const cache = new Map<string, Promise<Extract<IngestResult, { ok: true }>>>();
function ingest(rel: string, language: 'en' | 'zh') {
  let p = cache.get(rel);
  if (!p) {
    p = readSample(rel).then(async (bytes) => {
      const r = await pdfToMarkdown(bytes, { name: rel, language });
      assert.ok(r.ok, r.ok ? '' : r.error);
      return r;
    });
    cache.set(rel, p);
  }
  return p;
}
const ESI = 'en/esi-2022-obesity-india-cpg.pdf';
const DELIRIUM = 'zh/nhc-2020-delirium.pdf';
const INSOMNIA = 'zh/nhc-2020-insomnia.pdf';

describe('ESI obesity guideline (two columns, 24 pages)', () => {
  test('reading order: a left-column sentence comes out whole, before the right column beside it', async () => {
    const { markdown } = await ingest(ESI, 'en');
    const left =
      'Several definitions [Table 1] and classifications [Table 2] have been proposed to define obesity in the Indian population.[34]';
    const right = 'example of such a clinical staging system.[38]';
    const i = markdown.indexOf(left);
    const j = markdown.indexOf(right);
    assert.ok(i >= 0, 'left-column sentence whole');
    assert.ok(j >= 0, 'right-column sentence present');
    assert.ok(i < j, 'left column first');
  });
  test('numbered section headings and Table 1', async () => {
    const { markdown } = await ingest(ESI, 'en');
    assert.match(markdown, /^### 4\. Diagnosis of Obesity: Identification and Classification$/m);
    assert.match(markdown, /^### Table 1: Obesity indicators used to define obesity$/m);
    assert.ok(
      markdown.includes(
        '| Parameter studied | Criteria for overweight/obesity |\n| --- | --- |\n| Body mass index | ≥23 kg/m2 (over weight); ≥25 kg/m2 (obesity) |',
      ),
    );
  });
  test('Table 3 spans both columns and is read row by row, wrapped cells joined', async () => {
    const { markdown } = await ingest(ESI, 'en');
    assert.ok(
      markdown.includes(
        '| Stage | Description | Level of Prevention | Management |\n| --- | --- | --- | --- |\n' +
          '| 0 | No apparent obesity-related risk factors, physical symptoms, psychopathology, functional limitations and/or impairment of well-being. | Primordial/No intervention | Identification of risk factors for weight gain and encouraging healthy eating and physical activity. |',
      ),
    );
  });
  test('recommendations with hanging indents stay items', async () => {
    const { markdown } = await ingest(ESI, 'en');
    assert.ok(
      markdown.includes(
        '- 4.1 We recommend the use of body fat measurement, when feasible, in addition to other anthropometric parameters',
      ),
    );
  });
  test('tab-separated bullets are list items, not a table column', async () => {
    const { markdown } = await ingest(ESI, 'en');
    assert.ok(
      markdown.includes('- First, the concept of obesity as a disease remains controversial, including among many health care workers'),
    );
    assert.doesNotMatch(markdown, /^\| • \|/m);
  });
  test('running header and footer are gone', async () => {
    const { markdown } = await ingest(ESI, 'en');
    assert.doesNotMatch(markdown, /Madhu, et al\.: ESI Obesity Guidelines/);
    assert.doesNotMatch(markdown, /Indian Journal of Endocrinology and Metabolism ¦ Volume 26/);
  });
  test('the title comes from the first-page heading when the metadata title is junk', async () => {
    const r = await ingest(ESI, 'en');
    assert.equal(r.title, 'ESI Clinical Practice Guidelines for the Evaluation and Management of Obesity In India');
  });
});

describe('Chinese sections (NHC 2020)', () => {
  test('headings by size: section title and numbered parts', async () => {
    const { markdown } = await ingest(DELIRIUM, 'zh');
    assert.match(markdown, /^# 第一节 谵妄$/m);
    assert.match(markdown, /^## 一、概述$/m);
    assert.match(markdown, /^## 二、病理、病因及发病机制$/m);
  });
  test('CJK text is intact across line breaks, no spaces inserted', async () => {
    const { markdown } = await ingest(DELIRIUM, 'zh');
    assert.ok(
      markdown.includes(
        '谵妄（delirium）是由多种原因导致的急性脑病综合征，为一种意识异常状态，认知功能普遍受损，尤其是注意力和定向力受损，通常伴有知觉、思维、记忆、精神运动、情绪和睡眠-觉醒周期的功能紊乱。',
      ),
    );
    // Spaces between two Han characters appear only where the source sets them (heading "第一节 谵妄").
    const spaced = [...markdown.matchAll(/\p{Script=Han} \p{Script=Han}/gu)].map((m) => m[0]);
    assert.deepEqual(spaced, ['节 谵']);
  });
  test('a numbered item whose continuation returns to the margin stays one item', async () => {
    const { markdown } = await ingest(INSOMNIA, 'zh');
    assert.match(
      markdown,
      /^- （2）米氮平：属于去甲肾上腺素能和特异性 5-羟色胺能抗抑郁药，半衰期 20～30 小时。低剂量米氮平比高剂量米氮平的镇静作用更明显。/m,
    );
  });
  test('title from the metadata', async () => {
    assert.equal((await ingest(INSOMNIA, 'zh')).title, '失眠障碍 — 精神障碍诊疗规范（2020年版）');
  });
});

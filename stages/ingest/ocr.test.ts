// OCR fallback: a "scan" made in the test (a sample page rendered by mupdf and put back into a
// new PDF as its only content) must come out of tesseract with the page's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfToMarkdown } from './pdf-to-markdown.ts';
import { readSample } from './testing/sample-corpus.ts';
import { imageOnly } from './testing/made-pdfs.ts';
import { ocrLanguages, TESSERACT_MISSING, tidyOcrText } from './ocr.ts';

const WHO = 'en/who-2021-hypertension-pharmacological-treatment-retypeset.pdf';

test('an image-only page goes through tesseract', async () => {
  const scan = imageOnly(await readSample(WHO), 2, 150, 0.4);
  const r = await pdfToMarkdown(scan, { name: 'scan.pdf', language: 'en' });
  assert.ok(r.ok, r.ok ? '' : r.error);
  assert.deepEqual(r.pageMethods, ['ocr']);
  assert.deepEqual(r.warnings, []);
  // The top of page 3 of the WHO guideline, as its text layer has it.
  for (const phrase of [
    'pressure to be achieved for control',
    'single-pill combinations',
    'Recommendation 1: Blood pressure threshold',
    'Guideline Development Group',
  ]) {
    assert.ok(r.markdown.includes(phrase), `OCR text contains "${phrase}"`);
  }
});

test('without tesseract the page becomes a warning and the rest continues', async () => {
  const scan = imageOnly(await readSample(WHO), 2, 50, 0.2);
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    const r = await pdfToMarkdown(scan, { name: 'scan.pdf' });
    assert.ok(r.ok);
    assert.deepEqual(r.pageMethods, ['empty']);
    assert.deepEqual(r.warnings.slice(0, 1), [`scan.pdf page 1: ${TESSERACT_MISSING}`]);
  } finally {
    process.env.PATH = path;
  }
});

test('language hint picks the tesseract languages', () => {
  assert.equal(ocrLanguages('en'), 'eng');
  assert.equal(ocrLanguages('zh'), 'chi_sim+eng');
  assert.equal(ocrLanguages(undefined), 'eng+chi_sim');
});

test('spaces tesseract puts between CJK characters are removed, others kept', () => {
  assert.equal(tidyOcrText('谵 妄 是 由 多 种 原 因 \n大于 65 岁 \n\f'), '谵妄是由多种原因\n大于 65 岁\n');
});

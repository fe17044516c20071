// Bad inputs give { ok: false, error } naming the file and the problem; nothing throws, and a bad
// document in a batch does not stop the good ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfToMarkdown } from './pdf-to-markdown.ts';
import { readSample } from './testing/sample-corpus.ts';
import { encrypted, hugeImagePage, noPages } from './testing/made-pdfs.ts';
import { MAX_RENDER_PIXELS, renderTooLarge } from './ocr.ts';

const WHO = 'en/who-2021-hypertension-pharmacological-treatment-retypeset.pdf';

async function error(bytes: Uint8Array, name: string): Promise<string> {
  const r = await pdfToMarkdown(bytes, { name });
  assert.equal(r.ok, false, `${name} should fail`);
  return r.ok ? '' : r.error;
}

test('an empty file', async () => {
  const e = await error(new Uint8Array(0), 'empty.pdf');
  assert.match(e, /^empty\.pdf: empty file \(0 bytes\)/);
});

test('a valid PDF with 0 pages', async () => {
  const e = await error(noPages(), 'blank.pdf');
  assert.equal(e, 'blank.pdf: the PDF has 0 pages; nothing to ingest');
});

test('a text file renamed .pdf', async () => {
  const e = await error(new TextEncoder().encode('Recommendation 1: treat hypertension.\nThis is not a PDF.\n'), 'notes.pdf');
  assert.match(e, /^notes\.pdf: not a PDF \(no %PDF- header; it looks like a text file\)/);
});

test('a truncated PDF (cut at 60 %)', async () => {
  const bytes = await readSample(WHO);
  const e = await error(bytes.subarray(0, Math.floor(bytes.length * 0.6)), 'cut.pdf');
  assert.match(e, /^cut\.pdf: truncated or corrupt PDF/);
});

test('a PDF header followed by garbage', async () => {
  const junk = new Uint8Array(4000);
  for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919) % 251;
  const bytes = new Uint8Array([...new TextEncoder().encode('%PDF-1.7\n'), ...junk]);
  const e = await error(bytes, 'garbage.pdf');
  assert.match(e, /^garbage\.pdf: .*(corrupt|0 pages)/);
});

test('an encrypted PDF that needs a password', async () => {
  const e = await error(encrypted(await readSample(WHO), 'secret'), 'locked.pdf');
  assert.match(e, /^locked\.pdf: encrypted PDF that needs a password/);
});

test('one bad document does not stop the others', async () => {
  const good = await readSample('zh/nhc-2020-delirium.pdf');
  const results = await Promise.all([
    pdfToMarkdown(new Uint8Array(0), { name: 'a.pdf' }),
    pdfToMarkdown(good, { name: 'b.pdf', language: 'zh' }),
  ]);
  assert.deepEqual(
    results.map((r) => r.ok),
    [false, true],
  );
});

test('randomly damaged bytes never throw: each result is Markdown or an error naming the file', async () => {
  const base = await readSample('zh/nhc-2020-delirium.pdf');
  let seed = 20260;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let t = 0; t < 8; t++) {
    const bytes = Uint8Array.from(base);
    for (let i = 0; i < 40; i++) bytes[Math.floor(rnd() * bytes.length)] = Math.floor(rnd() * 256);
    const r = await pdfToMarkdown(bytes, { name: `damaged-${t}.pdf` });
    if (r.ok) assert.equal(typeof r.markdown, 'string');
    else assert.match(r.error, new RegExp(`^damaged-${t}\\.pdf: `));
  }
});

test('a poster-sized image page is reported with its real reason (too large to render), not as a corrupt PDF', async () => {
  const r = await pdfToMarkdown(hugeImagePage(200), { name: 'poster.pdf' });
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.pageMethods, ['empty']);
  assert.equal(
    r.warnings[0],
    "poster.pdf page 1: the page is 200 × 200 inches: rendering it for OCR at 300 dpi needs 3600 megapixels, over the 268 MP budget; lower the guidelines stage's ocrDpi or split the page",
  );
  assert.ok(!r.warnings.some((w) => /corrupt/.test(w)));
  // The budget is 2^28 pixels: a 16k × 16k render passes, one pixel more in each direction does not.
  const side = (Math.sqrt(MAX_RENDER_PIXELS) / 300) * 72;
  assert.equal(renderTooLarge([0, 0, side, side], 300), null);
  assert.match(renderTooLarge([0, 0, side * 1.01, side * 1.01], 300) ?? '', /over the 268 MP budget/);
});

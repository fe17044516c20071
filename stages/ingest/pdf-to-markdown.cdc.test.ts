// The CDC opioid guideline (MMWR two-column layout). The full 100 pages take several seconds, so
// the test ingests a 9-page excerpt (pages 3-10 and 33) made with mupdf, once for the whole file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pdfToMarkdown } from './pdf-to-markdown.ts';
import { readSample } from './testing/sample-corpus.ts';
import { excerpt } from './testing/made-pdfs.ts';

const result = readSample('en/cdc-2022-opioid-prescribing.pdf').then(async (bytes) => {
  const r = await pdfToMarkdown(excerpt(bytes, [2, 3, 4, 5, 6, 7, 8, 9, 32]), { name: 'cdc-excerpt.pdf', language: 'en' });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r;
});

test('headings by size', async () => {
  const { markdown } = await result;
  assert.match(markdown, /^# CDC Clinical Practice Guideline for Prescribing Opioids for Pain —United States, 2022$/m);
  assert.match(markdown, /^## Introduction$/m);
  assert.match(markdown, /^### Background$/m);
  assert.match(markdown, /^### Scope and Audience$/m);
});

test('two columns: the left column reads whole, then continues into the right column', async () => {
  const { markdown } = await result;
  const left =
    'Pain is one of the most common reasons adults seek medical care in the United States (1). Acute pain, a nearly universal experience, is a physiologic response to noxious stimuli that can become pathologic.';
  // The sentence runs from the foot of the left column, past a footnote, to the top of the right one.
  const across =
    'Approximately one in five U.S. adults had chronic pain in 2019 and approximately one in 14 adults experienced “high-impact” chronic pain, defined as having pain on most days';
  const right = 'In 2011, the economic costs of chronic pain were estimated to range from $560 to $635 billion';
  const [i, j, k] = [left, across, right].map((s) => markdown.indexOf(s));
  assert.ok(i >= 0 && j >= 0 && k >= 0, `found ${i} ${j} ${k}`);
  assert.ok(i < j && j < k);
});

test('running header and footer are gone', async () => {
  const { markdown } = await result;
  assert.doesNotMatch(markdown, /US Department of Health and Human Services\/Centers for Disease Control and Prevention/);
  assert.doesNotMatch(markdown, /MMWR \/ November 4, 2022 \/ Vol\. 71 \/ No\. 3/);
});

test('numbered and nested bullet lists', async () => {
  const { markdown } = await result;
  assert.ok(
    markdown.includes('1. Determining whether or not to initiate opioids for pain\n2. Selecting opioids and determining opioid dosages\n'),
  );
  assert.ok(
    markdown.includes(
      '- intended for primary care clinicians and other clinicians providing pain care for outpatients aged ≥18 years with\n  - acute pain (duration of <1 month),\n  - subacute pain (duration of 1–3 months), or\n',
    ),
  );
});

test('the MME conversion table (page 33) is a Markdown table, one opioid per row', async () => {
  const { markdown } = await result;
  assert.ok(markdown.includes('| Codeine | 0.15 |\n| Fentanyl transdermal (in mcg/hr) | 2.4 |\n| Hydrocodone | 1.0 |'));
  assert.ok(markdown.includes('| Tramadol§ | 0.2 |'));
});

// Real sample PDFs, checked against fragments read off the PDFs by eye (and pdftotext -layout).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { pdfToMarkdown } from './pdf-to-markdown.ts';
import { readSample } from './testing/sample-corpus.ts';
import type { IngestResult } from './types.ts';

const cache = new Map<string, Promise<Extract<IngestResult, { ok: true }>>>();
function ingest(rel: string) {
  let p = cache.get(rel);
  if (!p) {
    p = readSample(rel).then(async (bytes) => {
      const r = await pdfToMarkdown(bytes, { name: rel, language: 'en' });
      assert.ok(r.ok, r.ok ? '' : r.error);
      return r;
    });
    cache.set(rel, p);
  }
  return p;
}
const WHO = 'en/who-2021-hypertension-pharmacological-treatment-retypeset.pdf';
const CASP = 'en/casp-2021-chronic-postsurgical-pain-consensus.pdf';

describe('WHO hypertension guideline (single column, 13 pages)', () => {
  test('pages, methods and title', async () => {
    const r = await ingest(WHO);
    assert.equal(r.pages, 13);
    assert.deepEqual(r.pageMethods, new Array(13).fill('text'));
    assert.equal(r.title, 'Guideline for the pharmacological treatment of hypertension in adults');
    assert.deepEqual(r.warnings, []);
  });
  test('the two-line bold recommendation title is one heading', async () => {
    const { markdown } = await ingest(WHO);
    assert.match(markdown, /^## Recommendation 1: Blood pressure threshold for initiation of pharmacological treatment$/m);
    assert.match(markdown, /^## Executive summary$/m);
    assert.match(markdown, /^# Guideline for the pharmacological treatment of hypertension in adults$/m);
  });
  test('the running footer "… · CC BY-NC-SA 3.0 IGO   Page n" is gone', async () => {
    const { markdown } = await ingest(WHO);
    assert.doesNotMatch(markdown, /Adults \(2021\) · CC BY-NC-SA/);
    assert.doesNotMatch(markdown, /Page \d+/);
  });
  test('a sentence broken by a page break is rejoined', async () => {
    const { markdown } = await ingest(WHO);
    // Recommendation 4 appears twice, in the summary (across the page 2/3 break) and in section 3.4.
    const sentence =
      '(2) angiotensin-converting enzyme inhibitors (ACEis)/angiotensin-receptor blockers (ARBs); (3) long-acting dihydropyridine calcium channel blockers (CCBs).';
    assert.equal(markdown.split(sentence).length - 1, 2);
    assert.ok(markdown.includes('recommendations on intervals for follow up, target blood pressure to be achieved for control'));
  });
});

describe('CASP chronic postsurgical pain consensus (journal layout, 11 pages)', () => {
  test('section headings', async () => {
    const { markdown } = await ingest(CASP);
    assert.match(markdown, /^### INTRODUCTION$/m);
    assert.match(markdown, /^### RISK FACTORS$/m);
    assert.match(markdown, /^## Chinese Association for the Study of Pain: Expert consensus on chronic postsurgical pain$/m);
  });
  test('Table 1 (risk factors) is a Markdown table with wrapped cells joined', async () => {
    const { markdown } = await ingest(CASP);
    assert.ok(
      markdown.includes(
        '| Preoperative factors | Preoperative chronic pain; psychological factors (depression, anxiety, pain catastrophizing and fear of surgery); smoking; younger age; female gender; genetic susceptibility |',
      ),
    );
    assert.ok(markdown.includes('| Third-line therapy | Strong opioids; botulinum toxin type A |'));
  });
  test('running header and footer are gone', async () => {
    const { markdown } = await ingest(CASP);
    assert.doesNotMatch(markdown, /Liu YM et al\. Expert consensus on CPSP/);
    assert.doesNotMatch(markdown, /WJCC/);
    assert.doesNotMatch(markdown, /Volume 9\s+Issue 9/);
  });
  test('hyphenated line breaks: joined words and kept compounds', async () => {
    const { markdown } = await ingest(CASP);
    assert.ok(markdown.includes('a nerve block in the corresponding innervation area'), 'cor-/responding');
    assert.ok(markdown.includes('a continuous pathophysiological process'), 'patho-/physiological');
    assert.ok(markdown.includes('voltage-dependent sodium channels'), 'voltage-/dependent keeps its hyphen');
    assert.ok(markdown.includes('more than 3 mo post-surgery, not including'), 'post-/surgery keeps its hyphen');
    assert.ok(!markdown.includes('cor- responding') && !markdown.includes('patho- physiological'));
  });
  test('the abstract paragraph reads whole', async () => {
    const { markdown } = await ingest(CASP);
    assert.ok(
      markdown.includes(
        'Chronic postsurgical pain is a common surgical complication that severely reduces a patient’s quality of life. Many perioperative interventions',
      ),
    );
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTemplate, renderTemplate, DEFAULT_TEMPLATES_ROOT } from './templates.ts';
import { ALL_PROMPTS, PROMPTS, promptSpec } from './prompt-registry.ts';
import { CPGBENCH_PROMPTS, CPG_PROMPT_IDS } from './cpgbench-prompts.ts';

test("CPGBench's prompts are registered as written for this project, numbered as in its paper (no Prompt 11)", () => {
  assert.deepEqual(
    CPGBENCH_PROMPTS.map((p) => p.number),
    [1, 2, 3, 4, 5, 6, 7, 10, 12, 13, 14],
  );
  assert.deepEqual(
    CPGBENCH_PROMPTS.map((p) => p.id),
    [...CPG_PROMPT_IDS],
  );
  for (const p of CPGBENCH_PROMPTS) {
    assert.equal(p.provenance, 'written-for-this-project', p.id);
    assert.equal(p.benchmark, 'cpgbench', p.id);
    assert.equal(p.table, undefined, `${p.id}: the paper prints no table of it`);
  }
  for (const p of PROMPTS) assert.equal(p.provenance, 'paper');
  assert.equal(ALL_PROMPTS.length, PROMPTS.length + CPGBENCH_PROMPTS.length);
  assert.equal(new Set(ALL_PROMPTS.map((p) => p.file)).size, ALL_PROMPTS.length, 'no two prompts share a file');
  assert.deepEqual(promptSpec('cpg-conversation-generation').numberByLanguage, { en: 7, de: 8, zh: 9 });
});

test('each CPGBench template loads, says in its header it was written for this project, and renders exactly its placeholders', () => {
  for (const p of CPGBENCH_PROMPTS) {
    const t = loadTemplate(p.id, 'en');
    assert.equal(t.provenance, 'written-for-this-project');
    const file = readFileSync(join(DEFAULT_TEMPLATES_ROOT, 'en', p.file), 'utf8');
    assert.match(file, new RegExp(`^<!--\\nCPGBench Prompt ${p.number}: `), p.id);
    assert.match(file.slice(0, file.indexOf('-->')), /written for this project/);
    const found = new Set([...t.text.matchAll(/\{([A-Z][A-Za-z_]*)\}/g)].map((m) => m[1]));
    assert.deepEqual([...found].sort(), [...p.placeholders].sort(), p.id);
    const vars = Object.fromEntries(p.placeholders.map((n) => [n, `<<${n}>>`]));
    const out = renderTemplate(t, vars);
    for (const n of p.placeholders) assert.ok(out.includes(`<<${n}>>`) && !out.includes(`{${n}}`), `${p.id}: {${n}}`);
    assert.ok(!out.includes('<!--'), 'the header is not sent');
  }
});

test('the conversation prompt exists in English, German and Chinese as Prompts 7, 8 and 9; the others fall back to English', () => {
  const want = { en: [7, 'Write in English.'], de: [8, 'Schreiben Sie auf Deutsch.'], zh: [9, '用中文书写。'] } as const;
  for (const [lang, [number, phrase]] of Object.entries(want)) {
    const t = loadTemplate('cpg-conversation-generation', lang);
    assert.equal(t.language, lang);
    assert.equal(t.number, number);
    assert.equal(t.identity, `${lang}/cpgbench-conversation-generation.md`);
    assert.ok(t.text.includes(phrase), `${lang} is written in its language`);
    // The marker and the two roles are the same in every language: the format checks do not depend on it.
    for (const s of ['<recommendation 1>', '{"role": "user", "content": "..."}', '{"role": "assistant", "content": "..."}'])
      assert.ok(t.text.includes(s), `${lang}: ${s}`);
  }
  assert.equal(loadTemplate('cpg-conversation-generation', 'fr').identity, 'en/cpgbench-conversation-generation.md');
  for (const lang of ['de', 'zh']) {
    assert.equal(loadTemplate('cpg-detection', lang).identity, 'en/cpgbench-detection.md');
    assert.equal(loadTemplate('cpg-judge-adherence', lang).language, 'en');
  }
});

test('the three judge prompts ask for the same dictionary: score, rationale, supporting_text, confidence', () => {
  for (const id of ['cpg-judge-content-detection', 'cpg-judge-title-grounding', 'cpg-judge-adherence'] as const) {
    const t = loadTemplate(id, 'en');
    assert.ok(
      t.text.includes(
        '{"score": 0 or 1, "rationale": "<why, in one or two sentences>", "supporting_text": "<the words of the ' +
          (id === 'cpg-judge-adherence' ? 'reply' : 'response') +
          ' that support the score, quoted exactly; empty if none>", "confidence": <a number from 0 to 1>}',
      ),
      id,
    );
  }
});

// The construction stages with a scripted builder and writer: which prompts are asked when the
// corpus leaves a value out, the year filter on an extracted date, re-asks, the regeneration
// limit of the conversation writer and its failure row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatRequest, ChatResult, ContentPart } from '../../../pipeline/llm/types.ts';
import type { Row, RowStage } from '../../../pipeline/stage.ts';
import { fakeCtx, withDefaults } from '../../evaluate/testing/stage-harness.ts';
import documents from './cpg-documents.stage.ts';
import recommendations from './cpg-recommendations.stage.ts';
import safety from './cpg-safety.stage.ts';
import conversations from './cpg-conversations.stage.ts';
import { modelRef } from '../../models/model-identity.ts';

/** A model as the wiring hands it to the stages (its roster value). */
const ref = (name: string) => modelRef({ name, roles: ['builder'], provider: 'openai-compatible' });

const textOf = (req: ChatRequest) =>
  req.messages
    .map((m) =>
      typeof m.content === 'string' ? m.content : (m.content as ContentPart[]).map((p) => (p.type === 'text' ? p.text : '')).join(''),
    )
    .join('\n---\n');

/** A builder answering each prompt from a script; keeps the requests and the rejected answers. */
function scripted(answer: (prompt: string, req: ChatRequest) => string) {
  const requests: ChatRequest[] = [];
  const rejected: string[] = [];
  return {
    requests,
    rejected,
    blob: (text: string): ContentPart => ({ type: 'text', text }),
    async chat(req: ChatRequest): Promise<ChatResult> {
      requests.push(req);
      return { ok: true, text: answer(textOf(req), req), cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    },
    async reject(r: ChatResult, reason: string) {
      rejected.push(`${r.ok ? r.text.slice(0, 20) : ''}: ${reason}`);
    },
  };
}

async function runOne<P>(stage: RowStage<P>, row: Row, joined: Record<string, Row[]>, params: Partial<P>, llm: unknown, root?: string) {
  const out = await stage.run({ row, joined, whole: {} }, fakeCtx(withDefaults(stage, params), llm, [], root));
  return Array.isArray(out) ? out : [out];
}

const GUIDELINE = {
  guideline_id: 'g',
  language: 'en',
  title: 'First heading',
  markdown: '# First heading\n\nRecommendation 1: Give oxygen to adults with hypoxia.\n',
};
const CORPUS_ROW = { guideline_id: 'g', title: null, year: null, region: null, specialty: null, institute: null, bona_fide: null };

test('cpg_documents asks the builder for what guidelines.csv leaves out, reads variants, and applies the year filter to the extracted date', async () => {
  const llm = scripted((p) => {
    if (p.includes('Decide whether it is a bona fide clinical practice guideline'))
      return '```json\n{"bona_fide_cpg": "true", "document_type": "clinical practice guideline", "reason": "graded"}\n```';
    if (p.includes("Extract the document's bibliographic information"))
      return '{"title": "Hypoxia", "institute": "Society", "publication_date": "2013-05"}';
    if (p.includes('Determine the country')) return '{"country": "united kingdom", "evidence": "NHS"}';
    if (p.includes('Assign the document to the one medical specialty')) return '{"specialty": "Emergency Medicine", "reason": "ED"}';
    throw new Error(`unexpected prompt ${p.slice(0, 60)}`);
  });
  const [row] = await runOne(documents, GUIDELINE, { cpg_corpus: [CORPUS_ROW] }, { builder: ref('b') }, llm);
  assert.equal(llm.requests.length, 4);
  assert.ok(llm.requests.every((r) => r.model === 'b' && r.role === 'builder'));
  assert.deepEqual(
    [row!.bona_fide, row!.bona_fide_source, row!.year, row!.year_source, row!.region, row!.specialty, row!.title, row!.institute],
    [true, 'b', 2013, 'b', 'United Kingdom', 'Emergency Medicine', 'Hypoxia', 'Society'],
  );
  assert.deepEqual([row!.included, row!.excluded_reason], [false, 'published in 2013, before 2015']);
  assert.deepEqual(row!.templates, [
    'en/cpgbench-document-filter.md',
    'en/cpgbench-document-information.md',
    'en/cpgbench-country.md',
    'en/cpgbench-specialty.md',
  ]);
  assert.equal(row!.error, undefined);

  // With the CSV's values nothing is asked; a non-CPG is excluded before any other question.
  const quiet = scripted(() => {
    throw new Error('nothing should be asked');
  });
  const [given] = await runOne(documents, GUIDELINE, { cpg_corpus: [{ ...CORPUS_ROW, bona_fide: false }] }, { builder: ref('b') }, quiet);
  assert.deepEqual(
    [given!.included, given!.excluded_reason, quiet.requests.length],
    [false, 'not a bona fide clinical practice guideline (corpus)', 0],
  );
});

test('cpg_documents: a builder that never answers in the format is a failure row naming the prompt; the 128K cut is recorded', async () => {
  const llm = scripted(() => 'I think it is a guideline.');
  const [row] = await runOne(documents, GUIDELINE, { cpg_corpus: [CORPUS_ROW] }, { builder: ref('b'), maxAttempts: 2 }, llm);
  assert.equal(llm.requests.length, 2, 'asked, then re-asked once');
  assert.match(
    String(row!.error),
    /^b, en\/cpgbench-document-filter\.md: no valid answer after 2 attempts \(the answer contains no parseable JSON/,
  );
  const long = { ...GUIDELINE, markdown: 'word' + ' word'.repeat(299) };
  const [cut] = await runOne(
    documents,
    long,
    { cpg_corpus: [{ ...CORPUS_ROW, bona_fide: true, year: 2020, title: 't', institute: 'i', region: 'WHO', specialty: 'Surgery' }] },
    { builder: null, maxTokens: 100 },
    undefined,
  );
  // 'word' and each ' word' are one token: 300 in all, 100 kept, the first 4 + 99 × 5 characters.
  assert.deepEqual(
    [cut!.cut, cut!.tokens, cut!.kept_tokens, cut!.kept_chars, cut!.max_tokens, cut!.included],
    [true, 300, 100, 4 + 99 * 5, 100, true],
  );
  const [whole] = await runOne(
    documents,
    long,
    { cpg_corpus: [{ ...CORPUS_ROW, bona_fide: true, year: 2020, title: 't', institute: 'i', region: 'WHO', specialty: 'Surgery' }] },
    { builder: null, maxTokens: 300 },
    undefined,
  );
  assert.deepEqual([whole!.cut, whole!.tokens, whole!.kept_tokens, whole!.kept_chars, whole!.max_tokens], [false, 300, 300, 1499, 300]);
});

test('cpg_recommendations: the document Prompt 4 reads is cut at maxTokens, and each extracted row records that cut', async () => {
  const llm = scripted(
    () =>
      '{"recommendations": [{"recommendation": "Give oxygen to adults with hypoxia.", "strength": "strong", "evidence_level": "B", "context": "Hypoxic adults", "action": "Give oxygen.", "goal": "Correct hypoxia."}]}',
  );
  const markdown = 'Recommendation 1: Give oxygen to adults with hypoxia.\n' + ' word'.repeat(400);
  const doc = {
    guideline_id: 'g',
    language: 'en',
    included: true,
    title: 'T',
    institute: 'I',
    year: 2020,
    region: 'WHO',
    specialty: 'Surgery',
  };
  const joined = { guidelines: [{ ...GUIDELINE, markdown }], cpg_corpus_recommendations: [] };
  const [cut] = await runOne(recommendations, doc, joined, { builder: ref('b'), maxTokens: 50 }, llm);
  const sent = textOf(llm.requests[0]!);
  assert.ok(sent.includes('Give oxygen to adults'), 'the kept beginning is sent');
  assert.ok((sent.match(/ word/g) ?? []).length < 50, 'the tail beyond 50 tokens is not');
  assert.deepEqual([cut!.verbatim, cut!.max_tokens, cut!.document_cut], [true, 50, true]);
  const [uncut] = await runOne(recommendations, doc, joined, { builder: ref('b') }, llm);
  assert.ok((textOf(llm.requests[1]!).match(/ word/g) ?? []).length >= 400, 'under the default 128K the whole document is sent');
  assert.deepEqual([uncut!.max_tokens, uncut!.document_cut], [128000, false]);
});

test('cpg_recommendations: an unreadable answer is re-asked with its problem; a shipped file that fails the same check names the file', async () => {
  const answers = [
    '{"recommendations": [{"recommendation": "Give oxygen to adults with hypoxia."}]}',
    '{"recommendations": [{"recommendation": "Give oxygen to adults with hypoxia.", "strength": "strong", "evidence_level": "B", "context": "Hypoxic adults", "action": "Give oxygen.", "goal": "Correct hypoxia."}]}',
  ];
  const llm = scripted(() => answers.shift()!);
  const doc = {
    guideline_id: 'g',
    language: 'en',
    included: true,
    title: 'T',
    institute: 'I',
    year: 2020,
    region: 'WHO',
    specialty: 'Surgery',
  };
  const rows = await runOne(recommendations, doc, { guidelines: [GUIDELINE], cpg_corpus_recommendations: [] }, { builder: ref('b') }, llm);
  assert.equal(llm.requests.length, 2);
  assert.match(textOf(llm.requests[1]!), /recommendation 1 has no "action"/, 'the re-ask states the problem');
  assert.deepEqual(
    rows.map((r) => [r.recommendation_id, r.n, r.source, r.verbatim, r.region]),
    [['g#1', 1, 'b', true, 'WHO']],
  );

  const root = mkdtempSync(join(tmpdir(), 'cdp-cpg-recs-'));
  mkdirSync(join(root, 'recommendations'));
  writeFileSync(
    join(root, 'recommendations', 'g.json'),
    JSON.stringify({ recommendations: [{ recommendation: 'x', action: 'y', safety_critical: 'yes' }], title: 'T' }),
  );
  const [bad] = await runOne(
    recommendations,
    doc,
    { guidelines: [GUIDELINE], cpg_corpus_recommendations: [{ guideline_id: 'g', path: 'recommendations/g.json', error: null }] },
    { builder: null },
    undefined,
    root,
  );
  const rootOk = mkdtempSync(join(tmpdir(), 'cdp-cpg-recs-'));
  mkdirSync(join(rootOk, 'recommendations'));
  writeFileSync(
    join(rootOk, 'recommendations', 'g.json'),
    JSON.stringify({
      recommendations: [
        { recommendation: 'Give oxygen to adults with hypoxia.', strength: 's', evidence_level: 'B', context: 'c', action: 'a', goal: 'g' },
      ],
    }),
  );
  const [shipped] = await runOne(
    recommendations,
    doc,
    { guidelines: [GUIDELINE], cpg_corpus_recommendations: [{ guideline_id: 'g', path: 'recommendations/g.json', error: null }] },
    { builder: null, maxTokens: 5 },
    undefined,
    rootOk,
  );
  assert.deepEqual(
    [shipped!.source, shipped!.max_tokens, shipped!.document_cut],
    ['imported', null, null],
    'a shipped file is checked against the whole document: no cut to record',
  );
  assert.equal(
    bad!.error,
    'recommendations/g.json: unknown key(s) title; the file holds {"recommendations": [{"recommendation", "strength", "evidence_level", "context", "action", "goal"}, …]}',
  );
  assert.deepEqual(
    await runOne(
      recommendations,
      { ...doc, included: false },
      { guidelines: [GUIDELINE], cpg_corpus_recommendations: [] },
      { builder: ref('b') },
      llm,
    ),
    [],
    'an excluded document has no recommendations',
  );
});

const REC = {
  recommendation_id: 'g#1',
  guideline_id: 'g',
  n: 1,
  language: 'de',
  recommendation: 'Sauerstoff geben.',
  action: 'Sauerstoff geben.',
  context: 'Hypoxie',
  goal: 'Sättigung',
  title: 'T',
  region: 'Germany',
};

test('cpg_safety: a shipped flag is imported, otherwise Prompt 3 with the paper’s criterion, otherwise left unselected', async () => {
  assert.deepEqual((await runOne(safety, { ...REC, shipped_safety_critical: true }, {}, { builder: ref('b') }, undefined))[0], {
    recommendation_id: 'g#1',
    guideline_id: 'g',
    safety_critical: true,
    source: 'imported',
  });
  const llm = scripted((p) => {
    assert.ok(
      p.includes(
        'A recommendation is safety-critical when its omission, delay, or incorrect execution could reasonably lead to severe patient harm, permanent disability, or death within hours to days.',
      ),
    );
    return '{"safety_critical": "yes", "reason": "hypoxia kills"}';
  });
  const [asked] = await runOne(safety, { ...REC, shipped_safety_critical: null }, {}, { builder: ref('b') }, llm);
  assert.deepEqual([asked!.safety_critical, asked!.source, asked!.template], [true, 'b', 'en/cpgbench-safety-critical.md']);
  const [none] = await runOne(safety, { ...REC, shipped_safety_critical: null }, {}, { builder: null }, undefined);
  assert.deepEqual([none!.safety_critical, none!.source], [null, null]);
});

const GOOD = JSON.stringify([
  { role: 'user', content: 'Ich bekomme schlecht Luft.' },
  { role: 'assistant', content: 'Wir geben Ihnen Sauerstoff. <recommendation 1>' },
]);

test('cpg_conversations regenerates a failing conversation as fresh calls (repeat 0, 1, 2) in the German prompt, and keeps the rejected reasons', async () => {
  const answers = [
    JSON.stringify([
      { role: 'user', content: 'Hallo' },
      { role: 'assistant', content: 'Hallo' },
    ]),
    JSON.stringify([
      { role: 'user', content: 'Ich will Sauerstoff. <recommendation 1>' },
      { role: 'assistant', content: 'Gut.' },
    ]),
    GOOD,
  ];
  const llm = scripted(() => answers.shift()!);
  const [row] = await runOne(conversations, REC, {}, { writer: ref('w') }, llm);
  assert.deepEqual(
    llm.requests.map((r) => [r.model, r.repeat, r.role]),
    [
      ['w', 0, 'builder'],
      ['w', 1, 'builder'],
      ['w', 2, 'builder'],
    ],
  );
  assert.ok(textOf(llm.requests[0]!).startsWith('Schreiben Sie ein realistisches Gespräch'), 'Prompt 8, in German');
  assert.equal(textOf(llm.requests[0]!), textOf(llm.requests[2]!), 'regenerated with the same prompt, not a correction');
  assert.deepEqual(
    [row!.attempts, row!.marked_turn, row!.turns, row!.template, row!.error],
    [3, 1, 2, 'de/cpgbench-conversation-generation.md', undefined],
  );
  assert.deepEqual(row!.rejected, [
    'attempt 1: marker: no message carries the <recommendation …> marker',
    "attempt 2: marked-turn: the first marked message (message 1) is the patient's (role user), not the clinician's",
  ]);
  assert.equal(llm.rejected.length, 0, 'a conversation that passed keeps its earlier attempts cached, so a rerun replays them');
});

test('cpg_conversations: a conversation that never passes within maxAttempts is a failure row with each reason, its answers withdrawn', async () => {
  const llm = scripted(() => 'Here is a conversation between a doctor and a patient.');
  const [row] = await runOne(conversations, REC, {}, { writer: ref('w'), maxAttempts: 2 }, llm);
  assert.equal(llm.requests.length, 2);
  assert.match(
    String(row!.error),
    /^no conversation passed the format checks in 2 attempts \(attempt 1: format: the answer contains no parseable JSON object or array; attempt 2: format: /,
  );
  assert.equal(llm.rejected.length, 2, 'withdrawn, so --retry-failed writes fresh ones');
  // The failure row too records the limit it ran under and that its writer is no stand-in.
  assert.deepEqual([row!.max_attempts, row!.writer_simulated], [2, false]);
});

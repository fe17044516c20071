// The whole CPGBench DAG against a local OpenAI-compatible server, with a builder, two
// evaluated models and a judge from a models file: every request reaches the model of its
// role, the adherence task sends the truncated conversation and nothing else, a rerun sends
// nothing, and a model added later sends only its own requests; the export's cards name them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { simulatedBuilder } from '../agents/cpgbench/simulated-builder.ts';
import { cpgPromptKind } from '../agents/cpgbench/prompt-kind.ts';
import { computed, cpgProject, REPO } from './testing/cpgbench-project.ts';
import { PAPER_SAFETY_CRITERION } from './construct/cpg-safety.stage.ts';
import { cpgExportCommand } from './export/cpg-export-command.ts';
import type { ChatRequest } from '../../pipeline/llm/types.ts';
import type { Row } from '../../pipeline/dag/define.ts';

/** Which prompt a request is: a CPGBench template, or 'adherence' (no prompt at all: the conversation itself). */
const kindOf = (b: ChatBody): string => cpgPromptKind(b.messages[0]!.content) ?? 'adherence';

/** A writer over HTTP: the recommended action of the prompt, applied in the clinician's second turn. */
function writer(prompt: string): string {
  const action = /(?:Recommended action|Empfohlene Maßnahme|推荐措施)[:：]\s*(.+)/.exec(prompt)![1]!.trim();
  return JSON.stringify([
    { role: 'user', content: 'Doctor, I am worried about my health.' },
    { role: 'assistant', content: 'I understand. Tell me more.' },
    { role: 'user', content: 'What should I do?' },
    { role: 'assistant', content: `${action} <recommendation 1>` },
  ]);
}

// Each model id's answers: the builder answers construction prompts, the evaluated models sign
// their answers, and the judge scores model-a's answers 1 and model-b's 0.
// A sampled answer differs from sample to sample (the seed stands for that).
const signed = (b: ChatBody) => `[answered by ${b.model}] (sample ${String(b.seed)})`;

function answer(b: ChatBody): string {
  const kind = kindOf(b);
  const prompt = b.messages[0]!.content;
  if (b.model === 'org/builder') {
    if (kind === 'cpg-conversation-generation') return writer(prompt);
    return simulatedBuilder({ model: b.model, messages: b.messages } as ChatRequest) as string;
  }
  if (b.model === 'org/judge') {
    const score = prompt.includes('[answered by org/model-a]') || prompt.includes('[answered by org/model-c]') ? 1 : 0;
    return `<think>Comparing.</think>\n{"score": ${score}, "rationale": "as scripted", "supporting_text": "", "confidence": 0.9}`;
  }
  return kind === 'cpg-detection' ? `Contains guideline recommendations: yes ${signed(b)}` : `I would advise this. ${signed(b)}`;
}

const ROLE_OF: Record<string, string[]> = {
  'org/builder': [
    'cpg-country',
    'cpg-document-filter',
    'cpg-safety-critical',
    'cpg-recommendation-extraction',
    'cpg-document-information',
    'cpg-specialty',
    'cpg-conversation-generation',
  ],
  'org/model-a': ['cpg-detection', 'adherence'],
  'org/model-b': ['cpg-detection', 'adherence'],
  'org/model-c': ['cpg-detection', 'adherence'],
  'org/judge': ['cpg-judge-content-detection', 'cpg-judge-title-grounding', 'cpg-judge-adherence'],
};

test('CPGBench against a local server: builder, two evaluated models and a judge from a models file', async () => {
  const server = await startFakeOpenAIServer({ answer });
  const p = cpgProject();
  try {
    // The builder extracts every recommendation and the safety flags; it also decides what the CSV leaves out.
    rmSync(join(p.corpus, 'recommendations'), { recursive: true });
    const csv = readFileSync(join(p.corpus, 'guidelines.csv'), 'utf8')
      .replace('2020,Germany,Internal Medicine,Beispielgesellschaft für Innere Medizin,yes', ',,,,')
      .replace('WHO,Preventive Medicine', ',');
    writeFileSync(join(p.corpus, 'guidelines.csv'), csv);
    const modelsFile = join(p.dir, 'models.json');
    const model = (name: string, roles: string[]) => ({ name, baseURL: server.url, model: `org/${name}`, roles, contextWindow: 1_000_000 });
    const declare = (names: string[]) =>
      writeFileSync(
        modelsFile,
        JSON.stringify({
          models: [model('builder', ['builder']), ...names.map((n) => model(n, ['evaluated'])), model('judge', ['judge'])],
        }),
      );
    declare(['model-a', 'model-b']);
    const env = { models: modelsFile };

    const first = await p.runWith(env);
    assert.equal(first.ok, true, JSON.stringify(first.stages.filter((s) => s.error)));
    const items = p.rows('cpg_task_inputs').filter((r) => r.error == null);
    assert.ok(items.length >= 8, `${items.length} items built over HTTP`);
    for (const b of server.requests) assert.ok(ROLE_OF[b.model]?.includes(kindOf(b)), `${b.model} was sent a ${kindOf(b)} request`);
    const count = (m: string, kind?: string) => server.requests.filter((b) => b.model === m && (!kind || kindOf(b) === kind)).length;
    assert.equal(count('org/builder', 'cpg-document-filter'), 1, 'only the German document leaves bona_fide empty');
    assert.equal(count('org/builder', 'cpg-document-information'), 1);
    assert.equal(count('org/builder', 'cpg-country'), 2, 'the German and the WHO documents leave the region empty');
    assert.equal(count('org/builder', 'cpg-recommendation-extraction'), 5, 'one per included document');
    assert.equal(count('org/builder', 'cpg-safety-critical'), p.rows('cpg_recommendations').length);
    assert.equal(count('org/builder', 'cpg-conversation-generation'), items.length);
    for (const m of ['org/model-a', 'org/model-b']) {
      assert.equal(count(m, 'cpg-detection'), items.length);
      assert.equal(count(m, 'adherence'), items.length);
    }
    assert.equal(count('org/judge'), 3 * 2 * items.length, 'three judgements per item and model');

    // The adherence task: the conversation cut before the marked turn, no system message, no instruction.
    const adherence = server.requests.filter((b) => b.model === 'org/model-a' && kindOf(b) === 'adherence');
    for (const b of adherence) {
      assert.deepEqual(
        b.messages.map((m) => [m.role, m.content]),
        [
          ['user', 'Doctor, I am worried about my health.'],
          ['assistant', 'I understand. Tell me more.'],
          ['user', 'What should I do?'],
        ],
      );
    }
    const seeds = new Set(adherence.map((b) => b.seed));
    assert.equal(seeds.size, items.length, 'identical prompts, one independent sample (seed) per recommendation');

    const rate = (model: string, task: string) =>
      p.rows('cpg_rates').find((r: Row) => r.model === model && r.task === task && r.grouping === 'overall')!;
    assert.deepEqual(
      [rate('model-a', 'adherence').rate, rate('model-b', 'adherence').rate, rate('model-a', 'adherence').judge],
      [1, 0, 'judge'],
    );
    assert.equal(rate('model-a', 'title_grounding').n, items.length);
    assert.ok(p.rows('cpg_adherence_judgements').every((j) => j.answer_format === 'think-block'));
    assert.equal(
      p.rows('cpg_rates').some((r) => String(r.model).includes('simulated')),
      false,
      'no stand-in runs beside real models unless asked',
    );

    const sent = server.counters.chat;
    const again = await p.runWith(env);
    assert.equal(again.ok, true);
    assert.equal(server.counters.chat, sent, 'a rerun sends nothing');

    declare(['model-a', 'model-b', 'model-c']);
    const added = await p.runWith(env);
    assert.equal(added.ok, true, JSON.stringify(added.stages.filter((s) => s.error)));
    const fresh = server.requests.slice(sent);
    assert.deepEqual([...new Set(fresh.map((b) => b.model))].sort(), ['org/judge', 'org/model-c']);
    assert.equal(fresh.filter((b) => b.model === 'org/model-c').length, 2 * items.length);
    assert.equal(fresh.filter((b) => b.model === 'org/judge').length, 3 * items.length, "only model-c's answers are judged");
    const c = computed(added);
    assert.deepEqual(
      [c.cpg_detection, c.cpg_adherence, c.cpg_conversations],
      [
        ['ran', items.length],
        ['ran', items.length],
        ['reused', 0],
      ],
    );
    assert.equal(rate('model-c', 'adherence').rate, 1);

    // The export says who built and who answered: the builder and writer, the real models and judge, no stand-in.
    const target = { root: REPO, warehouse: join(p.dir, 'warehouse.duckdb'), store: join(p.dir, 'store') };
    await cpgExportCommand('benchmark', join(p.dir, 'benchmark'), target);
    const card = readFileSync(join(p.dir, 'benchmark', 'README.md'), 'utf8');
    const recs = p.rows('cpg_recommendations').length;
    assert.match(card, /^- builder: `builder`$/m);
    assert.match(card, new RegExp(`^- recommendations: 0 of ${recs} shipped with the corpus .*; extracted by \`builder\` ${recs}$`, 'm'));
    assert.match(card, new RegExp(`^- conversations written by: \`builder\` ${items.length} conversations$`, 'm'));
    assert.match(
      card,
      new RegExp(`selected by \`builder\` \\(Prompt 3\\) under the criterion "${PAPER_SAFETY_CRITERION}" \\(${recs} recommendations\\)`),
    );
    const r = await cpgExportCommand('results', join(p.dir, 'results'), target);
    assert.equal(r.counts.detection_answers, 3 * items.length);
    const results = readFileSync(join(p.dir, 'results', 'README.md'), 'utf8');
    assert.match(results, /^- produced by: real models: model-a, model-b, model-c$/m);
    assert.match(results, /^- real evaluated models: `model-a`, `model-b`, `model-c`$/m);
    assert.match(results, /^- simulated stand-ins \(not LLM results\): none$/m);
    assert.match(results, /^- real judges: `judge`$/m);
    assert.match(results, /^- simulated judges: none$/m);
  } finally {
    p.remove();
    await server.close();
  }
});

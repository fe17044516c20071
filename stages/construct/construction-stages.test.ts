// The construction stages as a DAG against a local OpenAI-compatible server that answers
// Prompts 1–3, malformed answers included: real HTTP, the real client, the real runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { resolveDag } from '../../pipeline/dag/validate.ts';
import { runDag } from '../../pipeline/exec/executor.ts';
import { workspaceFor } from '../../pipeline/exec/workspace.ts';
import { readLedger } from '../../pipeline/store/ledger.ts';
import { stageRows } from '../../pipeline/testing/stage-rows.ts';
import type { DagConfig } from '../../pipeline/dag/define.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import { realModel } from '../roster/testing/specs.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WHO = 'who-2021-hypertension-pharmacological-treatment-retypeset';

function lastUser(body: ChatBody): string {
  return [...body.messages].reverse().find((m) => m.role === 'user')!.content;
}

/** Three whole sentences of the guideline, as a model would quote them. */
function quotes(prompt: string): string[] {
  const guideline = prompt.slice(prompt.indexOf('## Guideline:'), prompt.indexOf('## Example of a Leaf-Node'));
  const sentences = guideline
    .split('\n')
    .filter((l) => !l.startsWith('#') && !l.startsWith('|'))
    .flatMap((l) => l.match(/[A-Z][^.?!]{60,300}\./g) ?? []);
  assert.ok(sentences.length >= 3, 'the WHO Markdown has sentences to quote');
  return sentences.slice(0, 3);
}

function tree(prompt: string, broken: boolean): string {
  const [a, b, c] = quotes(prompt);
  const root = {
    index: 1,
    description: 'Is the systolic blood pressure ≥140 mmHg?',
    yes: {
      index: 2,
      description: 'Does the patient have diabetes?',
      yes: { index: 3, leaf: true, conclusion: 'Start combination therapy.' },
      no: { index: 4, leaf: true, conclusion: 'Start monotherapy.' },
    },
    no: broken ? undefined : { index: 5, leaf: true, conclusion: 'Do not start pharmacological treatment.' },
  };
  const mapping = { '1': [a], '2': [b], '3': [c], '4': [c], ...(broken ? {} : { '5': [a] }) };
  return JSON.stringify({ primary_clinical_focus: 'management', decision_tree: root, node_guideline_mapping: mapping });
}

test('construction stages: trees re-asked until valid, vignettes, narratives re-asked, a bad PDF as an error row', async () => {
  const server = await startFakeOpenAIServer({
    answer(body) {
      const prompt = body.messages.find((m) => m.role === 'user')!.content;
      const attempt = body.messages.filter((m) => m.role === 'assistant').length + 1;
      if (prompt.includes('convert it into a decision tree represented as a JSON object')) {
        if (attempt === 1) return 'Sure! Here is the tree:\n```json\n{ "primary_clinical_focus": "management", "decision_tree": {';
        return '```json\n' + tree(prompt, attempt === 2) + '\n```';
      }
      if (prompt.includes('convert this clinical decision path into a single, coherent')) {
        return '<think>Let me write it.</think>A patient presented for review. The clinical question concerns management.';
      }
      if (prompt.includes('produce a single JSON array of strings')) {
        const steps = (
          JSON.parse(prompt.slice(prompt.indexOf('## Input:') + 9, prompt.indexOf('## Output Format:')).trim()) as {
            decision_path: unknown[];
          }
        ).decision_path;
        const n = attempt === 1 ? steps.length - 1 : steps.length;
        return JSON.stringify(Array.from({ length: n }, (_, i) => `Reasoning statement ${i + 1}.`));
      }
      return `unexpected prompt: ${lastUser(body).slice(0, 80)}`;
    },
  });
  try {
    const root = mkdtempSync(join(tmpdir(), 'cdp-construct-'));
    mkdirSync(join(root, 'pdfs', 'en'), { recursive: true });
    copyFileSync(join(repo, 'data', 'sample', 'guidelines', 'en', `${WHO}.pdf`), join(root, 'pdfs', 'en', `${WHO}.pdf`));
    writeFileSync(join(root, 'pdfs', 'en', 'not-a-pdf.pdf'), 'this is a text file, not a PDF\n');
    const model = 'test-builder';
    const roster: ModelSpec[] = [
      {
        name: model,
        roles: ['builder'],
        provider: 'openai-compatible',
        baseURLs: [server.url],
        apiKeyOptional: true,
        modelId: 'fake',
        contextWindow: 200_000,
      },
    ];
    const m = (f: string) => join(repo, 'stages', f);
    const config: DagConfig = {
      sources: { pdfs: { kind: 'files', patterns: ['pdfs/**/*.pdf'] } },
      stages: [
        { name: 'guidelines', module: m('ingest/guidelines.stage.ts'), inputs: { corpus: 'pdfs' }, forEach: 'corpus' },
        {
          name: 'trees',
          module: m('construct/trees.stage.ts'),
          inputs: { guidelines: 'guidelines' },
          forEach: 'guidelines',
          params: { builder: realModel(model), maxAttempts: 3 },
        },
        {
          name: 'cdps',
          module: m('construct/cdps.stage.ts'),
          inputs: { trees: 'trees', guidelines: 'guidelines' },
          params: { testFraction: 0.5, seed: 42 },
        },
        {
          name: 'vignettes',
          module: m('construct/vignettes.stage.ts'),
          inputs: { cdps: 'cdps' },
          forEach: 'cdps',
          params: { writer: realModel(model) },
        },
        {
          name: 'narratives',
          module: m('construct/narratives.stage.ts'),
          inputs: { cdps: 'cdps', vignettes: 'vignettes' },
          forEach: { input: 'cdps', join: { vignettes: 'cdp_id' } },
          params: { writer: realModel(model), maxAttempts: 2 },
        },
      ],
    };
    const dag = await resolveDag(config, root);
    const ws = workspaceFor(root, config);
    const run = async () => {
      const client = createLlmClient({ cacheDir: join(ws.store, 'llm'), roster });
      try {
        return await runDag(dag, ws, { llm: client });
      } finally {
        await client.close();
      }
    };
    const first = await run();
    assert.equal(first.ok, true, JSON.stringify(first.stages.filter((s) => s.error)));
    const rows = (stage: string) => stageRows(ws, stage);

    const guidelines = rows('guidelines');
    assert.deepEqual(guidelines.map((g) => [g.guideline_id, g.error != null]).sort(), [
      ['not-a-pdf', true],
      [WHO, false],
    ]);
    assert.match(String(guidelines.find((g) => g.guideline_id === 'not-a-pdf')!.error), /not-a-pdf\.pdf/);

    const trees = rows('trees');
    const who = trees.find((t) => t.guideline_id === WHO)!;
    assert.equal(who.valid, true, String(who.problems));
    assert.equal(who.attempts, 3, 'malformed JSON, then a tree missing a branch, then a valid tree');
    assert.equal(who.evidence_verbatim_rate, 1);
    assert.match(String(trees.find((t) => t.guideline_id === 'not-a-pdf')!.error), /upstream 'guidelines' failed for this row/);

    const cdps = rows('cdps');
    assert.deepEqual(cdps.map((c) => c.length).sort(), [1, 2, 2]);
    const vignettes = rows('vignettes');
    assert.equal(vignettes.length, 3);
    assert.ok(vignettes.every((v) => v.vignette === 'A patient presented for review. The clinical question concerns management.'));
    const narratives = rows('narratives');
    assert.deepEqual(narratives.map((n) => (n.steps as string[]).length).sort(), cdps.map((c) => (c.length as number) + 1).sort());
    // 3 tree attempts + 3 vignettes + 3 narratives asked twice each.
    assert.equal(server.counters.chat, 12);

    server.resetCounters();
    const second = await run();
    assert.ok(second.stages.every((s) => s.status === 'reused'));
    assert.equal(server.counters.chat, 0, 'a rerun makes no HTTP request');
  } finally {
    await server.close();
  }
});

test('estimate: stale stages computed without persisting; real-model misses counted, not sent', async () => {
  const server = await startFakeOpenAIServer({ answer: () => 'never asked' });
  try {
    const root = mkdtempSync(join(tmpdir(), 'cdp-estimate-'));
    mkdirSync(join(root, 'pdfs', 'en'), { recursive: true });
    copyFileSync(join(repo, 'data', 'sample', 'guidelines', 'en', `${WHO}.pdf`), join(root, 'pdfs', 'en', `${WHO}.pdf`));
    const model = 'test-builder';
    const roster: ModelSpec[] = [
      {
        name: model,
        roles: ['builder'],
        provider: 'openai-compatible',
        baseURLs: [server.url],
        apiKeyOptional: true,
        modelId: 'fake',
        contextWindow: 200_000,
        price: { inputPerMTok: 2, outputPerMTok: 8 },
      },
    ];
    const config: DagConfig = {
      sources: { pdfs: { kind: 'files', patterns: ['pdfs/**/*.pdf'] } },
      stages: [
        {
          name: 'guidelines',
          module: join(repo, 'stages', 'ingest', 'guidelines.stage.ts'),
          inputs: { corpus: 'pdfs' },
          forEach: 'corpus',
        },
        {
          name: 'trees',
          module: join(repo, 'stages', 'construct', 'trees.stage.ts'),
          inputs: { guidelines: 'guidelines' },
          forEach: 'guidelines',
          params: { builder: realModel(model), maxAttempts: 3 },
        },
      ],
    };
    const ws = workspaceFor(root, config);
    const client = createLlmClient({ cacheDir: join(ws.store, 'llm'), roster, mode: 'estimate' });
    const summary = await runDag(await resolveDag(config, root), ws, { llm: client, ephemeral: true });
    await client.close();
    assert.deepEqual(
      summary.stages.map((s) => [s.stage, s.status]),
      [
        ['pdfs', 'ran'],
        ['guidelines', 'ran'],
        ['trees', 'ran'],
      ],
    );
    const [row, ...rest] = client.estimateReport();
    assert.equal(rest.length, 0);
    assert.equal(row.stage, 'trees');
    assert.equal(row.model, model);
    assert.equal(row.calls, 1, 'one Prompt 1 call per guideline; the re-ask never happens because nothing was answered');
    assert.ok(row.inputTokens > 3000, `the WHO guideline is several thousand tokens, got ${row.inputTokens}`);
    assert.ok(Math.abs(row.costUsd - (row.inputTokens * 2 + row.outputTokens * 8) / 1e6) < 1e-9);
    assert.equal(server.counters.chat, 0, 'nothing was sent');
    assert.equal(readLedger(ws.ledger).entries.trees, undefined, 'nothing was persisted');
  } finally {
    await server.close();
  }
});

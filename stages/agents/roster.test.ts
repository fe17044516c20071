import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { resolveRoster } from '../../pipeline/llm/roster.ts';
import { parseSingleTurn } from '../tasks/parse-single-turn.ts';
import { DEFAULT_SIMULATED_EVALUATED, offlineHandlers, simulatedModel, SIMULATED_ROSTER } from './roster.ts';
import type { ChatRequest } from '../../pipeline/llm/types.ts';
import { buildFixture, doctorSystem, markdownOf, patientSystem, singleTurnPrompt } from './testing/benchmark-cases.ts';

describe('simulated roster', () => {
  test('every entry is offline, simulated, named as such, with its role', () => {
    assert.deepEqual(
      SIMULATED_ROSTER.map((m) => m.name),
      [
        'simulated-oracle',
        'simulated-omission-0.3',
        'simulated-redundancy-0.3',
        'simulated-skipping-0.3',
        'simulated-reversal-0.3',
        'simulated-mixed-0.15-wrong-0.2',
        'simulated-lexical-walker',
        'simulated-patient',
      ],
    );
    for (const m of SIMULATED_ROSTER) {
      assert.equal(m.provider, 'offline');
      assert.equal(m.simulated, true);
      assert.match(m.name, /simulated/);
      assert.deepEqual(m.roles, m.name === 'simulated-patient' ? ['patient'] : ['evaluated']);
      assert.match(m.note ?? '', /^simulated:/);
    }
    // The runner's roster resolution accepts them all as active.
    assert.ok(resolveRoster(SIMULATED_ROSTER, {}).every((m) => m.active === true));
  });

  test('unknown or unlabelled names are refused', () => {
    assert.throws(() => simulatedModel('gpt-4o'), /does not contain "simulated"/);
    assert.throws(() => simulatedModel('simulated-genius'), /no offline agent is called "simulated-genius"/);
    assert.equal(simulatedModel('simulated-skipping-0.5').roles[0], 'evaluated');
  });

  test('handlers cover the roster, or the names asked for', () => {
    assert.deepEqual(
      Object.keys(offlineHandlers()),
      SIMULATED_ROSTER.map((m) => m.name),
    );
    assert.deepEqual(Object.keys(offlineHandlers(['simulated-reversal-1'])), ['simulated-reversal-1']);
    assert.throws(() => offlineHandlers(['simulated-nobody']), /no offline agent/);
  });
});

describe('odd requests', () => {
  test('every provider answers any messages, with or without a unit context, with text, never an exception', async () => {
    const fx = buildFixture();
    const handlers = offlineHandlers([...SIMULATED_ROSTER.map((m) => m.name), 'simulated-mixed-1-wrong-1']);
    const requests: ChatRequest['messages'][] = [
      [],
      [{ role: 'user', content: '' }],
      [{ role: 'system', content: '' }],
      [{ role: 'assistant', content: 'Is it?' }],
      [
        { role: 'system', content: 'You are a doctor.' },
        { role: 'assistant', content: 'Fever?' },
        { role: 'user', content: 'maybe' },
      ],
      [
        { role: 'system', content: patientSystem('') },
        { role: 'user', content: '??' },
      ],
      [{ role: 'user', content: [{ type: 'text', text: singleTurnPrompt('', '') }] }],
      [{ role: 'user', content: singleTurnPrompt(markdownOf(fx.htn[0]!), '') }],
      [
        { role: 'system', content: doctorSystem(markdownOf(fx.htn[0]!), '') },
        { role: 'user', content: 'Yes' },
        { role: 'user', content: 'No' },
      ],
    ];
    for (const [name, handler] of Object.entries(handlers)) {
      const unit = fx.unit(fx.htn[0]!);
      for (const messages of requests) {
        for (const context of [undefined, unit, { ...unit, tree: null, dialogue: [] }, { ...unit, question: '' }]) {
          const reply = (await handler.callApi({ model: name, messages }, context)).output;
          assert.equal(typeof reply, 'string', `${name} on ${JSON.stringify(messages).slice(0, 80)}`);
          assert.notEqual(String(reply).trim(), '', name);
        }
      }
    }
  });
});

describe('through the LLM client', () => {
  test('the client hands the providers the request context and returns their metadata', async () => {
    const fx = buildFixture();
    const dir = mkdtempSync(join(tmpdir(), 'agents-client-'));
    try {
      const client = createLlmClient({ cacheDir: dir, roster: SIMULATED_ROSTER, offlineHandlers: offlineHandlers(), env: {} });
      const cdp = fx.htn[0]!;
      const guideline = client.blob(markdownOf(cdp));
      const prompt = singleTurnPrompt('\u0000', fx.vignetteOf(cdp)).split('\u0000');
      const stage = client.forStage('predictions_single');
      for (const name of DEFAULT_SIMULATED_EVALUATED) {
        const r = await stage.chat({
          model: name,
          messages: [{ role: 'user', content: [{ type: 'text', text: prompt[0]! }, guideline, { type: 'text', text: prompt[1]! }] }],
          context: fx.unit(cdp),
        });
        assert.ok(r.ok, name);
        const parsed = parseSingleTurn(r.ok ? r.text : '');
        assert.ok(parsed.ok, `${name}: ${r.ok ? r.text : ''}`);
        if (name === 'simulated-oracle') assert.equal(parsed.outcome, cdp.conclusion);
      }
      const answer = await client.chat({
        model: 'simulated-patient',
        messages: [
          { role: 'system', content: patientSystem(fx.vignetteOf(cdp)) },
          { role: 'user', content: 'Is systolic blood pressure ≥140 mmHg?' },
        ],
        context: { ...fx.unit(cdp), question: 'Is systolic blood pressure ≥140 mmHg?' },
      });
      assert.deepEqual(answer.ok && answer.text, cdp.steps[0]!.decision_outcome === 'yes' ? 'Yes' : 'No');
      assert.deepEqual(answer.ok && answer.metadata, { via: 'path', node: cdp.steps[0]!.node_index });
      await client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

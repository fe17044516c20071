import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paperRoster, PAPER_EVALUATED, PAPER_JUDGES, PAPER_BUILDER } from './paper-roster.ts';
import { resolveRoster, modelsForRole } from '../../pipeline/llm/roster.ts';

test('the roster holds the builder, the 16 models of Table 1 by their printed names, and the two judges', () => {
  assert.equal(PAPER_EVALUATED.length, 16);
  assert.deepEqual(
    paperRoster.filter((m) => m.roles.includes('evaluated')).map((m) => m.name),
    [...PAPER_EVALUATED],
  );
  assert.deepEqual(paperRoster.filter((m) => m.roles.includes('judge')).map((m) => m.name), [...PAPER_JUDGES]);
  assert.deepEqual(paperRoster.filter((m) => m.roles.includes('builder')).map((m) => m.name), [PAPER_BUILDER]);
  assert.equal(new Set(paperRoster.map((m) => m.name)).size, paperRoster.length);
});

test('every model meets the paper\'s 40K context floor, has no invented price, and is inactive until configured', () => {
  for (const m of paperRoster) {
    assert.ok((m.contextWindow ?? 0) >= 40_000, m.name);
    assert.deepEqual(m.price, { inputPerMTok: 0, outputPerMTok: 0 }, m.name);
    assert.deepEqual(m.params, {}, `${m.name}: default configurations`);
  }
  const none = resolveRoster(paperRoster, {});
  assert.deepEqual(none.filter((m) => m.active), []);
  const some = resolveRoster(paperRoster, { OPENAI_API_KEY: 'k', CDP_LLM_URL_QWEN3_8B: 'http://gpu:8000/v1' });
  assert.deepEqual(
    some.filter((m) => m.active).map((m) => m.name),
    // The Qwen3-8B judge shares the evaluated Qwen3-8B's variable: one server serves both.
    ['gpt-5.2', 'GPT-5.4', 'Qwen3-8B', 'gpt-5.4-mini', 'qwen3-8b'],
  );
});

test('one local server runs every role', () => {
  const r = resolveRoster(paperRoster, { CDP_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', CDP_LLM_MODEL: 'Qwen/Qwen3-8B' });
  for (const role of ['builder', 'evaluated', 'patient', 'judge'] as const) assert.deepEqual(modelsForRole(r, role).map((m) => m.name), ['Qwen/Qwen3-8B']);
});

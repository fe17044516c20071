import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatRequest, ChatResult } from '../../pipeline/llm/types.ts';
import { judgeStepScores } from './judge-step-scores.ts';
import { judgeOutcome } from './judge-outcome.ts';
import { callColumns } from './call-refs.ts';

/**
 * A client whose answers carry a stored call identity `k<repeat>.<turn>` (turn = messages sent so far,
 * so a re-ask has its own key), or none at all (`stored: false`, as offline judges answer).
 * `answer(repeat, turn)` gives the text; runs are answered in reverse order of arrival to make sure
 * the recorded order is the run order, not the order the answers came back.
 */
function client(answer: (repeat: number, turn: number) => string, stored = true) {
  return {
    async chat(req: ChatRequest): Promise<ChatResult> {
      const repeat = req.repeat ?? 0;
      const turn = Math.floor(req.messages.length / 2);
      await new Promise((r) => setTimeout(r, (5 - repeat) * 3));
      const call = { key: `k${repeat}.${turn}`, model: req.model, modelId: req.model, stage: 's', promptHash: 'h', repeat, attempt: turn };
      return {
        ok: true,
        text: answer(repeat, turn),
        cached: false,
        usage: { inputTokens: 0, outputTokens: 0 },
        latencyMs: 0,
        ...(stored ? { call } : {}),
      };
    },
  };
}

const GOOD = 'R1-C1: 5\nR2-C1: 1';

describe('judges record the stored calls of their runs', () => {
  test('step scores: one key per answer in run order, the re-ask of run 1 after its rejected answer', async () => {
    const c = client((repeat, turn) => (repeat === 1 && turn === 0 ? 'no scores here' : GOOD));
    const r = await judgeStepScores({ client: c, judge: 'j', setting: 'single', reference: ['a?', 'b?'], candidate: ['a?'], runs: 3 });
    assert.ok(r.ok);
    assert.deepEqual(callColumns(r.callRefs), {
      call_keys: ['k0.0', 'k1.0', 'k1.1', 'k2.0'],
      call_attempts: [0, 0, 1, 0],
      call_runs: [0, 1, 1, 2],
    });
    assert.equal(r.calls, 4);
  });

  test('answers without a stored call (offline judges) leave the lists empty', async () => {
    const r = await judgeStepScores({
      client: client(() => GOOD, false),
      judge: 'simulated-j',
      setting: 'multi',
      reference: ['a?', 'b?'],
      candidate: ['a?'],
      runs: 2,
    });
    assert.ok(r.ok);
    assert.deepEqual(callColumns(r.callRefs), { call_keys: [], call_attempts: [], call_runs: [] });
  });

  test('outcome: the rejected answer and its re-ask, both under the call repeat', async () => {
    const c = client((_, turn) => (turn === 0 ? 'maybe' : '4'));
    const r = await judgeOutcome({ client: c, judge: 'j', reference: 'Migraine.', candidate: 'Migraine likely.', repeat: 2 });
    assert.ok(r.ok);
    assert.equal(r.score, 4);
    assert.deepEqual(
      r.callRefs.map((x) => [x.key, x.run]),
      [
        ['k2.0', 2],
        ['k2.1', 2],
      ],
    );
  });

  test('a failed outcome judging keeps the keys of the answers it refused', async () => {
    const r = await judgeOutcome({
      client: client(() => 'maybe'),
      judge: 'j',
      reference: 'Migraine.',
      candidate: 'Tension.',
      maxReasks: 1,
    });
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.callRefs.map((x) => x.key),
      ['k0.0', 'k0.1'],
    );
  });
});

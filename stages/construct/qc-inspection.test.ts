import { test } from 'node:test';
import assert from 'node:assert/strict';
import stage from './qc-inspection.stage.ts';
import type { ChatRequest, ChatResult } from '../../pipeline/llm/types.ts';
import type { StageContext, RowStage } from '../../pipeline/dag/stage.ts';
import { realModel } from '../roster/testing/specs.ts';
import type { ModelRef } from '../roster/model-ref.ts';

const cdp = {
  cdp_id: 'g-1',
  focus: 'management',
  steps: [{ node_index: 1, condition: 'Is systolic blood pressure ≥140 mmHg?', decision_outcome: 'yes', evidence: [] }],
  conclusion: 'Start treatment.',
};

function ctx(answers: string[], inspectorName: string | null) {
  const inspector = inspectorName === null ? null : realModel(inspectorName);
  const asked: ChatRequest[] = [];
  const llm = {
    async chat(req: ChatRequest): Promise<ChatResult> {
      asked.push(req);
      return { ok: true, text: answers.shift() ?? '', cached: false, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    },
  };
  const c = {
    stage: 'qc_inspection',
    params: { inspector, maxAttempts: 2 },
    root: '.',
    llm,
    log() {},
    signal: new AbortController().signal,
  } as unknown as StageContext<{ inspector: ModelRef | null; maxAttempts: number }>;
  return { c, asked };
}

const run = (row: Record<string, unknown>, c: StageContext<{ inspector: ModelRef | null; maxAttempts: number }>) =>
  (stage as RowStage<{ inspector: ModelRef | null; maxAttempts: number }>).run(
    { row, joined: { cdps: [cdp], vignettes: [{ cdp_id: 'g-1', vignette: 'Systolic pressure was 128 mmHg.' }] }, whole: {} },
    c,
  );

test('an inconsistent case is reported with its problems, after a malformed answer is re-asked', async () => {
  const { c, asked } = ctx(
    ['I think it is fine.', '{"consistent": false, "problems": ["128 mmHg is below the 140 mmHg threshold of a yes step"]}'],
    'inspector-model',
  );
  const out = await run({ cdp_id: 'g-1', inspect: true }, c);
  assert.deepEqual(out, {
    cdp_id: 'g-1',
    inspector: 'inspector-model',
    prompt: 'cdp-pipeline/qc-inspection-v1 (not from the paper)',
    consistent: false,
    problems: ['128 mmHg is below the 140 mmHg threshold of a yes step'],
  });
  assert.equal(asked.length, 2);
  assert.match(String(asked[0].messages[0].content), /1\. Is systolic blood pressure ≥140 mmHg\? → yes/);
  assert.match(String(asked[1].messages.at(-1)!.content), /could not be used/);
});

test('cases outside the sample, or with no inspector configured, are not inspected', async () => {
  const none = ctx([], null);
  assert.deepEqual(await run({ cdp_id: 'g-1', inspect: true }, none.c), []);
  const unsampled = ctx([], 'inspector-model');
  assert.deepEqual(await run({ cdp_id: 'g-1', inspect: false }, unsampled.c), []);
  assert.equal(none.asked.length + unsampled.asked.length, 0);
});

test('an answer that never validates becomes a failure row with the reason', async () => {
  const { c } = ctx(['{"consistent": "maybe"}', '{"consistent": "maybe"}'], 'inspector-model');
  const out = (await run({ cdp_id: 'g-1', inspect: true }, c)) as Record<string, unknown>;
  assert.match(String(out.error), /no valid answer after 2 attempts/);
});

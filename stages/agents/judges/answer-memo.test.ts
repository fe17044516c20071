import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JudgeContext } from '../../judge/judge-context.ts';
import { answerMemo } from './answer-memo.ts';
import { answerJudging, SIMULATED_JUDGES, simulatedJudgeHandler } from './simulated-judges.ts';

const steps = (reference: string[], candidate: string[]): JudgeContext => ({ judging: 'steps', reference, candidate });

/** The wrapped answer and how many times it ran. */
function counted() {
  const seen: JudgeContext[] = [];
  const answer = answerMemo((c) => {
    seen.push(c);
    return JSON.stringify(c);
  }, 3);
  return { answer, seen };
}

test('answerMemo: a repeat with equal pathways (new arrays, as a worker rebuilds them) is answered without recomputing', () => {
  const { answer, seen } = counted();
  const first = answer(steps(['fever', 'rash'], ['fever']));
  for (let run = 2; run <= 5; run++) assert.equal(answer(steps(['fever', 'rash'], ['fever'])), first);
  assert.equal(seen.length, 1);
});

test('answerMemo: contexts that differ only in how their steps split, or in kind, never share an answer', () => {
  const { answer, seen } = counted();
  const a = answer(steps(['a,b'], ['c']));
  const b = answer(steps(['a', 'b'], ['c']));
  const c = answer(steps(['a'], ['b', 'c']));
  const d = answer({ judging: 'outcome', reference: 'a', candidate: 'c' });
  assert.equal(seen.length, 4);
  assert.equal(new Set([a, b, c, d]).size, 4);
});

test('answerMemo: keeps the last `size` contexts, the one used most recently last to go', () => {
  const { answer, seen } = counted();
  const ctx = (k: string) => steps([k], ['x']);
  for (const k of ['a', 'b', 'c']) answer(ctx(k));
  answer(ctx('a')); // a is now the most recent: b goes first
  answer(ctx('d'));
  assert.equal(seen.length, 4);
  answer(ctx('a'));
  answer(ctx('c'));
  assert.equal(seen.length, 4, 'a and c are still kept');
  answer(ctx('b'));
  assert.equal(seen.length, 5, 'b was dropped, so it is computed again');
});

test('simulated judges: answers through the memo equal the judge computed afresh, call after call', async () => {
  const contexts = [
    steps(['fever above 38 degrees', 'rash'], ['fever below 38 degrees', 'rash on arms', 'headache']),
    steps(['血压升高', '心率'], ['血压', '心率正常']),
    { judging: 'outcome', reference: 'admit to hospital', candidate: 'discharge home' } as JudgeContext,
  ];
  for (const judge of SIMULATED_JUDGES) {
    const provider = simulatedJudgeHandler(judge.name);
    for (let run = 0; run < 3; run++) {
      for (const c of contexts) {
        const got = await provider.callApi({ model: judge.name, messages: [{ role: 'user', content: '' }] }, structuredClone(c));
        assert.equal(got.output, answerJudging(judge, c), `${judge.name}, run ${run + 1}, ${c.judging}`);
      }
    }
  }
});

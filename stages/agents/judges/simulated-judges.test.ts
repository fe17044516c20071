import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathwayVars } from '../../prompts/pathway-labels.ts';
import { DEFAULT_TEMPLATES_ROOT, loadTemplate, renderTemplate } from '../../prompts/templates.ts';
import { judgeParams } from '../../metrics/judge-params.ts';
import type { ChatRequest, Provider } from '../../../pipeline/llm/types.ts';
import type { JudgeContext } from '../../judge/judge-context.ts';
import { answerPrompt } from '../../judge/testing/prompt-judge.ts';
import { parseOutcomeScore } from '../../judge/parse-outcome-score.ts';
import { parseStepScores } from '../../judge/parse-step-scores.ts';
import { likertFromSimilarity } from './likert-from-similarity.ts';
import {
  SIMULATED_JUDGE_NAMES,
  SIMULATED_JUDGES,
  simulatedJudge,
  simulatedJudgeHandler,
  simulatedJudgeHandlers,
  simulatedJudgeSpecs,
  stepScoreAnswer,
} from './simulated-judges.ts';

const REFERENCE = ['fever above 38 degrees', 'rash'];
const CANDIDATE = ['fever below 38 degrees', 'rash on arms', 'headache'];
const asUser = (content: string): ChatRequest => ({ model: 'x', messages: [{ role: 'user', content }] });
const steps = (reference: string[], candidate: string[]): JudgeContext => ({ judging: 'steps', reference, candidate });
const outcome = (reference: string, candidate: string): JudgeContext => ({ judging: 'outcome', reference, candidate });
/** One call as the judging code makes it: the prompt, and the context it was rendered from. */
const ask = async (p: Provider, context: JudgeContext | undefined, req: ChatRequest = asUser('(the rendered prompt)')) => {
  const r = await p.callApi(req, context);
  if (r.output === undefined) throw new Error(`the judge answered no output: ${r.error ?? 'and no error'}`);
  return r.output;
};

function stepPrompt(
  id: 'single-turn-step-level-consistency-scoring' | 'multi-turn-step-level-consistency-scoring',
  ref = REFERENCE,
  cand = CANDIDATE,
) {
  return renderTemplate(loadTemplate(id, 'en'), pathwayVars(ref, cand));
}

describe('the three judges', () => {
  test('names say "simulated"; kind similarity, so β = 0.1 and the fallback γ = 0.2', () => {
    assert.deepEqual(SIMULATED_JUDGE_NAMES, ['simulated-token-f1', 'simulated-char-ngram', 'simulated-tfidf']);
    for (const j of SIMULATED_JUDGES) {
      assert.match(j.name, /simulated/);
      assert.equal(j.kind, 'similarity');
      assert.deepEqual(judgeParams(j.name, j.kind), { gamma: 0.2, beta: 0.1, calibrated: false });
    }
    for (const spec of simulatedJudgeSpecs()) {
      assert.equal(spec.provider, 'offline');
      assert.equal(spec.simulated, true);
      assert.deepEqual(spec.roles, ['judge']);
    }
    assert.throws(() => simulatedJudge('bertscore'), /no simulated judge named "bertscore"/);
  });

  test('token F1 answers Prompt 5 in the required format with the hand-computed scores', async () => {
    const answer = await ask(simulatedJudgeHandler('simulated-token-f1'), steps(REFERENCE, CANDIDATE));
    assert.equal(
      answerPrompt(simulatedJudge('simulated-token-f1'), stepPrompt('single-turn-step-level-consistency-scoring')),
      answer,
      'a scripted judge reading the prompt agrees',
    );
    // F1: R1-C1 = 6/8 → 1 + round(3) = 4; R2-C2 = 2/3 → 1 + round(2.67) = 4; the rest 0 → 1.
    assert.equal(answer, 'R1-C1: 4, R1-C2: 1, R1-C3: 1\nR2-C1: 1, R2-C2: 4, R2-C3: 1');
    const parsed = parseStepScores(answer, 2, 3);
    assert.ok(parsed.ok, 'parsed.ok');
    assert.deepEqual(Array.from(parsed.scores), [4, 1, 1, 1, 4, 1]);
  });

  for (const judge of SIMULATED_JUDGES) {
    test(`${judge.name}: step calls (Prompts 5 and 8) parse to its similarities on the Likert scale`, async () => {
      const ref = ['Does the patient have fever ≥ 38.5 °C?', '患者是否咳嗽超过两周？', 'Start amoxicillin 500 mg three times daily'];
      const cand = ['Fever of 38.5 °C or more is present', '咳嗽两周以上', 'Prescribe amoxicillin 500 mg', 'Check oxygen saturation'];
      const expected = Array.from(judge.matrix(ref, cand), likertFromSimilarity);
      assert.ok(new Set(expected).size > 1, 'the case separates scores');
      const handler = simulatedJudgeHandlers()[judge.name];
      for (const id of ['single-turn-step-level-consistency-scoring', 'multi-turn-step-level-consistency-scoring'] as const) {
        const parsed = parseStepScores(await ask(handler, steps(ref, cand), asUser(stepPrompt(id, ref, cand))), 3, 4);
        assert.ok(parsed.ok, id);
        assert.deepEqual(Array.from(parsed.scores), expected, id);
      }
      // Identical pathways score 5 on the diagonal.
      const same = parseStepScores(await ask(handler, steps(ref, ref)), 3, 3);
      assert.ok(same.ok, 'same.ok');
      assert.deepEqual(
        [0, 4, 8].map((k) => same.scores[k]),
        [5, 5, 5],
      );
    });

    test(`${judge.name}: an outcome call (Prompt 9) gets a single integer`, async () => {
      const handler = simulatedJudgeHandler(judge.name);
      const same = await ask(handler, outcome('Start amoxicillin.', 'start AMOXICILLIN'));
      assert.deepEqual(parseOutcomeScore(same), { ok: true, score: 5, format: 'strict' });
      const other = await ask(handler, outcome('Refer to cardiology', 'Discharge home'));
      assert.deepEqual(parseOutcomeScore(other), { ok: true, score: 1, format: 'strict' });
    });
  }

  test('token F1 on Prompt 9: [start, amoxicillin] vs [start, amoxicillin, now] = 0.8 → 4', () => {
    const t9 = loadTemplate('outcome-accuracy-scoring', 'en');
    const p = renderTemplate(t9, { Reference_Conclusion: 'Start amoxicillin', Candidate_Conclusion: 'Start amoxicillin now' });
    assert.equal(answerPrompt(simulatedJudge('simulated-token-f1'), p), '4');
  });

  test('the scripted (prompt-reading) judge recognises a translated Prompt 9 under the templates root', () => {
    const root = mkdtempSync(join(tmpdir(), 'judge-templates-'));
    cpSync(join(DEFAULT_TEMPLATES_ROOT, 'en'), join(root, 'en'), { recursive: true });
    mkdirSync(join(root, 'zh'));
    const file = '9-outcome-accuracy-scoring.md';
    writeFileSync(
      join(root, 'zh', file),
      '你是医学专家。\n## 参考结论：\n{Reference_Conclusion}\n## 候选结论：\n{Candidate_Conclusion}\n## 你的输出：',
    );
    const zh = loadTemplate('outcome-accuracy-scoring', 'zh', { root });
    const p = renderTemplate(zh, { Reference_Conclusion: '发热三天', Candidate_Conclusion: '高热三天' });
    // Token F1 per character: 6/8 = 0.75 → 4.
    assert.equal(answerPrompt(simulatedJudge('simulated-token-f1'), p, root), '4');
  });

  test('a re-ask carries the same context, so it gets the same answer', async () => {
    const handler = simulatedJudgeHandler('simulated-tfidf');
    const prompt = stepPrompt('single-turn-step-level-consistency-scoring');
    const first = await ask(handler, steps(REFERENCE, CANDIDATE), asUser(prompt));
    const again = await ask(handler, steps(REFERENCE, CANDIDATE), {
      model: 'x',
      messages: [
        { role: 'user', content: prompt },
        { role: 'assistant', content: 'R1-C1: 4' },
        { role: 'user', content: 'Your previous answer could not be used:\n- missing pairs: R1-C2' },
      ],
    });
    assert.equal(again, first);
  });

  test('a call without a judging context is refused with a message naming the judge and what to pass', async () => {
    const judge = simulatedJudgeHandler('simulated-char-ngram');
    await assert.rejects(
      judge.callApi(asUser(stepPrompt('single-turn-step-level-consistency-scoring')), undefined),
      /simulated-char-ngram answers .* from their context .*judgeStepScores or judgeOutcome/,
    );
    await assert.rejects(judge.callApi(asUser('x'), { judging: 'steps', reference: 'not a list' }), /from their context/);
    assert.throws(() => answerPrompt(simulatedJudge('simulated-char-ngram'), 'Tell me a joke'), /answers only Prompts 5, 8 .* and 9/);
  });

  test('stepScoreAnswer checks the shape', () => {
    assert.equal(stepScoreAnswer(Float64Array.of(1, 0), 1, 2), 'R1-C1: 5, R1-C2: 1');
    assert.throws(() => stepScoreAnswer(Float64Array.of(1), 1, 2), /expected m×n = 1×2/);
  });
});

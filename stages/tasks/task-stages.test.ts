// The two task stages as a DAG against a local OpenAI-compatible server that answers by rule:
// real HTTP, the real client (retries, context check, call cache), the real runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeOpenAIServer, type ChatBody } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import type { ModelSpec } from '../../pipeline/llm/types.ts';
import type { Row } from '../../pipeline/dag/define.ts';
import { fixtureData, taskDag, taskProject, HTN_TITLE, INSOMNIA_TITLE } from './testing/task-dag.ts';
import { realModel } from '../roster/testing/specs.ts';

const SINGLE = ['st-plain', 'st-bold', 'st-think', 'st-no-outcome', 'st-500', 'st-tiny'];
const DOCTORS = ['dr-good', 'dr-breaks', 'dr-endless', 'dr-maybe', 'dr-500'];

const userText = (b: ChatBody) => b.messages.filter((m) => m.role === 'user').map((m) => m.content);

/** The vignette and the guideline's first line as Prompt 4 carries them (the HTN guideline itself holds a "## Case Vignette:" heading). */
function readPrompt4(prompt: string): { vignette: string; firstLine: string } {
  const v = prompt.lastIndexOf('## Case Vignette:\n');
  const vignette = prompt.slice(v + '## Case Vignette:\n'.length, prompt.lastIndexOf('\n## Output Format:')).trim();
  const g = prompt.indexOf('## Guideline:\n') + '## Guideline:\n'.length;
  return { vignette, firstLine: prompt.slice(g, prompt.indexOf('\n', g)) };
}

function plainAnswer(prompt: string): string {
  const { vignette, firstLine } = readPrompt4(prompt);
  return `### Clinical Decision Process:\n1. The vignette has ${vignette.length} characters.\n2. The guideline opens with ${firstLine}.\n### Clinical Decision Outcome: Start an ACE inhibitor.`;
}

function singleTurn(body: ChatBody): string {
  const prompt = userText(body)[0]!;
  switch (body.model) {
    case 'st-plain':
    case 'st-500':
      return plainAnswer(prompt);
    case 'st-bold':
      return '**Clinical Decision Process:**\n\n1. Step one holds.\n\n2. Step two holds.\n\n**Clinical Decision Outcome:**\n**Offer lifestyle advice for weight loss.**';
    case 'st-think':
      return '<think>Maybe the outcome is this.\n### Clinical Decision Outcome: a draft</think>\n### Clinical Decision Process:\n1. Only step.\n### Clinical Decision Outcome: Recheck blood pressure in five years.';
    case 'st-no-outcome':
      return '### Clinical Decision Process:\n1. First.\n2. Second.';
  }
  return `unexpected model ${body.model}`;
}

/** Doctors: the system message, then strictly alternating assistant (question) / user (answer) turns. */
function doctor(body: ChatBody): string {
  const [system, ...rest] = body.messages;
  if (system?.role !== 'system' || !system.content.includes('You are a doctor.')) return 'layout: no Prompt 6 system message';
  if (rest.some((m, i) => m.role !== (i % 2 === 0 ? 'assistant' : 'user'))) return 'layout: turns do not alternate';
  const asked = rest.filter((m) => m.role === 'assistant').length;
  const heard = rest.filter((m) => m.role === 'user').map((m) => m.content);
  switch (body.model) {
    case 'dr-good':
    case 'dr-500':
      return asked < 2 ? `**Question ${asked + 1}:** Is criterion ${asked + 1} met?` : `Final Conclusion: heard ${heard.join(', ')}`;
    case 'dr-breaks':
      return asked === 0 ? 'Is criterion 1 met?' : 'Do you have a fever? Do you have a cough?';
    case 'dr-endless':
      return `Is criterion ${asked + 1} met?`;
    case 'dr-maybe':
      return 'Is it maybe serious?';
  }
  return `unexpected model ${body.model}`;
}

/** The scripted patient: odd-numbered criteria hold, even ones do not; "maybe" questions get no Yes/No. */
function patient(body: ChatBody): string {
  const system = body.messages[0]!;
  if (system.role !== 'system' || !system.content.includes('## Case Vignette:')) return 'layout: no Prompt 7 system message';
  const q = userText(body).at(-1)!;
  if (/maybe/.test(q)) return 'Maybe';
  const n = Number(/criterion (\d+)/.exec(q)?.[1]);
  return n % 2 === 1 ? 'Yes.' : '"No"';
}

function roster(url: string): ModelSpec[] {
  const spec = (name: string, roles: ModelSpec['roles'], contextWindow = 100_000): ModelSpec => ({
    name,
    roles,
    provider: 'openai-compatible',
    baseURLs: [url],
    apiKeyOptional: true,
    modelId: name,
    contextWindow,
  });
  return [
    ...SINGLE.map((n) => spec(n, ['evaluated'], n === 'st-tiny' ? 64 : 100_000)),
    ...DOCTORS.map((n) => spec(n, ['evaluated'])),
    spec('pt-script', ['patient']),
  ];
}

const byUnit = (rows: Row[]) => new Map(rows.map((r) => [`${String(r.model)} ${String(r.cdp_id)}`, r]));

test('task stages: parsed answers, dialogue endings, failure rows, a reused rerun, --retry-failed', async () => {
  let faulting = true;
  const server = await startFakeOpenAIServer({
    answer: (body) => (body.model.startsWith('st-') ? singleTurn(body) : body.model.startsWith('dr-') ? doctor(body) : patient(body)),
    faultFor: (_n, body) => (faulting && body.model.endsWith('-500') ? { kind: 'status', status: 500 } : undefined),
  });
  // Two English test CDPs, one Chinese test CDP, one English non-test CDP.
  const data = fixtureData((c, i) => (c.guideline_id === 'htn' ? (i < 2 ? 'test' : i === 2 ? 'non-test' : null) : i === 6 ? 'test' : null));
  const tests = data.cdps.filter((c) => c.split === 'test');
  assert.equal(tests.length, 3);
  const nonTest = data.cdps.find((c) => c.split === 'non-test')!;
  const config = taskDag(
    data,
    { models: SINGLE.map((n) => realModel(n)) },
    { models: DOCTORS.map((n) => realModel(n)), patient: realModel('pt-script'), capFactor: 1, capExtra: 1 },
  );
  const project = taskProject(config);
  const run = async (opts: { retryFailed?: boolean } = {}) => {
    const client = createLlmClient({
      cacheDir: project.cacheDir,
      roster: roster(server.url),
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    try {
      return await project.run(client, opts);
    } finally {
      await client.close();
    }
  };
  try {
    const first = await run();
    assert.equal(first.ok, true, JSON.stringify(first.stages.filter((s) => s.error)));

    // ── predictions_single ──
    const single = project.rows('predictions_single');
    assert.equal(single.length, SINGLE.length * tests.length, 'one row per test CDP × model; the non-test CDP yields none');
    assert.ok(single.every((r) => r.cdp_id !== nonTest.cdp_id));
    const s = byUnit(single);
    for (const c of tests) {
      const at = (m: string) => s.get(`${m} ${String(c.cdp_id)}`)!;
      const firstLine = c.guideline_id === 'htn' ? `# ${HTN_TITLE}` : `# ${INSOMNIA_TITLE}`;
      const plain = at('st-plain');
      assert.deepEqual(
        {
          steps: plain.steps,
          outcome: plain.outcome,
          parse_ok: plain.parse_ok,
          parse_error: plain.parse_error,
          guideline_id: plain.guideline_id,
          language: plain.language,
          template: plain.template,
          simulated: plain.simulated,
          error: plain.error ?? null,
        },
        {
          steps: [
            `The vignette has ${data.vignetteOf.get(String(c.cdp_id))!.length} characters.`,
            `The guideline opens with ${firstLine}.`,
          ],
          outcome: 'Start an ACE inhibitor.',
          parse_ok: true,
          parse_error: null,
          guideline_id: c.guideline_id,
          language: c.language,
          template: 'en/4-single-turn-inference.md',
          simulated: false,
          error: null,
        },
      );
      assert.equal(
        plain.raw,
        plainAnswer(
          String(
            server.requests.find((b) => b.model === 'st-plain' && b.messages[0]!.content.includes(data.vignetteOf.get(String(c.cdp_id))!))!
              .messages[0]!.content,
          ),
        ),
      );
      assert.equal(plain.answer_format, 'strict');
      assert.deepEqual(
        [at('st-bold').steps, at('st-bold').outcome, at('st-bold').parse_ok, at('st-bold').answer_format],
        [['Step one holds.', 'Step two holds.'], 'Offer lifestyle advice for weight loss.', true, 'bold-marker+markdown-heading+separator'],
      );
      assert.deepEqual(
        [at('st-think').steps, at('st-think').outcome, at('st-think').parse_ok, at('st-think').answer_format],
        [['Only step.'], 'Recheck blood pressure in five years.', true, 'think-block'],
      );
      const missing = at('st-no-outcome');
      assert.deepEqual(
        [missing.steps, missing.outcome, missing.parse_ok, missing.answer_format, missing.error ?? null],
        [['First.', 'Second.'], null, false, null, null],
      );
      assert.match(String(missing.parse_error), /no 'Clinical Decision Outcome' section/);
      const broken = at('st-500');
      assert.equal(broken.model, 'st-500');
      assert.equal(broken.cdp_id, c.cdp_id);
      assert.match(String(broken.error), /^st-500: .*500.*after 2 attempts/);
      assert.match(String(at('st-tiny').error), /^st-tiny: context overflow \(\d+ tokens > window 64\)$/);
    }
    // The guideline travelled whole (as a blob, resolved before sending) with the vignette.
    const prompt4 = server.requests.find((b) => b.model === 'st-plain')!.messages;
    assert.equal(prompt4.length, 1);
    assert.ok(
      prompt4[0]!.content.includes(String(data.guidelines[0]!.markdown)) ||
        prompt4[0]!.content.includes(String(data.guidelines[1]!.markdown)),
    );
    assert.ok(
      server.requests.every((b) => !('meta' in b)),
      'meta is never sent to a server',
    );

    // ── dialogues_multi ──
    const multi = project.rows('dialogues_multi');
    assert.equal(multi.length, DOCTORS.length * tests.length);
    const d = byUnit(multi);
    for (const c of tests) {
      const at = (m: string) => d.get(`${m} ${String(c.cdp_id)}`)!;
      const goal =
        c.guideline_id === 'htn'
          ? `Determine the appropriate management for this patient according to the guideline "${HTN_TITLE}".`
          : `请根据指南《${INSOMNIA_TITLE}》确定该患者的诊断方案。`;
      const good = at('dr-good');
      assert.deepEqual(good, {
        model: 'dr-good',
        cdp_id: c.cdp_id,
        guideline_id: c.guideline_id,
        language: c.language,
        turns: [
          {
            role: 'doctor',
            text: '**Question 1:** Is criterion 1 met?',
            parsed: 'Is criterion 1 met?',
            via: null,
            node: null,
            format: 'bold-marker+label-prefix',
          },
          { role: 'patient', text: 'Yes.', parsed: 'Yes', via: null, node: null, format: 'strict' },
          {
            role: 'doctor',
            text: '**Question 2:** Is criterion 2 met?',
            parsed: 'Is criterion 2 met?',
            via: null,
            node: null,
            format: 'bold-marker+label-prefix',
          },
          { role: 'patient', text: '"No"', parsed: 'No', via: null, node: null, format: 'quotes' },
          { role: 'doctor', text: 'Final Conclusion: heard Yes, No', parsed: 'heard Yes, No', via: null, node: null, format: 'strict' },
        ],
        questions: ['Is criterion 1 met?', 'Is criterion 2 met?'],
        outcome: 'heard Yes, No',
        success: true,
        // The questions carried a bold "Question N:" label: readable, not Prompt 6's format.
        success_strict: false,
        patient_failed: false,
        format: 'bold-marker+label-prefix',
        end_reason: 'conclusion',
        goal,
        patient: 'pt-script',
        // The patient's own flag, from its roster value (a real model here).
        patient_simulated: false,
        simulated: false,
        failure_kind: null,
        resampled: 0,
        // The cap it played under, with the rule's settings (capFactor 1, capExtra 1 above), and the templates
        // sent: the English ones for the Chinese guideline too, as there is no Chinese translation.
        cap: Number(c.length) + 1,
        cap_factor: 1,
        cap_extra: 1,
        templates: ['en/6-multi-turn-inference.md', 'en/7-multi-turn-patient-environment.md'],
      });
      const breaks = at('dr-breaks');
      assert.deepEqual(
        [breaks.success, breaks.questions, breaks.outcome, (breaks.turns as unknown[]).length],
        [false, ['Is criterion 1 met?'], null, 3],
      );
      assert.match(String(breaks.end_reason), /^invalid-turn: the turn asks 2 questions/);
      const endless = at('dr-endless');
      const cap = Number(c.length) + 1;
      assert.deepEqual([endless.success, endless.end_reason, endless.outcome], [false, 'turn-cap', null]);
      assert.deepEqual(
        endless.questions,
        Array.from({ length: cap }, (_, k) => `Is criterion ${k + 1} met?`),
      );
      assert.equal((endless.turns as unknown[]).length, 2 * cap);
      // The patient's "Maybe" is re-asked once, answered "Maybe" again: the patient's failure, not the doctor's.
      const maybe = at('dr-maybe');
      const maybeTurns = [
        { role: 'doctor', text: 'Is it maybe serious?', parsed: 'Is it maybe serious?', via: null, node: null, format: 'strict' },
        { role: 'patient', text: 'Maybe', parsed: null, via: null, node: null, format: null },
        { role: 'patient', text: 'Maybe', parsed: null, via: null, node: null, format: null },
      ];
      assert.deepEqual(
        [maybe.success, maybe.success_strict, maybe.patient_failed, maybe.format, maybe.questions, maybe.turns],
        [null, null, true, 'strict', ['Is it maybe serious?'], maybeTurns],
      );
      assert.match(String(maybe.end_reason), /^patient-failure: the answer "Maybe" does not start with Yes or No: it is uncertain/);
      // A failure row of kind 'patient', so --retry-failed asks again; its transcript is kept.
      assert.equal(maybe.failure_kind, 'patient');
      assert.match(String(maybe.error), /^patient pt-script, turn 1: answer unreadable after a re-ask: the answer "Maybe"/);
      assert.deepEqual([breaks.failure_kind, breaks.error ?? null, endless.failure_kind, good.failure_kind], ['answer', null, null, null]);
      assert.deepEqual(
        [breaks.patient_failed, breaks.success_strict, breaks.format, endless.patient_failed, endless.success_strict],
        [false, false, null, false, false],
      );
      const failed = at('dr-500');
      assert.match(String(failed.error), /^doctor dr-500, turn 1: .*500.*after 2 attempts/);
      assert.equal(failed.failure_kind, 'server');
      assert.equal(failed.goal, goal);
    }
    // The re-ask is a follow-up in the patient's chat naming the reader's reason, then the question again.
    const reask = server.requests.find((b) => b.model === 'pt-script' && b.messages.length === 4)!;
    assert.deepEqual(reask.messages.slice(1, 3), [
      { role: 'user', content: 'Is it maybe serious?' },
      { role: 'assistant', content: 'Maybe' },
    ]);
    assert.match(
      reask.messages[3]!.content,
      /could not be read \(the answer "Maybe" does not start with Yes or No: it is uncertain.*Is it maybe serious\?$|无法读取你的回答/,
    );
    // Each side saw its own chat: the doctor its parsed questions back, the patient the vignette.
    const second = server.requests.find((b) => b.model === 'dr-good' && b.messages.length === 3)!;
    assert.deepEqual(second.messages.slice(1), [
      { role: 'assistant', content: 'Is criterion 1 met?' },
      { role: 'user', content: 'Yes' },
    ]);
    assert.ok(second.messages[0]!.content.includes('## Patient’s Clinical Inquiry Goal\n'));
    for (const c of tests) {
      const v = data.vignetteOf.get(String(c.cdp_id))!;
      assert.ok(
        server.requests.some((b) => b.model === 'pt-script' && b.messages[0]!.content.endsWith(v)),
        `the patient of ${String(c.cdp_id)} got its vignette`,
      );
    }
    // One HTTP request per distinct chat of a case. The two English cases share their guideline
    // and goal, so a doctor's first prompt is the same for both — yet each case is its own sample
    // (as in the paper), so each is asked: 3 cases × the doctor's turns. Within a case, the
    // patient's chats are shared by the doctors whose questions coincide.
    const [htnA, htnB, zh] = tests.map((c) => Number(c.length));
    assert.equal(htnA, htnB, 'the fixture picks two English cases of equal length');
    const { 'dr-500': dr500, ...counts } = server.counters.byModel;
    assert.deepEqual(counts, {
      'st-plain': 3,
      'st-bold': 3,
      'st-think': 3,
      'st-no-outcome': 3,
      'st-500': 6,
      'dr-good': 3 * 3,
      'dr-breaks': 3 * 2,
      'dr-endless': htnA! + 1 + htnB! + 1 + zh! + 1,
      'dr-maybe': 3 * 1,
      // dr-endless's questions (dr-good's among them), and dr-maybe's question with its one re-ask.
      'pt-script': [htnA, htnB, zh].reduce((n, l) => n + (l! + 1) + 2, 0),
    });
    // Failed calls are not cached and cases no longer share a first prompt: 2 attempts × 3 cases.
    assert.equal(dr500, 6, `dr-500 asked ${dr500} times`);

    // ── a rerun reuses everything ──
    server.resetCounters();
    const again = await run();
    assert.ok(
      again.stages.every((st) => st.status === 'reused'),
      JSON.stringify(again.stages.map((st) => [st.stage, st.status])),
    );
    assert.equal(server.counters.chat, 0, 'a rerun makes no HTTP request');

    // ── --retry-failed once the server recovers ──
    faulting = false;
    server.resetCounters();
    const retried = await run({ retryFailed: true });
    assert.equal(retried.ok, true);
    const st = (name: string) => retried.stages.find((x) => x.stage === name)!;
    assert.deepEqual(
      [st('predictions_single').rowsComputed, st('predictions_single').rowsFailed],
      [6, 3],
      'st-500 and st-tiny recomputed; st-tiny still overflows',
    );
    // dr-500's server failures and dr-maybe's patient failures are asked again; the patient says "Maybe" again.
    assert.deepEqual([st('dialogues_multi').rowsComputed, st('dialogues_multi').rowsFailed], [6, 3]);
    // dr-500 now plays its 3 turns in each of the 3 cases, its patient's answers from the cache; dr-maybe's
    // dialogue resumes at the refused re-ask: its turn and the patient's first reply come from the cache,
    // only the re-ask is sent again (a fresh attempt).
    assert.deepEqual(
      { ...server.counters.byModel },
      { 'st-500': 3, 'dr-500': 3 * 3, 'pt-script': 3 },
      "the patient's answers come from the call cache; no doctor turn of dr-maybe is sent again",
    );
    const s2 = byUnit(project.rows('predictions_single'));
    const d2 = byUnit(project.rows('dialogues_multi'));
    for (const c of tests) {
      const id = String(c.cdp_id);
      assert.deepEqual(s2.get(`st-500 ${id}`)!.steps, s2.get(`st-plain ${id}`)!.steps);
      assert.equal(s2.get(`st-500 ${id}`)!.error ?? null, null);
      const healed = d2.get(`dr-500 ${id}`)!;
      assert.deepEqual(
        [healed.questions, healed.outcome, healed.success, healed.error ?? null],
        [['Is criterion 1 met?', 'Is criterion 2 met?'], 'heard Yes, No', true, null],
      );
    }
  } finally {
    project.remove();
    await server.close();
  }
});

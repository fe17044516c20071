// The project's realistic test server (issue 11 item 9): every labelled answer of the nine prompts
// is read as its label says, by the readers directly and through the server, and a DAG run of the
// task and judging stages (dag.config.ts's declarations) against the server stores what each
// label says: parse, format, end_reason, failure.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DagConfig, Row } from '../../pipeline/dag/define.ts';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import { configStages } from '../../pipeline/testing/config-stages.ts';
import type { FakeOpenAIServer } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { loadTemplate } from '../prompts/templates.ts';
import { NARRATIVE_GENERATOR } from '../agents/writers/narrative-writer.ts';
import { OFFLINE_WRITERS } from '../agents/writers/offline-writers.ts';
import { CONSTRUCTION_STAND_INS } from './run-roster.ts';
import { fixtureData, taskProject } from '../tasks/testing/task-dag.ts';
import dagConfig from '../../dag.config.ts';
import { REALISTIC_ANSWERS, answersFor, expectedReason, type Expect, type LabelledAnswer } from './testing/realistic-answers.ts';
import { readLabelled, type Reading } from './testing/realistic-reading.ts';
import { modelFor, realisticModels, realisticRoster, startRealisticServer } from './testing/realistic-server.ts';
import { realJudge, realModel, simulatedWriter } from '../roster/testing/specs.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXED = join(repo, 'stages/tasks/testing/fixed-rows.stage.ts');
const PATIENT = 'realistic-patient';

function assertReading(got: Reading, want: Expect, what: string, m = 2, n = 2): void {
  assert.equal(got.accept, want.accept, `${what}: ${JSON.stringify(got)}`);
  if (want.accept && got.accept) {
    assert.equal(got.format, want.format, `${what}: format`);
    if (want.value !== undefined) assert.equal(got.value, want.value, `${what}: value`);
  } else if (!want.accept && !got.accept) {
    assert.ok(got.reason.includes(expectedReason(want.reason, m, n)), `${what}: reason "${got.reason}" should contain "${want.reason}"`);
  }
}

describe('realistic answers: each label is what the reader does', () => {
  test('the catalogue covers the nine prompts (step scores once for Prompts 5 and 8), with accepts and rejects of each', () => {
    const prompts = new Set(REALISTIC_ANSWERS.map((a) => a.prompt));
    assert.equal(prompts.size, 8);
    for (const p of prompts) {
      const xs = answersFor(p);
      assert.ok(xs.some((a) => a.expect.accept) && xs.some((a) => !a.expect.accept), `${p} has accepts and rejects`);
    }
    assert.equal(new Set(REALISTIC_ANSWERS.map((a) => a.id)).size, REALISTIC_ANSWERS.length, 'ids are unique');
    assert.ok(
      REALISTIC_ANSWERS.filter((a) => a.finishReason === 'length').every((a) => !a.expect.accept),
      'a truncated answer is never accepted',
    );
  });
  for (const a of REALISTIC_ANSWERS) {
    test(`${a.prompt}: ${a.id}`, () => {
      assertReading(readLabelled(a), a.expect, a.id);
      if (a.reask) assertReading(readLabelled({ prompt: a.prompt, ...a.reask }), a.reask.expect, `${a.id} (re-ask)`);
      if (typeof a.text === 'function') assertReading(readLabelled(a, 3, 4), a.expect, `${a.id} at 3×4`, 3, 4);
    });
  }
});

test('the server serves each construction label with its finish_reason, through the real client', async () => {
  const server = await startRealisticServer();
  const construction = [
    ...answersFor('reasoning-tree-extraction'),
    ...answersFor('case-vignette-synthesis'),
    ...answersFor('reasoning-narrative-conversion'),
  ];
  const cacheDir = mkdtempSync(join(tmpdir(), 'cdp-realistic-'));
  const client = createLlmClient({
    cacheDir,
    roster: realisticRoster(server.url, [], construction.map(modelFor)),
    retry: { maxAttempts: 1 },
  });
  try {
    for (const a of construction) {
      const r = await client.chat({
        model: modelFor(a),
        role: 'builder',
        messages: [{ role: 'user', content: loadTemplate(a.prompt, 'en').text }],
      });
      assert.ok(r.ok, a.id);
      assert.equal(r.finishReason, a.finishReason ?? 'stop', a.id);
      assertReading(readLabelled({ prompt: a.prompt, text: r.text, finishReason: r.finishReason as 'length' | undefined }), a.expect, a.id);
    }
  } finally {
    await client.close();
    await server.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

/** One English and one Chinese test case of the agents' fixture. */
const cases = () => fixtureData((c, i) => (i === 0 || (c.guideline_id === 'insomnia' && i === 6) ? 'test' : null));

function config(evaluated: string[], judges: string[]): DagConfig {
  const data = cases();
  const fixed = (name: string, rows: Row[]) => ({ name, module: FIXED, params: { rows } });
  return {
    sources: {},
    stages: [
      fixed('guidelines', data.guidelines),
      fixed('trees', data.trees),
      fixed('cdps', data.cdps),
      fixed('test_cases', data.cdps),
      fixed('vignettes', data.vignettes),
      ...configStages(
        dagConfig,
        [
          'predictions_single',
          'dialogues_multi',
          ...(judges.length ? ['narratives', 'predicted_pathways', 'step_scores', 'outcome_scores'] : []),
        ],
        repo,
        {
          // The reference narratives by the offline writer: the judges' reference steps.
          narratives: { writer: simulatedWriter(NARRATIVE_GENERATOR) },
          predictions_single: { models: evaluated.map((m) => realModel(m)) },
          dialogues_multi: { models: evaluated.map((m) => realModel(m)), patient: realModel(PATIENT), capFactor: 1, capExtra: 2 },
          step_scores: { judges: judges.map((j) => realJudge(j)), runs: 1, maxReasks: 1 },
          outcome_scores: { judges: judges.map((j) => realJudge(j)), maxReasks: 1 },
        },
      ),
    ],
  };
}

async function runAgainst(server: FakeOpenAIServer, evaluated: string[], judges: string[]) {
  const project = taskProject(config(evaluated, judges));
  const client = createLlmClient({
    cacheDir: project.cacheDir,
    roster: [...realisticRoster(server.url, evaluated, judges, PATIENT), ...CONSTRUCTION_STAND_INS],
    offlineHandlers: OFFLINE_WRITERS,
    retry: { maxAttempts: 1 },
  });
  try {
    const summary = await project.run(client);
    assert.equal(summary.ok, true, JSON.stringify(summary.stages.filter((s) => s.error)));
    return project;
  } catch (e) {
    project.remove();
    throw e;
  } finally {
    await client.close();
  }
}

const turnsOf = (r: Row) => r.turns as { role: string; parsed: string | null; format: string | null }[];

test('DAG against the realistic server: every task-stage row is what its label says', async () => {
  const server = await startRealisticServer();
  const single = answersFor('single-turn-inference');
  const doctor = answersFor('multi-turn-inference');
  const patient = answersFor('multi-turn-patient-environment');
  const evaluated = realisticModels('single-turn-inference', 'multi-turn-inference', 'multi-turn-patient-environment');
  const project = await runAgainst(server, evaluated, []);
  try {
    const ps = project.rows('predictions_single');
    const dm = project.rows('dialogues_multi');
    const ids = cases().cdps.map((c) => String(c.cdp_id));
    assert.equal(ps.length, evaluated.length * ids.length);
    assert.equal(dm.length, evaluated.length * ids.length);
    // No call failed: every fault is a reading. A patient that stays unreadable is a failure row of
    // kind 'patient' (retried by --retry-failed), never the doctor's.
    assert.ok(
      [...ps, ...dm].every(
        (r) => r.error == null || (r.failure_kind === 'patient' && String(r.end_reason).startsWith('patient-failure: ')),
      ),
      'no call failed: every fault is a reading, not a failed call',
    );
    assert.ok(
      ps.every((r) => r.failure_kind === (r.parse_ok ? null : 'answer')),
      'an unreadable single-turn answer is an answer failure',
    );
    const at = (rows: Row[], a: LabelledAnswer, id: string) => rows.find((r) => r.model === modelFor(a) && r.cdp_id === id)!;
    for (const id of ids) {
      for (const a of single) {
        const r = at(ps, a, id);
        if (a.expect.accept) {
          assert.deepEqual(
            [r.parse_ok, r.answer_format, r.outcome, r.parse_error],
            [true, a.expect.format, a.expect.value, null],
            `${a.id} ${id}`,
          );
        } else {
          assert.deepEqual([r.parse_ok, r.answer_format], [false, null], `${a.id} ${id}`);
          assert.ok(String(r.parse_error).includes(a.expect.reason), `${a.id}: ${String(r.parse_error)}`);
        }
      }
      // Models probing the doctor and patient readers answer Prompt 4 strictly.
      for (const a of [...doctor, ...patient])
        assert.deepEqual([at(ps, a, id).parse_ok, at(ps, a, id).answer_format], [true, 'strict'], a.id);

      for (const a of doctor) {
        const r = at(dm, a, id);
        const turns = turnsOf(r);
        assert.equal(r.patient_failed, false, a.id);
        if (!a.expect.accept) {
          assert.ok(
            String(r.end_reason).startsWith(`invalid-turn: `) && String(r.end_reason).includes(a.expect.reason),
            `${a.id}: ${String(r.end_reason)}`,
          );
          assert.deepEqual([r.success, r.success_strict, r.format, turns.length, turns[0]!.format], [false, false, null, 1, null], a.id);
          continue;
        }
        const question = String(a.expect.value).endsWith('?');
        assert.deepEqual([turns[0]!.parsed, turns[0]!.format], [a.expect.value, a.expect.format], a.id);
        assert.deepEqual(
          [r.end_reason, r.success, r.success_strict, r.format, turns.length, r.outcome === a.expect.value],
          ['conclusion', true, a.expect.format === 'strict', a.expect.format, question ? 3 : 1, !question],
          a.id,
        );
      }
      for (const a of patient) {
        const r = at(dm, a, id);
        const turns = turnsOf(r);
        assert.deepEqual([turns[0]!.role, turns[0]!.format], ['doctor', 'strict'], a.id);
        const first = turns[1]!;
        if (a.expect.accept) {
          assert.deepEqual(
            [first.parsed, first.format, r.end_reason, r.success, r.success_strict, r.patient_failed],
            [a.expect.value, a.expect.format, 'conclusion', true, true, false],
            a.id,
          );
          continue;
        }
        assert.deepEqual([first.role, first.parsed, first.format], ['patient', null, null], a.id);
        const reask = a.reask!;
        const second = turns[2]!;
        assert.equal(second.role, 'patient', `${a.id}: the re-ask's reply is the next turn`);
        if (reask.expect.accept) {
          assert.deepEqual(
            [second.parsed, second.format, r.end_reason, r.success, r.patient_failed],
            [reask.expect.value, reask.expect.format, 'conclusion', true, false],
            a.id,
          );
        } else {
          assert.deepEqual(
            [second.parsed, r.success, r.success_strict, r.patient_failed, r.format, turns.length],
            [null, null, null, true, 'strict', 3],
            a.id,
          );
          assert.ok(
            String(r.end_reason).startsWith('patient-failure: ') && String(r.end_reason).includes(reask.expect.reason),
            `${a.id}: ${String(r.end_reason)}`,
          );
        }
      }
      // Models probing Prompt 4 play the plain doctor: strict questions, a conclusion.
      for (const a of single)
        assert.deepEqual([at(dm, a, id).success, at(dm, a, id).success_strict, at(dm, a, id).format], [true, true, 'strict'], a.id);
    }
    // Each unreadable patient answer was re-asked exactly once, naming the reader's reason.
    const reasks = server.requests.filter((b) => b.model === PATIENT && /could not be read|无法读取/.test(b.messages.at(-1)!.content));
    assert.equal(reasks.length, patient.filter((a) => !a.expect.accept).length * ids.length);
    assert.ok(reasks.some((b) => b.messages.at(-1)!.content.includes('truncated answer (finish_reason: length)')));
  } finally {
    project.remove();
    await server.close();
  }
});

test('DAG against the realistic server: every judge row is what its label says', async () => {
  const server = await startRealisticServer();
  const stepLabels = answersFor('single-turn-step-level-consistency-scoring');
  const outcomeLabels = answersFor('outcome-accuracy-scoring');
  const judges = realisticModels('single-turn-step-level-consistency-scoring', 'outcome-accuracy-scoring');
  // One plain model: both settings of both cases, i.e. 4 pathways for every judge.
  const project = await runAgainst(server, ['plain-model'], judges);
  try {
    const steps = project.rows('step_scores');
    const outcomes = project.rows('outcome_scores');
    assert.equal(steps.length, judges.length * 4);
    assert.equal(outcomes.length, judges.length * 4);
    for (const r of steps) {
      const a = stepLabels.find((x) => modelFor(x) === r.judge);
      const m = Number(r.m),
        n = Number(r.n);
      assert.ok(m >= 1 && n >= 1, `${String(r.judge)}: a pathway to score`);
      if (!a || a.expect.accept) {
        assert.equal(r.error ?? null, null, `${String(r.judge)} ${String(r.setting)}`);
        // The labels score 5 on the diagonal, plain-model.ts 4; 2 elsewhere; normalised (s − 1) / 4.
        const diagonal = a ? 1 : 0.75;
        assert.deepEqual(
          r.C,
          Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_x, j) => (i === j ? diagonal : 0.25))),
          String(r.judge),
        );
        assert.equal(r.calls, 1, `${String(r.judge)}: no re-ask`);
      } else {
        const said = [String(r.error), ...((r.problems as string[]) ?? [])].join(' | ');
        assert.ok(said.includes(expectedReason(a.expect.reason, m, n)), `${a.id}: ${said}`);
        assert.equal(r.calls, 2, `${a.id}: asked, re-asked once, refused`);
      }
    }
    for (const r of outcomes) {
      const a = outcomeLabels.find((x) => modelFor(x) === r.judge);
      if (!a || a.expect.accept) {
        assert.deepEqual([r.error ?? null, r.score, r.calls], [null, a ? a.expect.accept && a.expect.value : 4, 1], String(r.judge));
      } else {
        const said = [String(r.error), ...((r.problems as string[]) ?? [])].join(' | ');
        assert.ok(said.includes(a.expect.reason), `${a.id}: ${said}`);
        assert.equal(r.calls, 2, `${a.id}: asked, re-asked once, refused`);
      }
    }
  } finally {
    project.remove();
    await server.close();
  }
});

// The task stages offline: the simulated agents through the real LLM client, answering from the
// unit context each call carries (no server, no shared state between the stages and the agents).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLlmClient } from '../../pipeline/llm/client.ts';
import type { Row } from '../../pipeline/dag/define.ts';
import { DOCTOR_NOT_DETERMINABLE } from '../agents/answer-writing.ts';
import { ORACLE_NAME } from '../agents/oracle.ts';
import { PATIENT_NAME } from '../agents/offline-patient.ts';
import { planCase, questionsOf } from '../agents/perturbation-agent.ts';
import { profileFromName } from '../agents/perturbation-profile.ts';
import { offlineHandlers, SIMULATED_ROSTER } from '../agents/roster.ts';
import { doctorSystem, HTN_TREE, INSOMNIA_TREE, markdownOf } from '../agents/testing/benchmark-cases.ts';
import type { Cdp } from '../construct/types.ts';
import { fixtureData, taskDag, taskProject } from './testing/task-dag.ts';
import { simulatedAgents, simulatedPatient } from '../roster/testing/specs.ts';

const PERTURBED = 'simulated-mixed-0.15-wrong-0.2';
const MODELS = [ORACLE_NAME, PERTURBED];

test('offline: the oracle reproduces every reference pathway and conclusion; a perturbation agent follows its plan; a rerun calls nothing', async () => {
  const data = fixtureData((_c, i) => (i === 5 ? 'non-test' : 'test'));
  const tests = data.cdps.filter((c) => c.split === 'test');
  assert.equal(tests.length, 8);
  const project = taskProject(
    taskDag(data, { models: simulatedAgents(MODELS) }, { models: simulatedAgents(MODELS), patient: simulatedPatient() }),
  );
  const run = async () => {
    const client = createLlmClient({ cacheDir: project.cacheDir, roster: SIMULATED_ROSTER, offlineHandlers: offlineHandlers() });
    try {
      return { summary: await project.run(client), calls: client.counters().calls };
    } finally {
      await client.close();
    }
  };
  // The perturbation plans (ground truth), from the same case and tree the agent was given.
  const planFor = (c: Row) =>
    planCase(profileFromName(PERTURBED), c as unknown as Cdp, c.guideline_id === 'htn' ? HTN_TREE : INSOMNIA_TREE);
  try {
    const first = await run();
    assert.equal(first.summary.ok, true, JSON.stringify(first.summary.stages.filter((s) => s.error)));
    const key = (r: Row) => `${String(r.model)} ${String(r.cdp_id)}`;
    const single = new Map(project.rows('predictions_single').map((r) => [key(r), r]));
    const multi = new Map(project.rows('dialogues_multi').map((r) => [key(r), r]));
    assert.equal(single.size, MODELS.length * tests.length);
    assert.equal(multi.size, MODELS.length * tests.length);
    let dialogueCalls = 0;
    for (const c of tests) {
      const id = String(c.cdp_id);
      const s = single.get(`${ORACLE_NAME} ${id}`)!;
      assert.deepEqual(
        [s.parse_ok, s.outcome, (s.steps as string[]).length, s.simulated, s.error ?? null],
        [true, c.conclusion, c.length, true, null],
        id,
      );
      const d = multi.get(`${ORACLE_NAME} ${id}`)!;
      assert.deepEqual(
        [d.questions, d.outcome, d.success, d.end_reason, d.patient, d.patient_simulated, d.simulated],
        [c.reference_questions, c.conclusion, true, 'conclusion', PATIENT_NAME, true, true],
        `${id}: ${JSON.stringify(d.turns)}`,
      );
      // The patient answered as the path says: its answers are the reference outcomes.
      const answers = (d.turns as Array<{ role: string; parsed: string }>).filter((t) => t.role === 'patient').map((t) => t.parsed);
      assert.deepEqual(
        answers,
        (c.steps as Array<{ decision_outcome: string }>).map((st) => (st.decision_outcome === 'yes' ? 'Yes' : 'No')),
      );
      // …and recorded that it answered from the path, node by node.
      const how = (d.turns as Array<{ role: string; via: string; node: number }>)
        .filter((t) => t.role === 'patient')
        .map((t) => [t.via, t.node]);
      assert.deepEqual(
        how,
        (c.steps as Array<{ node_index: number }>).map((st) => ['path', st.node_index]),
        id,
      );

      const plan = planFor(c);
      const ps = single.get(`${PERTURBED} ${id}`)!;
      assert.deepEqual([ps.parse_ok, ps.outcome, (ps.steps as string[]).length], [true, plan.conclusion, plan.steps.length], id);
      const pd = multi.get(`${PERTURBED} ${id}`)!;
      assert.deepEqual([pd.questions, pd.outcome, pd.success], [questionsOf(plan), plan.conclusion, true], id);
      dialogueCalls += 2 * (c.length as number) + 1 + 2 * plan.steps.length + 1;
    }
    assert.equal(first.calls, 2 * tests.length + dialogueCalls, 'every offline call is accounted for');

    // The same prompt without the unit context: the perturbation doctor cannot know the case, so
    // the context (not the prompt) is what placed it above.
    const c0 = tests[0]!;
    const doctor = offlineHandlers([PERTURBED])[PERTURBED]!;
    const system = doctorSystem(markdownOf(c0 as never), String(multi.get(`${PERTURBED} ${String(c0.cdp_id)}`)!.goal));
    const bare = await doctor.callApi({ model: PERTURBED, messages: [{ role: 'system', content: system }] }, undefined);
    assert.equal(bare.output, `Final Conclusion: ${DOCTOR_NOT_DETERMINABLE}`);

    const second = await run();
    assert.ok(second.summary.stages.every((s) => s.status === 'reused'));
    assert.equal(second.calls, 0, 'a rerun calls no agent');
  } finally {
    project.remove();
  }
});

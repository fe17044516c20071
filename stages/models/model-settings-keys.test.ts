// A model's settings are part of its results' identity, through `cdp` against one local
// OpenAI-compatible server: pointing a model at another checkpoint, then changing its params,
// recomputes exactly that model's units and sends only its requests; a judge's temperature
// recomputes only that judge's units; a new patient checkpoint recomputes the dialogues; its
// price and timeout recompute nothing. `cdp status` names the model and the setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIServer } from '../../pipeline/llm/testing/fake-openai-server.ts';
import { runCdp } from '../../pipeline/testing/cdp-process.ts';
import { plainAnswer } from './testing/plain-model.ts';

type StageRun = { stage: string; status: string; rowsComputed: number; rowsReused: number };
type Entry = Record<string, unknown> & { name: string };

const CASES = 3;
const cdp = (args: string[], env: NodeJS.ProcessEnv) => runCdp(args, { CDP_NO_FAST_PATH: '', ...env });

test("one model's id, then its params, recompute its units only; a judge's temperature only the judge's; price and timeout nothing", async () => {
  // Answers depend on the model's family, not its checkpoint or params: a new checkpoint answers as
  // the old one did, so only the units that call it recompute and nothing downstream changes.
  const server = await startFakeOpenAIServer({
    answer: (b) => plainAnswer(b, b.model.startsWith('org/baseline') ? { steps: 3, questions: 1 } : { steps: 2, questions: 2 }),
  });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'cdp-model-settings-'));
    const file = join(dir, 'models.json');
    const entry = (name: string, model: string, roles: string[], extra: Record<string, unknown> = {}): Entry => ({
      name,
      baseURL: server.url,
      model,
      roles,
      contextWindow: 1_000_000,
      ...extra,
    });
    const models: Entry[] = [
      entry('my-med-llm', 'org/my-med-llm', ['evaluated'], { params: { max_tokens: 2048 } }),
      entry('baseline-7b', 'org/baseline-7b', ['evaluated']),
      entry('judge-x', 'org/judge-x', ['judge'], { params: { temperature: 0 } }),
      entry('judge-y', 'org/judge-y', ['judge']),
      entry('patient-x', 'org/patient', ['patient']),
    ];
    const write = () => writeFileSync(file, JSON.stringify({ models }));
    const change = (name: string, over: Record<string, unknown>) => {
      const m = models.find((x) => x.name === name)!;
      Object.assign(m, over);
      write();
    };
    const env = { CDP_STORE: join(dir, 'store'), CDP_LIMIT: String(CASES) };
    const run = async () => {
      server.resetCounters();
      const r = await cdp(['run', '--models', file, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      const stages = (JSON.parse(r.stdout) as { stages: StageRun[] }).stages;
      const computed = Object.fromEntries(stages.filter((s) => s.rowsComputed > 0).map((s) => [s.stage, s.rowsComputed]));
      return { computed, byModel: { ...server.counters.byModel }, stages };
    };
    const status = async () => {
      const r = await cdp(['status', '--models', file, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      const rows = JSON.parse(r.stdout) as { stage: string; state: string; reasons: string[] }[];
      return Object.fromEntries(rows.filter((s) => s.state !== 'fresh').map((s) => [s.stage, s.reasons]));
    };
    // The stages stale for a reason of their own, not only because an input will change.
    const causes = (st: Record<string, string[]>) =>
      Object.keys(st)
        .filter((k) => st[k]!.some((r) => !/^input '[^']*' \([^)]*\) will change$/.test(r)))
        .sort();
    const reused = (stages: StageRun[], stage: string) => stages.find((s) => s.stage === stage)!.rowsReused;

    write();
    const first = await run();
    assert.equal(first.computed.predictions_single, 2 * CASES);
    assert.ok(first.byModel['org/my-med-llm']! > 0 && first.byModel['org/judge-x']! > 0);
    assert.deepEqual(await status(), {}, 'everything fresh after a run');
    // Per case and judge, both settings of both models: the judged pathways.
    const judged = 2 * 2 * CASES;

    // 1. Another checkpoint behind the same name.
    change('my-med-llm', { model: 'org/my-med-llm-v2' });
    const idCause = "crossed param 'models': my-med-llm changed: model";
    const afterId = await status();
    assert.deepEqual(afterId.predictions_single, [idCause]);
    assert.deepEqual(afterId.dialogues_multi, [idCause]);
    assert.deepEqual(causes(afterId), ['dialogues_multi', 'predictions_single'], 'every other stage is stale only through its inputs');
    const v2 = await run();
    assert.deepEqual(
      [v2.computed.predictions_single, v2.computed.dialogues_multi, reused(v2.stages, 'predictions_single')],
      [CASES, CASES, CASES],
      "only my-med-llm's units; baseline-7b's are reused",
    );
    assert.deepEqual(Object.keys(v2.byModel), ['org/my-med-llm-v2'], 'the server sees only the new checkpoint');
    assert.equal(v2.computed.step_scores, undefined, 'the same answers: nothing downstream recomputes');

    // 2. Its sampling params.
    change('my-med-llm', { params: { max_tokens: 4096 } });
    const afterTokens = await status();
    assert.deepEqual(afterTokens.predictions_single, ["crossed param 'models': my-med-llm changed: params.max_tokens"]);
    assert.deepEqual(causes(afterTokens), ['dialogues_multi', 'predictions_single']);
    const tokens = await run();
    assert.deepEqual([tokens.computed.predictions_single, tokens.computed.dialogues_multi], [CASES, CASES]);
    assert.deepEqual(Object.keys(tokens.byModel), ['org/my-med-llm-v2']);
    const sent = server.requests.slice(-tokens.byModel['org/my-med-llm-v2']!);
    assert.ok(
      sent.every((b) => b.max_tokens === 4096),
      'the new params are what the server receives',
    );

    // 3. What changes no answer: price, timeout, concurrency, rate limits, a note, another replica.
    change('my-med-llm', {
      price: { inputPerMTok: 3, outputPerMTok: 9 },
      timeoutMs: 5_000,
      concurrency: 2,
      rpm: 600,
      note: 'moved',
      baseURL: [server.url, `${server.url}/`],
    });
    assert.deepEqual(await status(), {}, 'price, timeout and transport leave every stage fresh');
    const same = await run();
    assert.deepEqual([same.computed, same.byModel], [{}, {}]);

    // 4. One judge's temperature: that judge's units only.
    change('judge-x', { params: { temperature: 0.2 } });
    const judgeCause = "crossed param 'judges': judge-x changed: params.temperature";
    const afterJudge = await status();
    assert.deepEqual([afterJudge.step_scores, afterJudge.outcome_scores], [[judgeCause], [judgeCause]]);
    // pathway_metrics takes no judge param (the calibration comes in its rows): it is stale only through its input.
    assert.deepEqual(causes(afterJudge), ['outcome_scores', 'step_scores']);
    const warmer = await run();
    assert.deepEqual(
      [warmer.computed.step_scores, warmer.computed.outcome_scores, reused(warmer.stages, 'step_scores')],
      [judged, judged, judged],
      "judge-x's units recompute, judge-y's are reused",
    );
    assert.equal(warmer.computed.pathway_metrics, judged, "judge-x's rows (their calls changed)");
    assert.deepEqual(Object.keys(warmer.byModel), ['org/judge-x']);
    assert.equal(warmer.computed.predictions_single, undefined);

    // 5. The patient, shared by every real model's dialogue.
    change('patient-x', { model: 'org/patient-v2' });
    const afterPatient = await status();
    assert.deepEqual(afterPatient.dialogues_multi, ['params changed: patient (patient-x changed: model)']);
    assert.deepEqual(causes(afterPatient), ['dialogues_multi']);
    const patient = await run();
    assert.deepEqual([patient.computed.dialogues_multi, patient.computed.predictions_single], [2 * CASES, undefined]);
    assert.deepEqual(Object.keys(patient.byModel), ['org/patient-v2']);
  } finally {
    await server.close();
  }
});
